import { setTimeout as sleep } from 'node:timers/promises';
import type { Etcd3, IDuplexStream, IEvent, IWatchRequest, IWatchResponse } from 'etcd3';
import type { Logger } from '../../util/logger.js';
import { CompactedError, UnavailableError } from '../errors.js';
import type { StoreEvent, StoreProgress, WatchOptions } from '../store.js';
import type { KeyCodec } from './etcd-codec.js';
import { messageOf } from './etcd-errors.js';

export interface EtcdWatchDeps {
  readonly client: Etcd3;
  readonly codec: KeyCodec;
  readonly logger: Logger;
  /** How long a watch keeps trying to (re)connect before failing with UnavailableError. */
  readonly retryBudgetMs: number;
  /** Aborts when the store closes; open watches then end. */
  readonly closed: AbortSignal;
}

type WatchStream = IDuplexStream<IWatchRequest, IWatchResponse>;
type Item = StoreEvent | StoreProgress;

/** Responses waiting for the consumer; pauses the gRPC stream while too many are queued. */
const HIGH_WATER = 64;
const LOW_WATER = 16;

/**
 * Every change under `prefix` after `opts.afterRevision`, from one dedicated etcd watch stream.
 *
 * Ordering and gaps: etcd delivers a watch's events in revision order and never splits one
 * revision across responses, so after each response everything up to its last revision has been
 * seen. When the stream breaks the watch is re-created from that revision + 1 (or from the last
 * progress notification's revision + 1), so nothing is lost or repeated; a revision compacted in
 * the meantime surfaces as CompactedError. etcd cancels a watch whose start revision is compacted,
 * reporting its compacted revision M; the Store's compacted revision is M - 1 (see
 * EtcdCompaction).
 *
 * Progress: with `progressIntervalMs` the watch asks etcd for progress notifications (sent to idle,
 * caught-up watchers every `--experimental-watch-progress-notify-interval`) and yields them at
 * most once per `progressIntervalMs`. Explicit progress requests are not used: etcd 3.4 answers
 * them without waiting for pending events, so their revision could run ahead of delivered events.
 */
export async function* watchEtcd(deps: EtcdWatchDeps, prefix: string, opts: WatchOptions): AsyncGenerator<Item> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  opts.signal.addEventListener('abort', onAbort, { once: true });
  deps.closed.addEventListener('abort', onAbort, { once: true });
  if (opts.signal.aborted || deps.closed.aborted) stop.abort();
  const range = deps.codec.prefixRange(prefix);
  const wantsProgress = opts.progressIntervalMs !== undefined;
  let next = opts.afterRevision + 1n;
  let lastProgressAt = Date.now();
  let failingSince: number | undefined;
  let delayMs = 50;
  try {
    while (!stop.signal.aborted) {
      const session = await openSession(deps, stop.signal);
      if (session instanceof Error) {
        failingSince ??= Date.now();
      } else {
        session.stream.write({
          create_request: {
            key: range.key,
            range_end: range.rangeEnd,
            start_revision: next.toString(),
            prev_kv: true,
            progress_notify: wantsProgress,
          },
        });
        try {
          for (let res = await session.shift(); res !== undefined; res = await session.shift()) {
            if (res.canceled) {
              const compacted = BigInt(res.compact_revision || '0');
              if (compacted > 0n) throw new CompactedError(next, compacted - 1n);
              deps.logger.warn('etcd canceled a watch, re-creating it', { prefix, reason: res.cancel_reason });
              session.error = new Error(`etcd canceled the watch: ${res.cancel_reason}`);
              break;
            }
            if (res.created) {
              failingSince = undefined;
              delayMs = 50;
              continue;
            }
            if (res.events.length === 0) {
              const revision = BigInt(res.header.revision);
              // Everything up to `revision` has been delivered; never report going backwards.
              if (revision + 1n < next) continue;
              next = revision + 1n;
              if (wantsProgress && Date.now() - lastProgressAt >= (opts.progressIntervalMs ?? 0)) {
                lastProgressAt = Date.now();
                if (stop.signal.aborted) return;
                yield { type: 'progress', revision };
              }
              continue;
            }
            const from = next;
            for (const ev of res.events) {
              const revision = BigInt(ev.kv.mod_revision);
              // Defensive: after a reconnect never repeat a revision already delivered.
              if (revision < from) continue;
              // An aborted watch ends at once, even in the middle of a response.
              if (stop.signal.aborted) return;
              next = revision + 1n;
              yield toStoreEvent(deps.codec, ev, revision);
            }
            lastProgressAt = Date.now();
          }
        } finally {
          session.close();
        }
        if (stop.signal.aborted) return;
        failingSince ??= Date.now();
        if (session.error !== undefined) {
          deps.logger.warn('etcd watch stream failed, resuming', {
            prefix,
            next: next.toString(),
            error: messageOf(session.error),
          });
        }
      }
      if (Date.now() - failingSince >= deps.retryBudgetMs) {
        const cause = session instanceof Error ? session : session.error;
        throw new UnavailableError(`etcd watch on ${prefix} could not be re-established: ${messageOf(cause)}`, {
          cause,
        });
      }
      try {
        await sleep(delayMs, undefined, { signal: stop.signal });
      } catch {
        return;
      }
      delayMs = Math.min(delayMs * 2, 1000);
    }
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
    deps.closed.removeEventListener('abort', onAbort);
    stop.abort();
  }
}

function toStoreEvent(codec: KeyCodec, ev: IEvent, revision: bigint): StoreEvent {
  const prev = ev.prev_kv ? codec.decodeKeyValue(ev.prev_kv) : undefined;
  if ((ev.type as string) === 'Delete') {
    return { type: 'delete', key: codec.decode(ev.kv.key), revision, prev };
  }
  const kv = codec.decodeKeyValue(ev.kv);
  return { type: 'put', key: kv.key, revision, kv, prev };
}

/**
 * Cancels a watch stream without counting it as a host failure: etcd3 marks the host failed (and
 * resets every channel to it) when a still-writable stream errors, which a cancelled one does.
 */
export function closeWatchStream(stream: WatchStream): void {
  stream.end();
  stream.cancel();
}

async function openSession(deps: EtcdWatchDeps, signal: AbortSignal): Promise<WatchSession | Error> {
  try {
    return new WatchSession(await deps.client.watchClient.watch(), signal);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** One gRPC watch stream, buffered for a pull-based consumer. */
class WatchSession {
  /** Why the stream ended, unless we ended it. */
  error: unknown;
  private readonly queue: IWatchResponse[] = [];
  private ended = false;
  private paused = false;
  private wake: (() => void) | undefined;
  private readonly onAbort = () => this.close();

  constructor(
    readonly stream: WatchStream,
    private readonly signal: AbortSignal,
  ) {
    const raw = stream as unknown as NodeJS.ReadableStream;
    stream.on('data', (res: IWatchResponse) => {
      this.queue.push(res);
      if (this.queue.length >= HIGH_WATER && !this.paused) {
        this.paused = true;
        raw.pause();
      }
      this.notify();
    });
    stream.on('error', (e: Error) => this.finish(e));
    stream.on('end', () => this.finish(new Error('etcd watch stream ended')));
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The next response, or undefined once the stream has ended and the queue is drained. */
  async shift(): Promise<IWatchResponse | undefined> {
    while (this.queue.length === 0) {
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
    const res = this.queue.shift();
    if (this.paused && this.queue.length <= LOW_WATER && !this.ended) {
      this.paused = false;
      (this.stream as unknown as NodeJS.ReadableStream).resume();
    }
    return res;
  }

  close(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    if (this.ended) return;
    this.ended = true;
    // Responses still queued are dropped: the consumer resumes from the last one it processed.
    this.queue.length = 0;
    closeWatchStream(this.stream);
    this.notify();
  }

  private finish(e: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.error = e;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
