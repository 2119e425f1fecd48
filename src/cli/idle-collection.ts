import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Work done in bursts leaves garbage V8 may keep for a long time: once the burst ends, nothing
 * allocates enough to start a full collection, and V8's memory reducer only acts after one. After
 * start-up with 100,000 objects that is some 35 MB of dead objects on about 100 MB of heap pages,
 * and large lists leave as much again, resident until later load happens to trigger a collection.
 * So when the process goes quiet after a burst, one full collection frees them and lets V8 return
 * the pages: the process is idle then, so the pause delays nothing.
 */

export interface IdleCollectionOptions {
  /** CPU time of the process so far, in milliseconds. */
  readonly cpuMs: () => number;
  /** Runs a full collection. */
  readonly collect: () => void;
  /** How often the CPU time is sampled (default 500 ms). */
  readonly intervalMs?: number;
  /** Less CPU than this in one interval means the process is idle (default 30 ms). */
  readonly idleCpuMs?: number;
  /** CPU time since the last collection that makes a burst worth collecting after (default 300 ms). */
  readonly burstCpuMs?: number;
  /** Least time between two collections (default 10 s). */
  readonly minGapMs?: number;
  /** Milliseconds now (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * Samples the process's CPU time every `intervalMs` and runs `collect` in the first idle interval
 * after at least `burstCpuMs` of work since the previous collection (start-up counts as work), at
 * most once per `minGapMs`. The timer does not keep the process alive. Returns a function that
 * stops it.
 */
export function collectWhenIdle(o: IdleCollectionOptions): () => void {
  const intervalMs = o.intervalMs ?? 500;
  const idleCpuMs = o.idleCpuMs ?? 30;
  const burstCpuMs = o.burstCpuMs ?? 300;
  const minGapMs = o.minGapMs ?? 10_000;
  const now = o.now ?? Date.now;
  let before = o.cpuMs();
  // Start-up's own work counts: the first quiet interval collects after it.
  let sinceCollection = before;
  let lastCollection = Number.NEGATIVE_INFINITY;
  const timer = setInterval(() => {
    const cpu = o.cpuMs();
    const used = cpu - before;
    before = cpu;
    if (used >= idleCpuMs) {
      sinceCollection += used;
      return;
    }
    if (sinceCollection < burstCpuMs || now() - lastCollection < minGapMs) return;
    sinceCollection = 0;
    lastCollection = now();
    o.collect();
  }, intervalMs).unref();
  return () => clearInterval(timer);
}

/**
 * V8's `gc` function, made available at run time as Node's own tooling does (the `--expose-gc`
 * flag, then a fresh context, which is created with it), run as a compacting collection;
 * `undefined` when V8 refuses.
 *
 * Why compacting: a plain full collection frees the dead objects but leaves the survivors spread
 * over the pages they were in, so V8 keeps (nearly) every page and the memory stays resident. With
 * compaction the survivors are moved together and the emptied pages go back to the system, as
 * V8's memory reducer does when it finally acts. Measured after start-up with 100,000 objects:
 * heap pages 135 MB after a plain collection, 70 MB after a compacting one. The flag is set only
 * for this collection; V8's own collections keep their heuristics.
 */
export function exposedGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    if (typeof gc !== 'function') return undefined;
    return () => {
      setFlagsFromString('--compact-on-every-full-gc');
      try {
        (gc as () => void)();
      } finally {
        setFlagsFromString('--no-compact-on-every-full-gc');
      }
    };
  } catch {
    return undefined;
  }
}

/** The process's CPU time (user and system) in milliseconds. */
export function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
