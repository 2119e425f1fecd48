import { request as httpsRequest } from 'node:https';
import type { Credentials } from './server-process.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
export type WatchEventJson = { type: string; object: any };

export interface WatchClient {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Events received so far. */
  readonly events: WatchEventJson[];
  /** Resolves when at least `n` events arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<WatchEventJson[]>;
  /** Resolves when the server ended the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

/** Opens a JSON watch (HTTP/1.1 chunked stream) and collects its events. */
export function openWatch(baseUrl: string, path: string, creds: Credentials): Promise<WatchClient> {
  return new Promise((resolve, reject) => {
    const events: WatchEventJson[] = [];
    const waiters: Array<() => void> = [];
    let endResolve: () => void = () => {};
    const ended = new Promise<void>((r) => (endResolve = r));
    const req = httpsRequest(
      new URL(path, baseUrl),
      { ca: creds.ca, cert: creds.cert, key: creds.key, agent: false },
      (res) => {
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          buf += d;
          let nl = buf.indexOf('\n');
          while (nl >= 0) {
            const line = buf.slice(0, nl).trim();
            buf = buf.slice(nl + 1);
            if (line) events.push(JSON.parse(line));
            nl = buf.indexOf('\n');
          }
          for (const w of waiters.splice(0)) w();
        });
        res.on('end', () => {
          if (buf.trim()) events.push(JSON.parse(buf));
          endResolve();
          for (const w of waiters.splice(0)) w();
        });
        res.on('error', () => endResolve());
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          events,
          ended,
          async waitFor(n, timeoutMs = 10000) {
            const deadline = Date.now() + timeoutMs;
            while (events.length < n) {
              if (Date.now() > deadline)
                throw new Error(`timed out waiting for ${n} events; got ${JSON.stringify(events)}`);
              await Promise.race([new Promise<void>((r) => waiters.push(r)), new Promise((r) => setTimeout(r, 100))]);
            }
            return events;
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
