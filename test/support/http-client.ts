import { connect as h2connect } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import type { Credentials } from './server-process.js';

export interface HttpResult {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  json(): any;
}

export interface RequestOptions {
  readonly method?: string;
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string | Buffer | object;
  /** Client credentials; anonymous when unset. */
  readonly as?: Credentials | 'anonymous';
  /** Only the server CA is needed to verify the server. */
  readonly ca: string;
}

/** One HTTPS/1.1 request. Objects given as `body` are sent as JSON. */
export function request(baseUrl: string, path: string, o: RequestOptions): Promise<HttpResult> {
  const url = new URL(path, baseUrl);
  const creds = o.as && o.as !== 'anonymous' ? o.as : undefined;
  const body =
    o.body === undefined
      ? undefined
      : typeof o.body === 'string' || Buffer.isBuffer(o.body)
        ? o.body
        : JSON.stringify(o.body);
  const headers: Record<string, string | string[]> = { ...(o.headers ?? {}) };
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      { method: o.method ?? 'GET', headers, ca: o.ca, cert: creds?.cert, key: creds?.key, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const buf = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: buf,
            text: buf.toString('utf8'),
            json: () => JSON.parse(buf.toString('utf8')),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** One HTTP/2 request (ALPN h2), to prove both protocols are served. */
export function h2request(baseUrl: string, path: string, o: RequestOptions): Promise<HttpResult & { alpn: string }> {
  const creds = o.as && o.as !== 'anonymous' ? o.as : undefined;
  return new Promise((resolve, reject) => {
    const session = h2connect(baseUrl, { ca: o.ca, cert: creds?.cert, key: creds?.key });
    session.on('error', reject);
    const stream = session.request({ ':method': o.method ?? 'GET', ':path': path, ...(o.headers ?? {}) });
    let status = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    stream.on('response', (h) => {
      status = Number(h[':status']);
      headers = h as Record<string, string | string[] | undefined>;
    });
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const buf = Buffer.concat(chunks);
      const alpn = session.alpnProtocol ?? '';
      session.close();
      resolve({
        status,
        headers,
        body: buf,
        text: buf.toString('utf8'),
        json: () => JSON.parse(buf.toString('utf8')),
        alpn,
      });
    });
    stream.on('error', reject);
    if (o.body !== undefined)
      stream.end(typeof o.body === 'string' || Buffer.isBuffer(o.body) ? o.body : JSON.stringify(o.body));
    else stream.end();
  });
}
