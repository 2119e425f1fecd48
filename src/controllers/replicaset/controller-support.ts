import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { Informer } from '../../client/informer/informer.js';
import type { ControllerContext } from '../controller-descriptor.js';

/** `<namespace>/<name>`, the work-queue key of a namespaced object. */
export function objectKey(obj: ApiObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

/** The namespace and name of a {@link objectKey}. */
export function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}

/** True for a `StatusError` with this HTTP code. */
export function isStatus(e: unknown, code: number): boolean {
  return e instanceof StatusError && e.code === code;
}

/** The message of any thrown value. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Waits until every informer has listed (true) or the controller stops (false); informers not
 * served (undefined) make the controller idle: false.
 */
export async function waitForInformers(
  ctx: ControllerContext,
  informers: readonly (Informer | undefined)[],
): Promise<boolean> {
  if (informers.some((i) => i === undefined)) return false;
  const aborted = new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await Promise.race([Promise.all(informers.map((i) => i?.synced())), aborted]);
  return !ctx.signal.aborted;
}

/**
 * Calls `resync` every `ctx.minResyncPeriodMs`..2× (a random period each time, as kube's
 * informers resync) until the controller stops.
 */
export function startResync(ctx: ControllerContext, resync: () => void): void {
  const period = ctx.minResyncPeriodMs;
  if (!(period > 0)) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    timer = setTimeout(
      () => {
        resync();
        schedule();
      },
      period * (1 + Math.random()),
    );
    timer.unref?.();
  };
  ctx.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  if (!ctx.signal.aborted) schedule();
}

/** Milliseconds since the epoch of an RFC 3339 time, or undefined when absent or unreadable. */
export function timeMs(t: unknown): number | undefined {
  if (typeof t !== 'string' || t === '') return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}
