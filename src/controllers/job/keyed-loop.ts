/**
 * The loop the batch controllers share: a work queue of `<namespace>/<name>` keys fed by
 * informer events and a periodic resync, processed by `workers` concurrent workers.
 */
import type { Informer } from '../../client/informer/informer.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import type { ControllerContext } from '../controller-descriptor.js';

/** `<namespace>/<name>` of an object. */
export function objectKey(o: { metadata: { namespace?: string; name?: string } }): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}

/** The namespace and name of a key made by {@link objectKey}. */
export function splitKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

/**
 * Waits for `informers` to list (or the controller to stop), then re-queues every key of
 * `resyncKeys()` every `ctx.minResyncPeriodMs` to twice that (random, as kube's resync), and
 * processes the queue with `workers` workers until `ctx.signal` aborts. Errors retry the key
 * with backoff and are logged.
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
  const { signal } = ctx;
  const stopped = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  await Promise.race([Promise.all(o.informers.map((i) => i.synced())), stopped]);
  if (signal.aborted) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    const period = Math.max(1, ctx.minResyncPeriodMs);
    timer = setTimeout(
      () => {
        for (const key of o.resyncKeys()) o.queue.add(key);
        schedule();
      },
      period + Math.random() * period,
    );
    timer.unref?.();
  };
  schedule();
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  for (const key of o.resyncKeys()) o.queue.add(key);
  await o.queue.run(o.process, {
    workers: Math.max(1, Math.floor(o.workers)),
    onError: (key, err) => ctx.logger.warn(`${o.name}: sync failed`, { key, error: String(err) }),
  });
}

/** A queue for a controller's keys that stops with the controller. */
export function newKeyQueue(ctx: ControllerContext): WorkQueue<string> {
  return new WorkQueue<string>({ signal: ctx.signal });
}
