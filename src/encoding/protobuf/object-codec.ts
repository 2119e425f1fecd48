import type { ApiObject } from '../../apis/object.js';
import type { Schema } from '../../apis/schema/schema.js';
import { beginEnvelope, endEnvelope, readEnvelope, type TypeMeta } from './envelope.js';
import { ProtobufDecodeError, ProtobufEncodeError } from './errors.js';
import { decodeMessage } from './message-decoder.js';
import { encodeMessage } from './message-encoder.js';
import { compileMessageTable } from './message-table.js';
import { ProtoWriter } from './wire-writer.js';

/**
 * Whole enveloped objects: `k8s\0` + `Unknown{typeMeta, raw}` with `raw` the object's message as
 * the kind's schema describes it. Pure and synchronous; the schema's field table is compiled on
 * first use and reused.
 */

/** Expected type of a decoded document: fills in an envelope that names none, rejects a different one. */
export type ExpectedType = TypeMeta;

function requireTypeMeta(obj: { apiVersion?: unknown; kind?: unknown }): TypeMeta {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string' || !obj.kind) {
    throw new ProtobufEncodeError('the object needs string apiVersion and kind to be enveloped');
  }
  return { apiVersion: obj.apiVersion, kind: obj.kind };
}

/**
 * Encodes `obj` (a JSON-shaped object of the kind `schema` describes) as an enveloped protobuf
 * document. The envelope carries `obj.apiVersion` and `obj.kind`. Throws `ProtobufEncodeError`
 * naming the field path when a value does not fit its schema type, and `ProtobufSchemaError`
 * when the schema has a shape protobuf cannot carry.
 */
export function encodeObject(schema: Schema, obj: ApiObject | Record<string, unknown>): Uint8Array {
  const table = compileMessageTable(schema);
  const w = new ProtoWriter(512);
  const mark = beginEnvelope(w, requireTypeMeta(obj));
  encodeMessage(w, table, obj);
  endEnvelope(w, mark);
  return w.finish();
}

/**
 * The enveloped document {@link encodeObject} writes, from the object's message as a list item
 * carries it (see `encodeItemMessage`): the same bytes, the message copied as it is.
 */
export function envelopeMessage(typeMeta: TypeMeta, message: Uint8Array): Uint8Array {
  const w = new ProtoWriter(message.length + 64);
  const mark = beginEnvelope(w, requireTypeMeta(typeMeta));
  w.raw(message);
  endEnvelope(w, mark);
  return w.finish();
}

/**
 * The envelope's type, defaulted from `expected` where it names none (as kube's decoder does);
 * throws `ProtobufDecodeError` (`kind-mismatch`) when it names another type.
 */
export function resolveTypeMeta(found: TypeMeta, expected: ExpectedType | undefined): TypeMeta {
  const apiVersion = found.apiVersion || expected?.apiVersion || '';
  const kind = found.kind || expected?.kind || '';
  if (!kind) throw new ProtobufDecodeError('malformed', "Object 'Kind' is missing in the protobuf envelope");
  if (!apiVersion)
    throw new ProtobufDecodeError('malformed', "Object 'apiVersion' is missing in the protobuf envelope");
  if (expected && (apiVersion !== expected.apiVersion || kind !== expected.kind)) {
    throw new ProtobufDecodeError(
      'kind-mismatch',
      `the object provided is of kind ${kind} (${apiVersion}), expected ${expected.kind} (${expected.apiVersion})`,
    );
  }
  return { apiVersion, kind };
}

/**
 * Decodes an enveloped protobuf document into a JSON-shaped object of `schema`'s kind:
 * `apiVersion` and `kind` from the envelope first, then the fields in schema order, `metadata`
 * always present (Go always writes it). With `expected`, an envelope without type is taken to be
 * of that type and one of another type is rejected. Throws `ProtobufDecodeError` for a wrong
 * prefix, malformed input (naming the field path) or a type mismatch.
 */
export function decodeObject(schema: Schema, bytes: Uint8Array, expected?: ExpectedType): ApiObject {
  const env = readEnvelope(bytes);
  const typeMeta = resolveTypeMeta(env, expected);
  const r = env.reader;
  r.pos = env.rawStart;
  const obj = decodeMessage(r, env.rawEnd, compileMessageTable(schema), undefined, {
    apiVersion: typeMeta.apiVersion,
    kind: typeMeta.kind,
  });
  if (obj.metadata === undefined && schema.properties?.metadata) obj.metadata = {};
  return obj as ApiObject;
}

/** The type an enveloped document declares, without decoding its object. */
export function peekTypeMeta(bytes: Uint8Array): TypeMeta {
  const env = readEnvelope(bytes);
  return { apiVersion: env.apiVersion, kind: env.kind };
}
