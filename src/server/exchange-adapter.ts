import { apiErrors } from '../apis/meta/status.js';
import type { ApiRequest, ApiResponse, Handler } from '../endpoints/handler.js';
import type { Logger } from '../util/logger.js';
import { RequestBodyTooLargeError } from './serving/errors.js';
import type { ExchangeHandler, HttpExchange } from './serving/index.js';

/** Adapts the transport's exchange to the handler chain's request/response model. */
export function exchangeHandler(handler: Handler, logger: Logger): ExchangeHandler {
  return async (ex) => {
    const req = toApiRequest(ex);
    const res = await handler(req);
    await writeResponse(ex, res, logger);
  };
}

function toApiRequest(ex: HttpExchange): ApiRequest {
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
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

async function writeResponse(ex: HttpExchange, res: ApiResponse, logger: Logger): Promise<void> {
  if (res.kind === 'body') {
    ex.respond(res.status, lowerCase(res.headers), res.body);
    return;
  }
  const out = ex.stream(res.status, lowerCase(res.headers));
  const ac = new AbortController();
  const onClose = () => ac.abort();
  ex.signal.addEventListener('abort', onClose, { once: true });
  try {
    await res.pump(async (chunk) => {
      if (!out.write(chunk)) await out.drain();
    }, ac.signal);
    out.end();
  } catch (e) {
    if (!ac.signal.aborted) logger.warn('streamed response failed', { path: ex.url, error: String(e) });
    out.abort();
  } finally {
    ex.signal.removeEventListener('abort', onClose);
  }
}

function lowerCase(h: Record<string, string | string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}
