import { execFile } from 'node:child_process';
import { connect as h2connect } from 'node:http2';
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/**
 * Requests per second of a GET loop with wrk (HTTP/1.1, 64 connections, 2 threads). wrk cannot
 * present a client certificate: pass `bearerToken` to authenticate.
 */
export function wrkRps(url: string, seconds: number, bearerToken?: string): Promise<number> {
  const auth = bearerToken ? ['-H', `Authorization: Bearer ${bearerToken}`] : [];
  return new Promise((resolve, reject) => {
    execFile(
      'wrk',
      ['-t2', '-c64', `-d${seconds}s`, ...auth, url],
      { timeout: (seconds + 30) * 1000 },
      (err, stdout) => {
        if (err) return reject(err);
        const m = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
        const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
        if (non2xx) return reject(new Error(`wrk saw ${non2xx[1]} error responses`));
        resolve(m ? Number(m[1]) : Number.NaN);
      },
    );
  });
}

export interface Creds {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

/** One HTTPS/1.1 GET, returning status, body and elapsed milliseconds. */
export function timedGet(
  base: string,
  path: string,
  creds: Creds,
  agent: HttpsAgent | false = false,
): Promise<{ status: number; body: Buffer; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpsRequest(new URL(path, base), { ca: creds.ca, cert: creds.cert, key: creds.key, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - t0 }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const NEWLINE = 0x0a;
const NAME_FIELD = Buffer.from('"name":"');
const QUOTE = 0x22;

/** The first `"name":"…"` value of one event line (the object's name: metadata comes first). */
function eventName(line: Buffer): string | undefined {
  const at = line.indexOf(NAME_FIELD);
  if (at < 0) return undefined;
  const from = at + NAME_FIELD.length;
  const to = line.indexOf(QUOTE, from);
  return to < 0 ? undefined : line.toString('latin1', from, to);
}

/**
 * Opens `count` watches over HTTP/2 (spread over `sessions` connections) and records, for every
 * event, the time its last byte arrived. The time is taken first thing in the stream's 'data'
 * callback, and the per-frame work is kept to a few native buffer searches, so that the client,
 * which shares the machine's cores with the server, adds as little as it can to what it measures.
 * Resolves once every watch has its response headers.
 */
export async function openWatchers(base: string, path: string, count: number, creds: Creds, sessionCount = 1) {
  // The server allows 1,000 concurrent streams per connection.
  const sessions = Array.from({ length: Math.max(sessionCount, Math.ceil(count / 1000), 1) }, () =>
    h2connect(base, {
      ca: creds.ca,
      cert: creds.cert,
      key: creds.key,
      settings: { initialWindowSize: 1 << 20 },
    }),
  );
  const arrivals = new Map<string, number[]>();
  const record = (line: Buffer, now: number): void => {
    const name = eventName(line);
    if (name === undefined) return;
    const list = arrivals.get(name);
    if (list) list.push(now);
    else arrivals.set(name, [now]);
  };
  let ready = 0;
  await new Promise<void>((resolve, reject) => {
    for (let i = 0; i < count; i++) {
      const s = sessions[i % sessions.length];
      const stream = s.request({ ':path': path });
      let pending: Buffer | undefined;
      stream.on('response', () => {
        if (++ready === count) resolve();
      });
      stream.on('data', (chunk: Buffer) => {
        const now = performance.now();
        let data = pending === undefined ? chunk : Buffer.concat([pending, chunk]);
        let nl = data.indexOf(NEWLINE);
        while (nl >= 0) {
          record(data.subarray(0, nl), now);
          data = data.subarray(nl + 1);
          nl = data.indexOf(NEWLINE);
        }
        pending = data.length > 0 ? data : undefined;
      });
      stream.on('error', reject);
    }
  });
  return {
    arrivals,
    close() {
      for (const s of sessions) s.destroy();
    },
  };
}
