import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import { apiErrors } from '../../apis/meta/status.js';
import type { RequestHead } from '../../authn/authenticator.js';
import { type ApiRequest, type ApiResponse, bodyBytes, type Handler } from '../../endpoints/handler.js';
import { RequestWarnings } from '../../endpoints/request/request-warnings.js';

/** One exchange the bridge carried, for assertions on what a real client sent and got. */
export interface BridgedExchange {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly accept: string;
  readonly contentType: string;
  /** The request body as the client sent it. */
  readonly body: Buffer;
  /** Set once the handler answered. */
  status?: number;
  responseContentType?: string;
}

/** A plain-HTTP listener on 127.0.0.1 in front of a handler. */
export interface HttpBridge {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every exchange, in arrival order. */
  readonly exchanges: BridgedExchange[];
  close(): Promise<void>;
}

/**
 * Serves `handler` over plain HTTP/1.1 on 127.0.0.1 so real clients (kubectl) can talk to the
 * in-process server: requests become `ApiRequest`s as the TLS transport builds them (no client
 * certificate, so the caller is anonymous), streamed responses are written chunk by chunk.
 * Test-only: the server's transport is `serving/`.
 */
export async function startHttpBridge(handler: Handler): Promise<HttpBridge> {
  const exchanges: BridgedExchange[] = [];
  const server = createServer((req, res) => {
    void bridge(handler, req, res, exchanges).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function bridge(
  handler: Handler,
  req: IncomingMessage,
  res: ServerResponse,
  exchanges: BridgedExchange[],
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const seen: BridgedExchange = {
    method: req.method ?? 'GET',
    path: q < 0 ? url : url.slice(0, q),
    query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
    accept: headers.accept ?? '',
    contentType: headers['content-type'] ?? '',
    body,
  };
  exchanges.push(seen);
  const closed = new AbortController();
  res.on('close', () => closed.abort());
  const head: RequestHead = {
    signal: closed.signal,
    method: seen.method,
    url,
    headers,
    headerValues: (name) => {
      const v = req.headersDistinct[name.toLowerCase()];
      return v ? [...v] : [];
    },
    peerCertificate: undefined,
  };
  const apiReq: ApiRequest = {
    method: seen.method,
    path: safeDecodePath(seen.path),
    query: seen.query,
    headers,
    signal: closed.signal,
    head,
    warnings: new RequestWarnings(),
    domain: ORCH_DOMAIN,
    async readBody(limit) {
      if (body.length > limit) throw apiErrors.requestEntityTooLarge(limit);
      return body;
    },
  };
  const answer: ApiResponse = await handler(apiReq);
  seen.status = answer.status;
  const contentType = answer.headers['content-type'];
  seen.responseContentType = Array.isArray(contentType) ? contentType.join(', ') : contentType;
  if (answer.kind === 'body') {
    res.writeHead(answer.status, answer.headers);
    res.end(bodyBytes(answer.body));
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.flushHeaders();
  await answer.pump(
    (chunk) => (res.write(chunk) ? undefined : new Promise((r) => res.once('drain', r))),
    closed.signal,
  );
  res.end();
}

function safeDecodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
