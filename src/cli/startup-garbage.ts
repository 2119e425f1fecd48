import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Start-up leaves garbage V8 may keep for a long time: once the server serves and its first
 * lists are done, nothing allocates enough to start a full collection, and V8's memory reducer
 * only acts after one. On a store of 100,000 objects that is some 35 MB of dead objects on
 * about 100 MB of heap pages, resident until request load happens to trigger a collection. So,
 * once the process has settled, one full collection frees them and lets V8 return the pages.
 */

export interface SettledCollectionOptions {
  /** CPU time of the process so far, in milliseconds. */
  readonly cpuMs: () => number;
  /** Runs a full collection. */
  readonly collect: () => void;
  /** How often the CPU time is sampled (default 500 ms). */
  readonly intervalMs?: number;
  /** Less CPU than this in one interval means start-up work is over (default 30 ms). */
  readonly idleCpuMs?: number;
  /** Stop watching after this long without settling (default 60 s). */
  readonly giveUpMs?: number;
}

/**
 * Runs `collect` once, at the first interval in which the process used less than `idleCpuMs`
 * of CPU, or never if that does not happen within `giveUpMs`. The timers do not keep the
 * process alive. Returns a function that stops watching.
 */
export function collectWhenSettled(o: SettledCollectionOptions): () => void {
  const intervalMs = o.intervalMs ?? 500;
  const idleCpuMs = o.idleCpuMs ?? 30;
  const deadline = Date.now() + (o.giveUpMs ?? 60_000);
  let before = o.cpuMs();
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    const now = o.cpuMs();
    const used = now - before;
    before = now;
    if (used < idleCpuMs) {
      timer = undefined;
      o.collect();
      return;
    }
    if (Date.now() >= deadline) {
      timer = undefined;
      return;
    }
    timer = setTimeout(tick, intervalMs).unref();
  };
  timer = setTimeout(tick, intervalMs).unref();
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}

/**
 * V8's `gc` function, made available at run time as Node's own tooling does (the `--expose-gc`
 * flag, then a fresh context, which is created with it); `undefined` when V8 refuses.
 */
export function exposedGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? () => (gc as () => void)() : undefined;
  } catch {
    return undefined;
  }
}

/** The process's CPU time (user and system) in milliseconds. */
export function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
