import { fieldErrors } from '../../apis/meta/field-error.js';
import { apiErrors, StatusError, type StatusReason } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { apiVersionOf } from '../../apis/resource-definition.js';
import { CorruptValueError, NotFoundError } from '../../storage/errors.js';
import type { KeyValue } from '../../storage/store.js';
import type { DeleteOptions, RequestContext } from '../types.js';
import { keyFor, type RegistryContext } from './registry-context.js';
import { toStatusError } from './storage-errors.js';

// kube's storage error code for a corrupt object (`ErrCodeCorruptObj`).
const CORRUPT_OBJECT_CODE = 7;
// kube aggregates at most this many corrupt objects in a list error.
const MAX_LIST_CORRUPT_OBJECTS = 100;

/** Why a stored record could not be turned into an object. */
interface CorruptRecord {
  readonly key: string;
  /** The record could not be read back at all (kube: not transformable), vs. not decodable. */
  readonly unreadable: boolean;
  readonly revision: bigint;
  readonly cause: Error;
}

/** Decodes a stored record with the resource's `decode`, or describes why it is corrupt. */
export function readStoredRecord<T = ApiObject>(
  kv: KeyValue,
  decode: (kv: KeyValue) => T,
): { obj: T } | { corrupt: CorruptRecord } {
  if (kv.corrupt) return { corrupt: { key: kv.key, unreadable: true, revision: 0n, cause: kv.corrupt } };
  try {
    return { obj: decode(kv) };
  } catch (e) {
    if (!(e instanceof CorruptValueError)) throw e;
    return { corrupt: { key: kv.key, unreadable: false, revision: kv.modRevision, cause: e } };
  }
}

/**
 * kube's `StorageError` text for a corrupt object:
 * `StorageError: corrupt object, Code: 7, Key: <key>, ResourceVersion: 0, AdditionalErrorMsg:
 * object not decodable revision=<rev>: <cause>` (or `data from the storage is not transformable`).
 */
function storageErrorText(c: CorruptRecord): string {
  const what = c.unreadable ? 'data from the storage is not transformable' : 'object not decodable';
  return `StorageError: corrupt object, Code: ${CORRUPT_OBJECT_CODE}, Key: ${c.key}, ResourceVersion: 0, AdditionalErrorMsg: ${what} revision=${c.revision}: ${c.cause.message}`;
}

function internalError(detail: string, cause: Error): StatusError {
  return new StatusError(
    500,
    'InternalError',
    `Internal error occurred: ${detail}`,
    { causes: [{ message: detail }] },
    {
      cause,
    },
  );
}

/**
 * The 500 a read of a corrupt object answers. With AllowUnsafeMalformedObjectDeletion on, kube
 * wraps the cause in its corrupt-object StorageError (which is what tells a client that the
 * unsafe delete applies); with it off, the bare cause.
 */
function corruptObjectError(rc: RegistryContext, c: CorruptRecord): StatusError {
  return rc.allowUnsafeMalformedObjectDeletion
    ? internalError(storageErrorText(c), c.cause)
    : internalError(c.cause.message, c.cause);
}

/** A CorruptValueError thrown by `Store.get` (the record itself is unreadable). */
function corruptFromGet(err: CorruptValueError): CorruptRecord {
  return { key: err.key, unreadable: true, revision: 0n, cause: err };
}

/** Translates an error of a single-object read: corrupt objects as kube reports them, else as usual. */
export function readErrorToStatus(rc: RegistryContext, err: unknown, name: string): StatusError {
  if (err instanceof CorruptValueError) return corruptObjectError(rc, corruptFromGet(err));
  return toStatusError(err, rc.gr, name);
}

/** Decodes one stored object, throwing kube's 500 for a corrupt one. */
export function decodeOrThrow(rc: RegistryContext, kv: KeyValue): ApiObject {
  const r = readStoredRecord(kv, rc.codec.decode);
  if ('obj' in r) return r.obj;
  throw corruptObjectError(rc, r.corrupt);
}

/**
 * Decodes the items of a list. A corrupt item fails the whole list: with the gate off, with the
 * first item's error; with it on, kube 1.32 reports every corrupt key (up to 100) in one 500
 * `StorageReadError`, `failed to read one or more <resource> from the storage`, one cause each.
 */
export function decodeListItems<T = ApiObject>(
  rc: RegistryContext,
  kvs: readonly KeyValue[],
  decode: (kv: KeyValue) => T = rc.codec.decode as unknown as (kv: KeyValue) => T,
): T[] {
  const items: T[] = [];
  const corrupt: CorruptRecord[] = [];
  let truncated = false;
  for (const kv of kvs) {
    const r = readStoredRecord(kv, decode);
    if ('obj' in r) {
      items.push(r.obj);
      continue;
    }
    if (!rc.allowUnsafeMalformedObjectDeletion) throw corruptObjectError(rc, r.corrupt);
    if (corrupt.length >= MAX_LIST_CORRUPT_OBJECTS) {
      truncated = true;
      break;
    }
    corrupt.push(r.corrupt);
  }
  if (corrupt.length === 0) return items;
  const causes = corrupt.map((c) => ({
    reason: 'UnexpectedServerResponse',
    field: c.key,
    message: storageErrorText(c),
  }));
  if (truncated)
    causes.push({ reason: 'FieldValueTooMany', field: '', message: 'too many errors, the list is truncated' });
  const qualified = rc.gr.group ? `${rc.gr.resource}.${rc.gr.group}` : rc.gr.resource;
  throw new StatusError(
    500,
    // kube's StatusReasonStoreReadError.
    'StorageReadError' as StatusReason,
    `failed to read one or more ${qualified} from the storage`,
    {
      group: rc.gr.group || undefined,
      kind: rc.gr.resource,
      name: 'list',
      causes: causes.map((c) => (c.field ? c : { reason: c.reason, message: c.message })),
    },
  );
}

/**
 * The unsafe delete (`ignoreStoreReadErrorWithClusterBreakingPotential`, gate on): only for an
 * object whose stored record cannot be read. It is then removed from the store unconditionally:
 * no finalizers, no preconditions, no garbage-collection finalizers. An object that reads fine
 * (or does not exist) is refused with kube's 422 on the option. The returned object is a stub
 * (name, namespace): the real one cannot be read.
 */
export async function deleteCorruptObject(
  rc: RegistryContext,
  ctx: RequestContext,
  name: string,
  _o: DeleteOptions,
): Promise<{ obj: ApiObject; deleted: boolean }> {
  const key = keyFor(rc, ctx.namespace, name);
  let corrupt = false;
  try {
    const kv = await rc.store.get(key, { signal: ctx.signal });
    corrupt = kv !== undefined && 'corrupt' in readStoredRecord(kv, rc.codec.decode);
  } catch (e) {
    if (!(e instanceof CorruptValueError)) throw readErrorToStatus(rc, e, name);
    corrupt = true;
  }
  if (!corrupt) {
    throw apiErrors.invalid({ group: rc.gr.group, kind: rc.gr.resource }, name, [
      fieldErrors.invalid(
        'ignoreStoreReadErrorWithClusterBreakingPotential',
        true,
        'is exclusively used to delete corrupt object(s), try again by removing this option',
      ),
    ]);
  }
  const stub: ApiObject = {
    apiVersion: apiVersionOf(rc.def),
    kind: rc.def.kind,
    metadata: rc.def.namespaced ? { name, namespace: ctx.namespace } : { name },
  };
  try {
    // Unconditional: the record's revision is all we could trust, and a corrupt record is
    // exactly what must go whatever was written over it meanwhile.
    await rc.store.delete(key, undefined, ctx.signal);
  } catch (e) {
    if (e instanceof NotFoundError) return { obj: stub, deleted: false };
    throw toStatusError(e, rc.gr, name);
  }
  return { obj: stub, deleted: true };
}
