import type { SyncWatchSource, WatchEvent } from '../../registry/types.js';
import type { StreamWrite } from '../handler.js';

/**
 * Writes a synchronous watch source's events to a streamed response as they become ready: a live
 * event offered while nothing waits is written at once, and each wake-up polls the source and
 * writes every ready event. Both are called by the watch cache while it dispatches a change to
 * all its watchers, so a change reaches all the watchers' streams in one synchronous pass, with
 * no promise per watcher or per event.
 *
 * Backpressure: when the transport cannot take more, writing pauses (the events wait in the
 * source, whose own bound ends a watcher that falls too far behind) and resumes once it drains.
 *
 * Resolves when the source ends; rejects with what `poll` or `encode` threw (the caller reports
 * it). Wake-ups never throw into the source.
 */
export function pumpSyncWatch(
  source: SyncWatchSource,
  write: StreamWrite,
  encode: (ev: WatchEvent) => Buffer | string,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    /** A batch taken from the source, written up to `index`. */
    let batch: readonly WatchEvent[] | undefined;
    let index = 0;
    let draining = false;
    let running = false;
    let again = false;
    let done = false;
    const finish = (error?: unknown): void => {
      if (done) return;
      done = true;
      batch = undefined;
      source.onReady(undefined);
      if (error === undefined) resolve();
      else reject(error);
    };
    const resume = (): void => {
      draining = false;
      run();
    };
    /** Writes until the source has nothing ready, the transport is full or the source ends. */
    const step = (): void => {
      for (;;) {
        if (batch !== undefined) {
          while (index < batch.length) {
            const full = write(encode(batch[index++]));
            if (full !== undefined) {
              draining = true;
              full.then(resume, finish);
              return;
            }
            if (done) return;
          }
          batch = undefined;
        }
        const next = source.poll();
        if (next === null) return;
        if (next === undefined) {
          finish();
          return;
        }
        batch = next;
        index = 0;
      }
    };
    // Re-entrant wake-ups (a write that synchronously ends the watch) are folded into the
    // running pass.
    const run = (): void => {
      if (done || draining) return;
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          step();
        } while (again && !done && !draining);
      } catch (e) {
        finish(e);
      } finally {
        running = false;
      }
    };
    /** One live event while nothing waits: written at once, unless paused or mid-pass. */
    const offer = (ev: WatchEvent): boolean => {
      if (done || draining || running || batch !== undefined) return false;
      // A wake-up from inside this write waits for it (see run), then takes its pass.
      running = true;
      try {
        const full = write(encode(ev));
        if (full !== undefined) {
          draining = true;
          full.then(resume, finish);
        }
      } catch (e) {
        finish(e);
      } finally {
        running = false;
      }
      if (again) {
        again = false;
        run();
      }
      return true;
    };
    source.onReady({ wake: run, offer });
    run();
  });
}
