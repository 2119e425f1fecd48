import type { ElectionClock } from '../election-clock.js';

interface Sleeper {
  readonly at: number;
  readonly resolve: () => void;
}

/** Lets pending promise chains and I/O callbacks of in-memory work run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 30; i++) await new Promise<void>((r) => setImmediate(r));
}

/**
 * Simulated time for elections: one monotonic timeline shared by every clock made with
 * {@link view}, advanced only by {@link advance}, which wakes sleepers in deadline order and lets
 * the woken code run before time moves on. Views may be skewed: their wall clocks differ, their
 * intervals do not.
 */
export class FakeTime {
  private mono = 0;
  private sleepers: Sleeper[] = [];

  constructor(private readonly wallStart = Date.parse('2025-01-01T00:00:00Z')) {}

  /** Milliseconds since the start. */
  get elapsedMs(): number {
    return this.mono;
  }

  /** A clock on this timeline whose wall clock is off by `skewMs`. */
  view(skewMs = 0): ElectionClock {
    return {
      now: () => new Date(this.wallStart + this.mono + skewMs),
      monotonicMs: () => this.mono,
      sleep: (ms, signal) => this.sleep(ms, signal),
    };
  }

  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const sleeper: Sleeper = {
        at: this.mono + Math.max(0, ms),
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
    });
  }

  /**
   * Moves time forward by `ms`, waking each sleeper at its deadline (in order) and letting the
   * code it resumes run, including sleeps it starts that also fall due before the end.
   */
  async advance(ms: number): Promise<void> {
    const target = this.mono + ms;
    for (;;) {
      await settle();
      let next: Sleeper | undefined;
      for (const s of this.sleepers) if (s.at <= target && (!next || s.at < next.at)) next = s;
      if (!next) break;
      this.sleepers = this.sleepers.filter((s) => s !== next);
      this.mono = Math.max(this.mono, next.at);
      next.resolve();
    }
    this.mono = target;
    await settle();
  }

  /** Advances in steps of `stepMs`, calling `probe` after each step (sampling state over time). */
  async run(ms: number, stepMs: number, probe: () => void): Promise<void> {
    for (let t = 0; t < ms; t += stepMs) {
      await this.advance(Math.min(stepMs, ms - t));
      probe();
    }
  }
}
