import { apiErrors, type GroupResource, StatusError } from '../../apis/meta/status.js';
import { type CompactedError, isStorageError } from '../../storage/errors.js';

/**
 * Translates a storage error into the API error a client sees. Errors that already are
 * StatusErrors pass through; anything unexpected becomes a 500.
 */
export function toStatusError(err: unknown, gr: GroupResource, name: string): StatusError {
  if (err instanceof StatusError) return err;
  if (!isStorageError(err)) return apiErrors.internal(err);
  switch (err.code) {
    case 'KeyExists':
      return apiErrors.alreadyExists(gr, name);
    case 'NotFound':
      return apiErrors.notFound(gr, name);
    case 'Conflict':
      return apiErrors.staleResourceVersion(gr, name);
    case 'Compacted': {
      const c = err as CompactedError;
      return apiErrors.gone(`too old resource version: ${c.requestedRevision} (${c.compactedRevision})`);
    }
    case 'RevisionTooNew':
      return apiErrors.tooLargeResourceVersion(gr);
    case 'Unavailable':
      return new StatusError(503, 'ServiceUnavailable', err.message, undefined, { cause: err });
    case 'CorruptValue':
      return new StatusError(500, 'InternalError', `Internal error occurred: ${err.message}`, { name }, { cause: err });
  }
}
