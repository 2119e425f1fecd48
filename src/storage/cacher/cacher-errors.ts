export type CacherErrorCode = 'ResourceVersionTooOld' | 'TooLargeResourceVersion' | 'WatcherTooSlow' | 'CacherNotReady';

/** Base class of the errors the watch cache raises; `code` discriminates. */
export abstract class CacherError extends Error {
  abstract readonly code: CacherErrorCode;
}

/**
 * The requested revision is older than the oldest revision the cache (or, for a list delegated
 * to the store, the store) can serve: answer 410 Gone / Expired. The message has kube's wording,
 * which clients parse.
 */
export class ResourceVersionTooOldError extends CacherError {
  readonly code = 'ResourceVersionTooOld' as const;
  constructor(
    readonly requestedRevision: bigint,
    /** The oldest revision a watch can start after, or a list be read at. */
    readonly oldestRevision: bigint,
    options?: { cause?: unknown },
  ) {
    super(`too old resource version: ${requestedRevision} (${oldestRevision})`, options);
    this.name = 'ResourceVersionTooOldError';
  }
}

/**
 * The requested revision was not reached by the cache within the wait budget (it is newer than
 * anything the store has committed, or the cache lags far behind): answer 504 with
 * `Retry-After: 1` and kube's message, which clients match on `Too large resource version`.
 */
export class TooLargeResourceVersionError extends CacherError {
  readonly code = 'TooLargeResourceVersion' as const;
  readonly retryAfterSeconds = 1;
  constructor(
    readonly requestedRevision: bigint,
    readonly currentRevision: bigint,
  ) {
    super(`Too large resource version: ${requestedRevision}, current: ${currentRevision}`);
    this.name = 'TooLargeResourceVersionError';
  }
}

/**
 * A watcher's buffer filled up because its consumer stopped reading; the watcher was removed from
 * dispatch. The events queued before the overflow were still delivered, so the client can resume
 * from the last revision it saw.
 */
export class WatcherTooSlowError extends CacherError {
  readonly code = 'WatcherTooSlow' as const;
  constructor(
    readonly bufferSize: number,
    /** The revision of the last event queued for the watcher. */
    readonly lastRevision: bigint,
  ) {
    super(`watcher fell behind (buffer of ${bufferSize} events full); last delivered revision ${lastRevision}`);
    this.name = 'WatcherTooSlowError';
  }
}

/**
 * The cache has not finished its initial list (or is re-listing) and could not become ready in
 * time: answer 429 with `Retry-After: 1`, as kube does while its watch cache initializes.
 */
export class CacherNotReadyError extends CacherError {
  readonly code = 'CacherNotReady' as const;
  readonly retryAfterSeconds = 1;
  constructor(readonly prefix: string) {
    super(`storage is (re)initializing: watch cache for ${prefix} is not ready`);
    this.name = 'CacherNotReadyError';
  }
}
