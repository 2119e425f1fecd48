import type { ApiDomain } from '../apis/api-domain.js';
import { apiErrors } from '../apis/meta/status.js';
import type { ApiRequest, Handler, StreamResponse } from '../endpoints/handler.js';
import { RequestWarnings } from '../endpoints/request/request-warnings.js';
import type { Logger } from '../util/logger.js';
import { RequestBodyTooLargeError } from './serving/errors.js';
import type { ExchangeHandler, HttpExchange } from './serving/index.js';

/** Adapts the transport's exchange to the handler chain's request/response model. */
export function exchangeHandler(handler: Handler, logger: Logger, domain: ApiDomain): ExchangeHandler {
  return async (ex) => {
    const res = await handler(toApiRequest(ex, domain));
    if (res.kind === 'body') {
      // Complete bodies are written synchronously: no extra promise per response.
      ex.respond(res.status, lowerCase(res.headers), res.body);
      return;
    }
    await writeStream(ex, res, logger);
  };
}

function toApiRequest(ex: HttpExchange, domain: ApiDomain): ApiRequest {
  const q = ex.url.indexOf('?');
  const path = q < 0 ? ex.url : ex.url.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : ex.url.slice(q + 1));
  const headers = ex.headers as Record<string, string | undefined>;
  return {
    method: ex.method,
    path: safeDecodePath(path),
    query,
    headers,
    get signal() {
      return ex.signal;
    },
    head: ex,
    warnings: new RequestWarnings(),
    domain,
    async readBody(limit) {
      try {
        return await ex.readBody(limit);
      } catch (e) {
        if (e instanceof RequestBodyTooLargeError) throw apiErrors.requestEntityTooLarge(limit);
        throw e;
      }
    },
  };
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

/** Header names in lower case; the handlers' object is passed through when it already is (the common case). */
function lowerCase(h: Record<string, string | string[]>): Record<string, string | string[]> {
  let lower = true;
  for (const k in h) {
    if (k !== k.toLowerCase()) {
      lower = false;
      break;
    }
  }
  if (lower) return h;
  const out: Record<string, string | string[]> = {};
  for (const k in h) out[k.toLowerCase()] = h[k];
  return out;
}
