import { Agent, request } from 'node:https';

/** How a load loop authenticates: a client certificate, or a bearer token over server-verified TLS. */
export interface LoadCredentials {
  readonly ca: string;
  readonly cert?: string;
  readonly key?: string;
  readonly token?: string;
}

/**
 * Requests per second of `connections` HTTP/1.1 keep-alive connections each GETting `path` in a
 * loop for `seconds`. The same generator runs for every credential kind, so their ratios compare
 * the server's work only (wrk cannot present client certificates). Rejects on any non-200.
 */
export async function keepAliveRps(
  base: string,
  path: string,
  creds: LoadCredentials,
  o: { seconds: number; connections: number },
): Promise<number> {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: o.connections,
    ca: creds.ca,
    cert: creds.cert,
    key: creds.key,
  });
  const url = new URL(path, base);
  const headers: Record<string, string> = creds.token ? { authorization: `Bearer ${creds.token}` } : {};
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, { agent, headers }, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`GET ${path}: ${res.statusCode}`));
          res.resume();
          return;
        }
        res.on('data', () => {});
        res.on('end', resolve);
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  // Warm every connection (TLS handshakes are not what is measured).
  await Promise.all(Array.from({ length: o.connections }, get));
  let done = 0;
  const deadline = performance.now() + o.seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: o.connections }, async () => {
      while (performance.now() < deadline) {
        await get();
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  return done / elapsed;
}
