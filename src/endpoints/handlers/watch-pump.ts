import type { SyncWatchListener, SyncWatchSource, WatchEvent } from '../../registry/types.js';
import type { StreamWrite } from '../handler.js';

/** One event as the bytes the stream carries (the same object for every watcher of a shared event). */
export type WatchFrameEncoder = (ev: WatchEvent) => Buffer | string;

/**
 * About the most bytes of one batch joined into a single write. A batch (a catch-up, the initial
 * objects, the events queued while the transport was full) is written in chunks of about this
 * size instead of one write per event. Kept small on purpose: a chunk is handed to HTTP/2 whole,
 * and the session refuses new streams while the data its streams hold passes its memory limit
 * (10 MB by default). Measured: 1,000 watches (the streams one connection may open) catching up
 * at once stalled with chunks of 16 KiB, not with 8 KiB; chunks of this size keep that under half
 * the limit.
 */
const COALESCE_BYTES = 4 * 1024;

/**
 * Writes a synchronous watch source's events to a streamed response as they become ready: a live
 * event offered while nothing waits is written at once, and each wake-up polls the source and
 * writes every ready event, a batch joined into few writes. Both are called by the watch cache
 * while it dispatches a change to all its watchers, so a change reaches all the watchers' streams
 * in one synchronous pass, with no promise per watcher or per event.
 *
 * Backpressure: when the transport cannot take more, writing pauses (the events wait in the
 * source, whose own bound ends a watcher that falls too far behind) and resumes once it drains.
 *
 * Resolves when the source ends; rejects with what `poll` or `encode` threw (the caller reports
 * it). Wake-ups never throw into the source.
 */
export function pumpSyncWatch(source: SyncWatchSource, write: StreamWrite, encode: WatchFrameEncoder): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const pump = new SyncWatchPump(source, write, encode, resolve, reject);
    source.onReady(pump);
    pump.wake();
  });
}

/**
 * The state of one pumped watch, as the source's listener: one object per watch that the watch
 * cache's dispatch calls straight into (no closures between), holding the transport's writer and
 * the watch's encoder.
 */
class SyncWatchPump implements SyncWatchListener {
  /** A batch taken from the source, written up to `index`. */
  private batch: readonly WatchEvent[] | undefined;
  private index = 0;
  private draining = false;
  private running = false;
  private again = false;
  private done = false;
  private readonly resume = (): void => {
    this.draining = false;
    this.run();
  };
  private readonly fail = (error: unknown): void => this.finish(error);

  constructor(
    private readonly source: SyncWatchSource,
    private readonly write: StreamWrite,
    private readonly encode: WatchFrameEncoder,
    private readonly resolve: () => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  wake(): void {
    this.run();
  }

  /** One live event while nothing waits: written at once, unless paused or mid-pass. */
  offer(ev: WatchEvent): boolean {
    if (this.done || this.draining || this.running || this.batch !== undefined) return false;
    // A wake-up from inside this write waits for it (see run), then takes its pass.
    this.running = true;
    try {
      const full = this.write(this.encode(ev));
      if (full !== undefined) this.pause(full);
    } catch (e) {
      this.finish(e);
    } finally {
      this.running = false;
    }
    if (this.again) {
      this.again = false;
      this.run();
    }
    return true;
  }

  // Re-entrant wake-ups (a write that synchronously ends the watch) are folded into the
  // running pass.
  private run(): void {
    if (this.done || this.draining) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        this.step();
      } while (this.again && !this.done && !this.draining);
    } catch (e) {
      this.finish(e);
    } finally {
      this.running = false;
    }
  }

  /** Writes until the source has nothing ready, the transport is full or the source ends. */
  private step(): void {
    for (;;) {
      const batch = this.batch;
      if (batch !== undefined) {
        while (this.index < batch.length) {
          const full = this.write(this.chunkOf(batch));
          if (full !== undefined) {
            this.pause(full);
            return;
          }
          if (this.done) return;
        }
        this.batch = undefined;
      }
      const next = this.source.poll();
      if (next === null) return;
      if (next === undefined) {
        this.finish();
        return;
      }
      this.batch = next;
      this.index = 0;
    }
  }

  /**
   * The next chunk of `batch` from `index` on: one event's frame, or several frames joined up to
   * {@link COALESCE_BYTES}. Advances `index` past the events it holds. An encoding error after
   * the first frame ends the chunk before that event (the error is raised when it comes first).
   */
  private chunkOf(batch: readonly WatchEvent[]): Buffer | string {
    const first = this.encode(batch[this.index++]);
    if (this.index === batch.length || first.length >= COALESCE_BYTES) return first;
    const parts: (Buffer | string)[] = [first];
    let size = byteSize(first);
    while (this.index < batch.length && size < COALESCE_BYTES) {
      let frame: Buffer | string;
      try {
        frame = this.encode(batch[this.index]);
      } catch {
        break;
      }
      this.index++;
      parts.push(frame);
      size += byteSize(frame);
    }
    if (parts.length === 1) return first;
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (const p of parts) at += typeof p === 'string' ? out.write(p, at) : p.copy(out, at);
    return out;
  }

  private pause(full: Promise<void>): void {
    this.draining = true;
    full.then(this.resume, this.fail);
  }

  private finish(error?: unknown): void {
    if (this.done) return;
    this.done = true;
    this.batch = undefined;
    this.source.onReady(undefined);
    if (error === undefined) this.resolve();
    else this.reject(error);
  }
}

function byteSize(chunk: Buffer | string): number {
  return typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
}
