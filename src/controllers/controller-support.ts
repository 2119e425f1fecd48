/**
 * Small pieces every controller shares: work-queue keys, API failure checks, informer sync
 * waits, the periodic resync, the keyed work loop, times and Secret data. The generic error and
 * timer helpers are defined in client/ (the API clients use them too) and re-exported here, so
 * controllers have one place to import them from.
 */
import { StatusError } from '../apis/meta/status.js';
import type { ApiObject, OwnerReference } from '../apis/object.js';
import type { Informer } from '../client/informer/informer.js';
import { WorkQueue } from '../client/queue/work-queue.js';
import type { ControllerContext } from './controller-descriptor.js';

export { errorText, isStatus, sleep } from '../client/client-support.js';

/** `<namespace>/<name>` of an object, the work-queue key of controllers (`/<name>` when cluster-scoped). */
export function objectKey(o: { readonly metadata: { readonly namespace?: string; readonly name?: string } }): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}

/** The namespace and name of a key made by {@link objectKey} (split at the first `/`). */
export function splitKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

/** The owner reference with `controller: true`, if any (kube's `GetControllerOf`). */
export function controllerRefOf(obj: ApiObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/**
 * The controlling owner reference of `obj` when it names a `kind` of API group `group` (the part
 * of its apiVersion before `/`; `''` for the core group); undefined otherwise.
 */
export function controllerRefOfKind(obj: ApiObject, group: string, kind: string): OwnerReference | undefined {
  const ref = controllerRefOf(obj);
  if (ref?.kind !== kind) return undefined;
  const slash = ref.apiVersion.indexOf('/');
  return (slash < 0 ? '' : ref.apiVersion.slice(0, slash)) === group ? ref : undefined;
}

/** kube's `NewControllerRef`: a reference to `owner` with `controller` and `blockOwnerDeletion` set. */
export function newControllerRef(owner: ApiObject, apiVersion: string, kind: string): OwnerReference {
  return {
    apiVersion,
    kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** True when a write was refused because the namespace is terminating (403 with cause `NamespaceTerminating`). */
export function isNamespaceTerminating(e: unknown): boolean {
  return (
    e instanceof StatusError &&
    e.code === 403 &&
    (e.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating')
  );
}

/** Milliseconds since the epoch of an RFC 3339 time, or undefined when absent, empty or unreadable. */
export function timeMs(t: unknown): number | undefined {
  if (typeof t !== 'string' || t === '') return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Resolves true once every informer has listed, false when `signal` aborts first or an informer
 * is missing (undefined: its resource is not served). Leaves no listener on `signal`.
 */
export async function waitForInformers(
  informers: readonly (Informer | undefined)[],
  signal: AbortSignal,
): Promise<boolean> {
  const present = informers.filter((i): i is Informer => i !== undefined);
  if (present.length < informers.length || signal.aborted) return false;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([Promise.all(present.map((i) => i.synced())), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
  return !signal.aborted;
}

/**
 * Calls `resync` every `periodMs` to twice that (a fresh random delay each time, as client-go's
 * jittered resync) until `signal` aborts. A period ≤ 0 (or NaN) never resyncs, as kube's
 * informers with resync period 0. The timer never keeps the process alive.
 */
export function startResync(periodMs: number, signal: AbortSignal, resync: () => void): void {
  if (!(periodMs > 0) || signal.aborted) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    timer = setTimeout(
      () => {
        if (signal.aborted) return;
        resync();
        schedule();
      },
      periodMs * (1 + Math.random()),
    );
    timer.unref?.();
  };
  schedule();
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
}

/** A queue for a controller's keys that stops with the controller. */
export function newKeyQueue(ctx: ControllerContext): WorkQueue<string> {
  return new WorkQueue<string>({ signal: ctx.signal });
}

/**
 * Waits for `informers` to list (returns when the controller stops first), then queues every key
 * of `resyncKeys()` at once and again every `ctx.minResyncPeriodMs` ({@link startResync}), and
 * processes the queue with `workers` workers until `ctx.signal` aborts. Errors retry the key
 * with backoff and are logged as `<name>: sync failed`.
 */
export async function runKeyedLoop(
  ctx: ControllerContext,
  o: {
    readonly name: string;
    readonly queue: WorkQueue<string>;
    readonly informers: readonly Informer[];
    readonly workers: number;
    resyncKeys(): Iterable<string>;
    process(key: string): Promise<void>;
  },
): Promise<void> {
  if (!(await waitForInformers(o.informers, ctx.signal))) return;
  const requeue = () => {
    for (const key of o.resyncKeys()) o.queue.add(key);
  };
  startResync(ctx.minResyncPeriodMs, ctx.signal, requeue);
  requeue();
  await o.queue.run(o.process, {
    workers: Math.max(1, Math.floor(o.workers)),
    onError: (key, err) => ctx.logger.warn(`${o.name}: sync failed`, { key, error: String(err) }),
  });
}

/** A `data` value of a Secret as bytes (base64-decoded); undefined when absent. */
export function secretBytes(secret: ApiObject, key: string): Buffer | undefined {
  const data = secret.data;
  if (typeof data !== 'object' || data === null) return undefined;
  const v = (data as Record<string, unknown>)[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64') : undefined;
}

/** A `data` value of a Secret, decoded from base64 as UTF-8 text; `''` when absent. */
export function secretText(secret: ApiObject, key: string): string {
  const v = secretBytes(secret, key);
  return v ? v.toString('utf8') : '';
}
