import type { ApiDomain } from '../apis/api-domain.js';
import { apiErrors } from '../apis/meta/status.js';
import type { RequestInfo } from '../apis/request/request-info.js';
import type { UserInfo } from '../apis/request/user-info.js';
import {
  type ApiRequest,
  type ApiResponse,
  type BodyResponse,
  type ChunkedBody,
  type Handler,
  isChunkedBody,
  type StreamResponse,
} from '../endpoints/handler.js';
import { RequestWarnings } from '../endpoints/request/request-warnings.js';
import type { Logger } from '../util/logger.js';
import { RequestBodyTooLargeError } from './serving/errors.js';
import { byteLength, type ExchangeHandler, type HttpExchange, isBodylessStatus } from './serving/index.js';

/** Adapts the transport's exchange to the handler chain's request/response model. */
export function exchangeHandler(handler: Handler, logger: Logger, domain: ApiDomain): ExchangeHandler {
  const write = (ex: HttpExchange, res: ApiResponse): Promise<void> | undefined => {
    if (res.kind === 'body') {
      const body = res.body;
      if (isChunkedBody(body)) return writeChunks(ex, res, body, logger);
      const headers = lowerCase(res.headers);
      // The response owns its headers: its length is added here rather than to a copy the
      // transport would make.
      if (headers['content-length'] === undefined && !isBodylessStatus(res.status)) {
        headers['content-length'] = String(byteLength(body));
      }
      // Complete bodies are written synchronously: no extra promise per response.
      ex.respond(res.status, headers, body);
      return undefined;
    }
    return writeStream(ex, res, logger);
  };
  // Not async: an answer the handlers give at once is written at once, with no promise at all.
  return (ex) => {
    const res = handler(new ExchangeRequest(ex, domain));
    return res instanceof Promise ? res.then((settled) => write(ex, settled)) : write(ex, res);
  };
}

/**
 * The request of one exchange. A class, not a literal: its accessors and `readBody` live on the
 * prototype instead of being made again for every request.
 */
class ExchangeRequest implements ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly warnings = new RequestWarnings();
  info?: RequestInfo;
  user?: UserInfo;
  auditId?: string;
  auditAnnotations?: Record<string, string>;
  deprecatedApi?: { readonly removedRelease: string };

  constructor(
    readonly head: HttpExchange,
    readonly domain: ApiDomain,
  ) {
    const url = head.url;
    const q = url.indexOf('?');
    this.method = head.method;
    this.path = safeDecodePath(q < 0 ? url : url.slice(0, q));
    this.query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    this.headers = head.headers as Record<string, string | undefined>;
  }

  get signal(): AbortSignal {
    return this.head.signal;
  }

  async readBody(limit: number): Promise<Buffer> {
    try {
      return await this.head.readBody(limit);
    } catch (e) {
      if (e instanceof RequestBodyTooLargeError) throw apiErrors.requestEntityTooLarge(limit);
      throw e;
    }
  }
}

function safeDecodePath(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

async function writeStream(ex: HttpExchange, res: StreamResponse, logger: Logger): Promise<void> {
  const out = ex.stream(res.status, lowerCase(res.headers));
  const ac = new AbortController();
  const onClose = () => ac.abort();
  ex.signal.addEventListener('abort', onClose, { once: true });
  // Not an async function: a watch writes once per event, and most writes need no drain.
  const write = (chunk: Buffer | string): Promise<void> | undefined => (out.write(chunk) ? undefined : out.drain());
  try {
    await res.pump(write, ac.signal);
    out.end();
  } catch (e) {
    if (!ac.signal.aborted) logger.warn('streamed response failed', { path: ex.url, error: String(e) });
    out.abort();
  } finally {
    ex.signal.removeEventListener('abort', onClose);
  }
}

/**
 * Sends a body made in chunks with its Content-Length, making each chunk once the transport
 * took the one before. A HEAD request gets the headers only.
 */
async function writeChunks(ex: HttpExchange, res: BodyResponse, body: ChunkedBody, logger: Logger): Promise<void> {
  const headers = { ...lowerCase(res.headers), 'content-length': String(body.size) };
  if (ex.method === 'HEAD') {
    ex.respond(res.status, headers);
    return;
  }
  const out = ex.stream(res.status, headers);
  try {
    for (const chunk of body.chunks()) {
      if (ex.signal.aborted) return;
      if (!out.write(chunk)) await out.drain();
    }
    out.end();
  } catch (e) {
    if (!ex.signal.aborted) logger.warn('response body failed', { path: ex.url, error: String(e) });
    out.abort();
  }
}

/** Header names in lower case; the handlers' object is passed through when it already is (the common case). */
function lowerCase(h: Record<string, string | string[]>): Record<string, string | string[]> {
  let lower = true;
  for (const k in h) {
    if (hasUpperCase(k)) {
      lower = false;
      break;
    }
  }
  if (lower) return h;
  const out: Record<string, string | string[]> = {};
  for (const k in h) out[k.toLowerCase()] = h[k];
  return out;
}

/** Whether an (ASCII) header name has an upper-case letter; no string is made to find out. */
function hasUpperCase(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return true;
  }
  return false;
}
