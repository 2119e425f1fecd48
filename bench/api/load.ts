import { execFile } from 'node:child_process';
import { connect as h2connect } from 'node:http2';
import { request as httpsRequest } from 'node:https';

/** Requests per second of a GET loop with wrk (HTTP/1.1, 64 connections, 2 threads). */
export function wrkRps(url: string, seconds: number): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile('wrk', ['-t2', '-c64', `-d${seconds}s`, url], { timeout: (seconds + 30) * 1000 }, (err, stdout) => {
      if (err) return reject(err);
      const m = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
      const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
      if (non2xx) return reject(new Error(`wrk saw ${non2xx[1]} error responses`));
      resolve(m ? Number(m[1]) : Number.NaN);
    });
  });
}

export function haveWrk(): Promise<boolean> {
  return new Promise((resolve) =>
    execFile('wrk', ['--version'], (err, stdout, stderr) => resolve(/wrk/.test(stdout + stderr) || !err)),
  );
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
): Promise<{ status: number; body: Buffer; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      new URL(path, base),
      { ca: creds.ca, cert: creds.cert, key: creds.key, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - t0 }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Opens `count` watches over HTTP/2 (spread over a few sessions) and records, for every
 * event, the time it arrived. Resolves once every watch has its response headers.
 */
export async function openWatchers(base: string, path: string, count: number, creds: Creds) {
  const sessions = Array.from({ length: Math.ceil(count / 250) }, () =>
    h2connect(base, { ca: creds.ca, cert: creds.cert, key: creds.key, settings: { initialWindowSize: 1 << 20 } }),
  );
  const arrivals = new Map<string, number[]>();
  let ready = 0;
  await new Promise<void>((resolve, reject) => {
    for (let i = 0; i < count; i++) {
      const s = sessions[i % sessions.length];
      const stream = s.request({ ':path': path });
      let buf = '';
      stream.setEncoding('utf8');
      stream.on('response', () => {
        if (++ready === count) resolve();
      });
      stream.on('data', (d: string) => {
        const now = performance.now();
        buf += d;
        let nl = buf.indexOf('\n');
        while (nl >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const name = /"name":"([^"]+)"/.exec(line)?.[1];
          if (name) {
            const list = arrivals.get(name) ?? [];
            list.push(now);
            arrivals.set(name, list);
          }
          nl = buf.indexOf('\n');
        }
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
