import { delay } from '../client-support.js';
/** client-go's defaults when `qps`/`burst` are left at 0 (rest.Config `DefaultQPS`/`DefaultBurst`). */
export const DEFAULT_QPS = 5;
export const DEFAULT_BURST = 10;

/** Waits until a request may be sent. */
export interface RateLimiter {
  /** Resolves when the request may go; rejects when `signal` aborts first. */
  wait(signal: AbortSignal): Promise<void>;
}

/** Never waits (`qps < 0`, as client-go's "no rate limit"). */
export const unlimited: RateLimiter = { wait: async () => {} };

/** Monotonic milliseconds and a timer, injected so tests can drive time. */
export interface LimiterTime {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** `performance.now()` and a real timer (rejecting when the signal aborts). */
export const realLimiterTime: LimiterTime = {
  now: () => performance.now(),
  sleep: delay,
};

/**
 * A token bucket (client-go's `flowcontrol.NewTokenBucketRateLimiter`): it starts full with
 * `burst` tokens, refills at `qps` tokens per second up to `burst`, and every request takes one
 * token, waiting for it when the bucket is empty. Waiters are served in arrival order (each
 * reserves the next token; an aborted wait gives its token back).
 */
export class TokenBucket implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly time: LimiterTime = realLimiterTime,
  ) {
    if (!(qps > 0)) throw new RangeError(`qps must be positive, got ${qps}`);
    if (!(burst >= 1)) throw new RangeError(`burst must be at least 1, got ${burst}`);
    this.tokens = burst;
    this.last = time.now();
  }

  async wait(signal: AbortSignal): Promise<void> {
    const now = this.time.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
    this.last = now;
    this.tokens -= 1;
    if (this.tokens >= 0) return;
    try {
      await this.time.sleep((-this.tokens * 1000) / this.qps, signal);
    } catch (e) {
      this.tokens += 1;
      throw e;
    }
  }
}

/**
 * The limiter of ClientConnectionConfiguration's `qps` and `burst`, with client-go's semantics:
 * `qps < 0` is no limit; `qps` 0 means {@link DEFAULT_QPS} and `burst` 0 {@link DEFAULT_BURST}.
 */
export function rateLimiterFor(qps = 0, burst = 0, time?: LimiterTime): RateLimiter {
  if (qps < 0) return unlimited;
  return new TokenBucket(qps === 0 ? DEFAULT_QPS : qps, burst <= 0 ? DEFAULT_BURST : burst, time);
}
