/**
 * The time sources of an election, injected so tests can drive them. Wall-clock time is only
 * written into records (`renewTime`, `acquireTime`); every interval the election measures (how
 * long since a record changed, how long since the last renewal) uses the monotonic clock, so a
 * wall clock that jumps or is skewed against other candidates changes nothing.
 */
export interface ElectionClock {
  /** The wall-clock time written into records. */
  now(): Date;
  /** Milliseconds on a clock that never goes back (`performance.now()`). */
  monotonicMs(): number;
  /**
   * Resolves after `ms` of monotonic time, or as soon as `signal` aborts (it never rejects:
   * callers check the signal).
   */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** The process's clocks and timers. */
export const systemElectionClock: ElectionClock = {
  now: () => new Date(),
  monotonicMs: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal.addEventListener('abort', done, { once: true });
    }),
};

/**
 * A signal that aborts when `parent` does or when the monotonic clock reaches `deadlineMs`,
 * whichever comes first; `dispose` releases its timer.
 */
export function deadlineSignal(
  clock: ElectionClock,
  deadlineMs: number,
  parent: AbortSignal,
): { readonly signal: AbortSignal; dispose(): void } {
  const ctl = new AbortController();
  const onParent = () => ctl.abort(parent.reason);
  if (parent.aborted) ctl.abort(parent.reason);
  else parent.addEventListener('abort', onParent, { once: true });
  const timerStop = new AbortController();
  void clock.sleep(deadlineMs - clock.monotonicMs(), timerStop.signal).then(() => {
    if (!timerStop.signal.aborted) ctl.abort(new Error('deadline exceeded'));
  });
  return {
    signal: ctl.signal,
    dispose() {
      timerStop.abort();
      parent.removeEventListener('abort', onParent);
    },
  };
}
