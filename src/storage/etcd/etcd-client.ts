import { setTimeout as sleep } from 'node:timers/promises';
import { ConsecutiveBreaker, circuitBreaker, handleWhen, noop } from 'cockatiel';
import { Etcd3, isRecoverableError } from 'etcd3';
import type { Logger } from '../../util/logger.js';
import { UnavailableError } from '../errors.js';
import { isTransient, messageOf, wasNotSent } from './etcd-errors.js';

export interface EtcdClientOptions {
  readonly endpoints: readonly string[];
  /** Deadline of every unary call (default 5 s). */
  readonly callTimeoutMs?: number;
  /**
   * Deadline of writes (KV txn, put, deleteRange; default `callTimeoutMs`). On an etcd cluster a
   * write forwarded to a leader that dies is answered only at its deadline; a short one bounds the
   * write pause on leader loss (creates are then retried with a check, see EtcdStore.create).
   */
  readonly writeTimeoutMs?: number;
  /** How long a host's circuit breaker stays open after 3 consecutive failures (default 300 ms). */
  readonly halfOpenAfterMs?: number;
}

/**
 * An etcd3 client tuned for fast failover: per-call deadlines, a short per-host circuit breaker,
 * no library-level retries (see {@link EtcdCaller}), no receive size limit, and fast reconnects.
 * etcd3's defaults (no deadline, 5 s breaker, blind retries) let a leader loss stall writes for
 * about 12 s.
 */
export function createEtcdClient(options: EtcdClientOptions): Etcd3 {
  const callTimeoutMs = options.callTimeoutMs ?? 5000;
  const writeTimeoutMs = options.writeTimeoutMs ?? callTimeoutMs;
  const writes = new Set(['txn', 'put', 'deleteRange']);
  const halfOpenAfter = options.halfOpenAfterMs ?? 300;
  return new Etcd3({
    hosts: [...options.endpoints],
    dialTimeout: callTimeoutMs,
    grpcOptions: {
      // A list of 10k objects of 1 KB is ~10 MB, beyond grpc-js's 4 MiB default.
      'grpc.max_receive_message_length': -1,
      'grpc.max_send_message_length': -1,
      'grpc.initial_reconnect_backoff_ms': 100,
      'grpc.max_reconnect_backoff_ms': 1000,
      // etcd's default keepalive enforcement allows pings every 5 s or more.
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
      // Per-call bookkeeping we do not use: channelz statistics, and grpc-js's own retry layer
      // (it buffers every request; retries are decided by EtcdCaller, which knows what is safe).
      'grpc.enable_channelz': 0,
      'grpc.enable_retries': 0,
    },
    defaultCallOptions: (context) =>
      context.isStream
        ? {}
        : {
            deadline:
              Date.now() + (context.service === 'KV' && writes.has(context.method) ? writeTimeoutMs : callTimeoutMs),
          },
    faultHandling: {
      host: () => circuitBreaker(handleWhen(isRecoverableError), { halfOpenAfter, breaker: new ConsecutiveBreaker(3) }),
      global: noop,
    },
  });
}

export interface EtcdCallerOptions {
  /** Attempts per call, the first included (default 3). */
  readonly maxAttempts?: number;
  /** Delay before the first retry, doubled for each further one (default 100 ms). */
  readonly retryDelayMs?: number;
  readonly logger: Logger;
  /** Aborted when the store closes: failures are then final. */
  readonly closed?: AbortSignal;
}

export interface CallOptions {
  /**
   * The operation may be repeated after an ambiguous failure (reads). Writes are retried only
   * when the failure proves the request never reached etcd.
   */
  readonly idempotent: boolean;
  readonly signal?: AbortSignal;
}

/**
 * Runs etcd calls with bounded retries. A transient failure that cannot be retried, or persists,
 * becomes UnavailableError; other errors pass through unchanged for the caller to translate.
 */
export class EtcdCaller {
  private readonly maxAttempts: number;
  private readonly retryDelayMs: number;
  private readonly logger: Logger;
  private readonly closed: AbortSignal | undefined;

  constructor(options: EtcdCallerOptions) {
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.retryDelayMs = options.retryDelayMs ?? 100;
    this.logger = options.logger;
    this.closed = options.closed;
  }

  async run<T>(what: string, op: () => Promise<T>, options: CallOptions): Promise<T> {
    const { signal, idempotent } = options;
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      try {
        return signal ? await raceAbort(op(), signal) : await op();
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        if (!isTransient(e)) throw e;
        const retriable = (idempotent || wasNotSent(e)) && !this.closed?.aborted;
        if (!retriable || attempt >= this.maxAttempts) {
          throw new UnavailableError(`etcd ${what} failed: ${messageOf(e)}`, { cause: e });
        }
        this.logger.warn('etcd call failed, retrying', { op: what, attempt, error: messageOf(e) });
        await sleep(this.retryDelayMs * 2 ** (attempt - 1), undefined, signal ? { signal } : undefined);
      }
    }
  }
}

/**
 * Rejects with the abort reason as soon as `signal` aborts. grpc calls made through etcd3 cannot
 * be cancelled, so the call itself runs on until its deadline; its outcome is then ignored.
 */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
