import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { Informer } from '../../client/informer/informer.js';
import type { ControllerContext } from '../controller-descriptor.js';

/**
 * Small pieces the token and certificate controllers share: waiting for informers, the periodic
 * resync, Secret data and status checks.
 */

/** True when `e` is an API failure with HTTP status `code`. */
export function isStatus(e: unknown, code: number): boolean {
  return e instanceof StatusError && e.code === code;
}

/** True when a create was refused because the namespace is terminating (or gone). */
export function isNamespaceGoneOrTerminating(e: unknown): boolean {
  if (isStatus(e, 404)) return true;
  return (
    e instanceof StatusError &&
    e.code === 403 &&
    (e.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating')
  );
}

/** A string member of a controller's configuration; `''` when unset. */
export function configString(config: Readonly<Record<string, unknown>>, member: string): string {
  const v = config[member];
  return typeof v === 'string' ? v : '';
}

/** A `data` value of a Secret, decoded from base64 as text; `''` when absent. */
export function secretText(secret: ApiObject, key: string): string {
  const v = secretBytes(secret, key);
  return v ? v.toString('utf8') : '';
}

/** A `data` value of a Secret as bytes; undefined when absent. */
export function secretBytes(secret: ApiObject, key: string): Buffer | undefined {
  const data = secret.data;
  if (typeof data !== 'object' || data === null) return undefined;
  const v = (data as Record<string, unknown>)[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64') : undefined;
}

/**
 * Resolves true once every informer has listed, false when `signal` aborts first (or an
 * informer is missing: its resource is not served).
 */
export async function informersSynced(
  informers: readonly (Informer | undefined)[],
  signal: AbortSignal,
): Promise<boolean> {
  if (informers.some((i) => i === undefined)) return false;
  if (signal.aborted) return false;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([Promise.all(informers.map((i) => (i as Informer).synced())), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
  return !signal.aborted;
}

/**
 * Calls `resync` every `ctx.minResyncPeriodMs` to twice that (random per period, as client-go's
 * informer factories spread resyncs) until the controller stops.
 */
export function startResync(ctx: ControllerContext, resync: () => void): void {
  const min = Math.max(1, ctx.minResyncPeriodMs);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    timer = setTimeout(
      () => {
        if (ctx.signal.aborted) return;
        resync();
        schedule();
      },
      min + Math.random() * min,
    );
    timer.unref?.();
  };
  if (ctx.signal.aborted) return;
  schedule();
  ctx.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
}

/** Resolves after `ms`, or early when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    t.unref?.();
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
