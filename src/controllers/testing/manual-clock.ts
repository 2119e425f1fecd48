import type { Clock } from '../../util/clock.js';

/** A clock that moves only when a test tells it to (milliseconds since the epoch). */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): Date {
    return new Date(this.ms);
  }
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void {
    this.ms += ms;
  }
  /** Sets the clock to `d`. */
  set(d: Date): void {
    this.ms = d.getTime();
  }
}
