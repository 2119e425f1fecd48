import { type ClientHttp2Session, connect, type IncomingHttpHeaders } from 'node:http2';
import { type Agent, request as httpsRequest } from 'node:https';

/** Client-side TLS material for test requests. */
export interface ClientTls {
  /** CA that signed the serving certificate. */
  readonly ca: string;
  readonly cert?: string;
  readonly key?: string;
}

export interface TestResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | number | undefined>;
  readonly body: Buffer;
}

export interface TestRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string | Buffer;
}

/** One HTTP/1.1 request over TLS (no ALPN h2 offered). `agent: false` opens a dedicated connection. */
export function h1Request(
  baseUrl: string,
  tls: ClientTls,
  req: TestRequest,
  agent: Agent | false = false,
): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const r = httpsRequest(
      `${baseUrl}${req.path}`,
      { method: req.method ?? 'GET', headers: req.headers, agent, ca: tls.ca, cert: tls.cert, key: tls.key },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    r.end(req.body);
  });
}

/** Opens an HTTP/2 session (ALPN h2) to `baseUrl`. */
export function h2Connect(baseUrl: string, tls: ClientTls): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = connect(baseUrl, { ca: tls.ca, cert: tls.cert, key: tls.key });
    session.once('connect', () => {
      session.off('error', reject);
      resolve(session);
    });
    session.once('error', reject);
  });
}

/** One request on an HTTP/2 session. */
export function h2Request(session: ClientHttp2Session, req: TestRequest): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': req.method ?? 'GET', ':path': req.path, ...req.headers });
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => {
      headers = h;
    });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () =>
      resolve({
        status: Number(headers[':status']),
        headers: headers as TestResponse['headers'],
        body: Buffer.concat(chunks),
      }),
    );
    stream.on('error', reject);
    stream.end(req.body);
  });
}

/** Resolves with the next value passed to `settle`; a one-shot latch for sequencing tests. */
export function latch<T = void>(): { promise: Promise<T>; settle: (value: T) => void } {
  let settle!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}
