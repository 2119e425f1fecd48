import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { RequestContext, WatchOptions } from '../../registry/types.js';
import type { ApiRequest, StreamResponse } from '../handler.js';
import type { ServedResource } from '../served-resources.js';

// kube-apiserver's default: watches end after --min-request-timeout (1800 s) times a random
// factor in [1, 2), so reconnects of many clients spread out.
const DEFAULT_WATCH_TIMEOUT_S = 1800;

export function watchTimeoutSeconds(query: URLSearchParams, random: () => number = Math.random): number {
  const t = query.get('timeoutSeconds');
  if (t !== null && t !== '') {
    if (!/^[0-9]+$/.test(t)) throw apiErrors.badRequest(`invalid value for timeoutSeconds: "${t}"`);
    return Number(t);
  }
  return Math.floor(DEFAULT_WATCH_TIMEOUT_S * (1 + random()));
}

/**
 * A watch as a stream of JSON documents, one watch event each (`{"type":..,"object":..}`).
 * The stream ends when the client goes away, the timeout passes or the store watch ends.
 */
export async function handleWatch(
  served: ServedResource,
  req: ApiRequest,
  ctx: RequestContext,
  o: WatchOptions,
): Promise<StreamResponse> {
  const timeoutS = o.timeoutSeconds ?? watchTimeoutSeconds(req.query);
  const stream = await served.store.watch(ctx, o);
  return {
    kind: 'stream',
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-cache, private' },
    async pump(write, signal) {
      const timer = setTimeout(() => stream.stop(), timeoutS * 1000);
      const onAbort = () => stream.stop();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        for await (const ev of stream) {
          await write(`${JSON.stringify(ev)}\n`);
        }
      } catch (e) {
        if (!signal.aborted) {
          const se = e instanceof StatusError ? e : apiErrors.internal(e);
          await write(`${JSON.stringify({ type: 'ERROR', object: se.toStatus() })}\n`);
        }
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        stream.stop();
      }
    },
  };
}
