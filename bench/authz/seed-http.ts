import { request } from 'node:https';

export type Creds = { ca: string; cert: string; key: string };

/** POSTs a JSON body and resolves with the response text; rejects on any status from 300 up. */
export function post(base: string, creds: Creds, path: string, body: unknown): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, base),
      {
        method: 'POST',
        ca: creds.ca,
        cert: creds.cert,
        key: creds.key,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if ((res.statusCode ?? 0) < 300) resolve(text);
          else reject(new Error(`POST ${path}: ${res.statusCode} ${text.slice(0, 300)}`));
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Runs `jobs` with at most `width` in flight. */
export async function inParallel(jobs: (() => Promise<unknown>)[], width: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
}
