import type { KeyValue } from './store.js';

export type StorageErrorCode =
  | 'KeyExists'
  | 'NotFound'
  | 'Conflict'
  | 'Compacted'
  | 'RevisionTooNew'
  | 'Unavailable'
  | 'CorruptValue';

/** Base class of every error the storage layer raises; `code` discriminates. */
export abstract class StorageError extends Error {
  abstract readonly code: StorageErrorCode;
}

export class KeyExistsError extends StorageError {
  readonly code = 'KeyExists' as const;
  constructor(readonly key: string) {
    super(`key already exists: ${key}`);
    this.name = 'KeyExistsError';
  }
}

export class NotFoundError extends StorageError {
  readonly code = 'NotFound' as const;
  constructor(readonly key: string) {
    super(`key not found: ${key}`);
    this.name = 'NotFoundError';
  }
}

/** A guarded write lost: `current` is the key's value at the time of the failed write. */
export class ConflictError extends StorageError {
  readonly code = 'Conflict' as const;
  constructor(
    readonly key: string,
    readonly expectedModRevision: bigint,
    readonly current: KeyValue | undefined,
  ) {
    super(
      `conflict on ${key}: expected modRevision ${expectedModRevision}, found ${current ? current.modRevision : 'none'}`,
    );
    this.name = 'ConflictError';
  }
}

/** The requested revision is at or below the compacted revision. */
export class CompactedError extends StorageError {
  readonly code = 'Compacted' as const;
  constructor(
    readonly requestedRevision: bigint,
    readonly compactedRevision: bigint,
  ) {
    super(`required revision ${requestedRevision} has been compacted (compacted revision ${compactedRevision})`);
    this.name = 'CompactedError';
  }
  /** The oldest revision still readable. */
  get oldestRetainedRevision(): bigint {
    return this.compactedRevision + 1n;
  }
}

/** The requested revision is newer than the store's current revision. */
export class RevisionTooNewError extends StorageError {
  readonly code = 'RevisionTooNew' as const;
  constructor(
    readonly requestedRevision: bigint,
    readonly currentRevision: bigint,
  ) {
    super(`required revision ${requestedRevision} is a future revision (current ${currentRevision})`);
    this.name = 'RevisionTooNewError';
  }
}

export class UnavailableError extends StorageError {
  readonly code = 'Unavailable' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(`storage unavailable: ${message}`, options);
    this.name = 'UnavailableError';
  }
}

/** The record stored for `key` cannot be read back; affects only that key. */
export class CorruptValueError extends StorageError {
  readonly code = 'CorruptValue' as const;
  constructor(
    readonly key: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`corrupt value for ${key}: ${message}`, options);
    this.name = 'CorruptValueError';
  }
}

export function isStorageError(e: unknown): e is StorageError {
  return e instanceof StorageError;
}
