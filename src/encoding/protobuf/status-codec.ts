import { statusSchema } from '../../apis/meta/meta-v1-schemas.js';
import type { Status } from '../../apis/meta/status.js';
import { decodeObject, encodeObject } from './object-codec.js';

/**
 * meta/v1 `Status` in protobuf: `{ListMeta metadata = 1; string status = 2; string message = 3;
 * string reason = 4; StatusDetails details = 5; int32 code = 6}`, enveloped as `v1`/`Status`.
 * Error responses to protobuf clients use it.
 */

const STATUS_TYPE = { apiVersion: 'v1', kind: 'Status' } as const;

/** Encodes a Status (always enveloped as apiVersion `v1`, kind `Status`). */
export function encodeStatus(status: Status): Uint8Array {
  return encodeObject(statusSchema, { ...status, ...STATUS_TYPE });
}

/**
 * Decodes a Status document. An envelope without type is taken as `v1`/`Status`; another type
 * is rejected with `ProtobufDecodeError` (`kind-mismatch`). `metadata` is always present.
 */
export function decodeStatus(bytes: Uint8Array): Status {
  return decodeObject(statusSchema, bytes, STATUS_TYPE) as unknown as Status;
}
