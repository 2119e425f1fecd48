import { request } from 'node:https';

/** A fetched document. */
export interface FetchedDocument {
  readonly status: number;
  /** Go's `resp.Status`: `200 OK`. */
  readonly statusLine: string;
  readonly body: string;
}

/** Fetches a document over HTTPS for discovery and key sets; rejects on network failure. */
export type DocumentFetcher = (url: string, signal: AbortSignal) => Promise<FetchedDocument>;

export interface HttpsFetcherOptions {
  /** PEM CA bundle the server's certificate must chain to; the host's roots when undefined. */
  readonly ca?: string;
  /** Whole-request timeout (kube-apiserver's client: 30 s). */
  readonly timeoutMs?: number;
  /** Larger bodies fail the fetch (default 1 MiB). */
  readonly maxBytes?: number;
}

/**
 * A fetcher that GETs `https:` URLs with the given CA, stopping at `signal` or the timeout. The
 * body is read as UTF-8 up to `maxBytes`. Redirects are not followed.
 */
export function httpsFetcher(options: HttpsFetcherOptions = {}): DocumentFetcher {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxBytes = options.maxBytes ?? 1 << 20;
  return (url, signal) =>
    new Promise<FetchedDocument>((resolve, reject) => {
      const target = new URL(url);
      if (target.protocol !== 'https:') {
        const scheme = JSON.stringify(target.protocol.slice(0, -1));
        reject(new Error(`Get ${JSON.stringify(url)}: unsupported protocol scheme ${scheme}`));
        return;
      }
      const timeout = AbortSignal.timeout(timeoutMs);
      let settled = false;
      const fail = (reason: string) => {
        if (settled) return;
        settled = true;
        reject(new Error(`Get ${JSON.stringify(url)}: ${reason}`));
      };
      const req = request(
        target,
        {
          method: 'GET',
          ca: options.ca,
          signal: AbortSignal.any([signal, timeout]),
          headers: { accept: 'application/json' },
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > maxBytes) {
              fail(`response larger than ${maxBytes} bytes`);
              req.destroy();
              return;
            }
            chunks.push(c);
          });
          res.on('end', () => {
            if (settled) return;
            settled = true;
            const status = res.statusCode ?? 0;
            resolve({
              status,
              statusLine: `${status} ${res.statusMessage ?? ''}`.trimEnd(),
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
          res.on('error', (e) => fail(e.message));
        },
      );
      req.on('error', (e: Error) => {
        fail(
          timeout.aborted ? 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)' : e.message,
        );
      });
      req.end();
    });
}
