import { listMetaSchema } from '../../apis/meta/meta-v1-schemas.js';
import type { ApiObject } from '../../apis/object.js';
import type { Schema } from '../../apis/schema/schema.js';
import { beginEnvelope, endEnvelope, readEnvelope } from './envelope.js';
import { ProtobufEncodeError } from './errors.js';
import { decodeMessage } from './message-decoder.js';
import { encodeMessage } from './message-encoder.js';
import { compileMessageTable } from './message-table.js';
import { type ExpectedType, resolveTypeMeta } from './object-codec.js';
import { ProtoWriter, WIRE_LEN } from './wire-writer.js';

/**
 * Lists (`<Kind>List`): the message `{ListMeta metadata = 1; repeated <Kind> items = 2}` in the
 * envelope. Items are the kind's own messages, without type meta (which protobuf never carries
 * inside a message).
 */

/** A list as the server serves it. */
export interface ObjectList<T extends ApiObject = ApiObject> {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number; selfLink?: string };
  items: T[];
}

/** The list schema of each item schema (schemas are immutable, so this memo is invisible). */
const listSchemas = new WeakMap<Schema, Schema>();

function listSchemaOf(itemSchema: Schema): Schema {
  let schema = listSchemas.get(itemSchema);
  if (!schema) {
    schema = {
      type: 'object',
      'x-orch-type-name': `${itemSchema['x-orch-type-name'] ?? 'object'}List`,
      properties: {
        metadata: { ...listMetaSchema, 'x-orch-protobuf-field': 1 },
        items: { type: 'array', items: itemSchema, 'x-orch-protobuf-field': 2 },
      },
    };
    listSchemas.set(itemSchema, schema);
  }
  return schema;
}

/**
 * Encodes a list of objects of `itemSchema`'s kind. The envelope carries `list.apiVersion` and
 * `list.kind`; the items' own `apiVersion`/`kind` are not written. Throws `ProtobufEncodeError`
 * naming the path (`items[3].metadata.name`) for values that do not fit the schema.
 */
export function encodeList(itemSchema: Schema, list: ObjectList | Record<string, unknown>): Uint8Array {
  const { apiVersion, kind } = list;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !kind) {
    throw new ProtobufEncodeError('the list needs string apiVersion and kind to be enveloped');
  }
  const w = new ProtoWriter(4096);
  const mark = beginEnvelope(w, { apiVersion, kind });
  encodeMessage(w, compileMessageTable(listSchemaOf(itemSchema)), list as Record<string, unknown>);
  endEnvelope(w, mark);
  return w.finish();
}

/**
 * One item's message as {@link encodeList} writes it inside a list (no envelope, no type meta):
 * encoded once, an item can be written into any number of lists ({@link encodeListOfMessages}).
 */
export function encodeItemMessage(itemSchema: Schema, item: ApiObject): Uint8Array {
  const w = new ProtoWriter(512);
  encodeMessage(w, compileMessageTable(itemSchema), item as unknown as Record<string, unknown>);
  return w.finish();
}

/**
 * The list {@link encodeList} writes, from the items' messages (see {@link encodeItemMessage})
 * and the list's type meta and metadata: the same bytes, the items copied as they are.
 */
export function encodeListOfMessages(
  itemSchema: Schema,
  head: Pick<ObjectList, 'apiVersion' | 'kind' | 'metadata'>,
  items: readonly Uint8Array[],
): Uint8Array {
  const { apiVersion, kind } = head;
  if (!kind) throw new ProtobufEncodeError('the list needs string apiVersion and kind to be enveloped');
  const size = items.reduce((n, item) => n + item.length + 6, 64);
  const w = new ProtoWriter(size);
  const mark = beginEnvelope(w, { apiVersion, kind });
  const table = compileMessageTable(listSchemaOf(itemSchema));
  encodeMessage(w, table, { metadata: head.metadata });
  const tag = (ITEMS_FIELD << 3) | WIRE_LEN;
  for (const item of items) {
    w.uvarint(tag);
    w.bytes(item);
  }
  endEnvelope(w, mark);
  return w.finish();
}

/** The field number of `items` in every list message. */
const ITEMS_FIELD = 2;

/**
 * Decodes a list of objects of `itemSchema`'s kind. `metadata` and `items` are always present.
 * When the list kind is `<Kind>List`, each item gets `apiVersion` and `kind` (`<Kind>`) back, so
 * the items are whole objects. Throws `ProtobufDecodeError` as `decodeObject` does.
 */
export function decodeList(itemSchema: Schema, bytes: Uint8Array, expected?: ExpectedType): ObjectList {
  const env = readEnvelope(bytes);
  const { apiVersion, kind } = resolveTypeMeta(env, expected);
  const r = env.reader;
  r.pos = env.rawStart;
  const decoded = decodeMessage(r, env.rawEnd, compileMessageTable(listSchemaOf(itemSchema)));
  const items = (decoded.items as Record<string, unknown>[] | undefined) ?? [];
  const itemKind = kind.endsWith('List') ? kind.slice(0, -4) : '';
  if (itemKind) {
    for (let i = 0; i < items.length; i++) {
      // Rebuilt so apiVersion and kind come first, as in a served object (no spread: it is slow in V8).
      const item = items[i];
      const full: Record<string, unknown> = { apiVersion, kind: itemKind };
      for (const key in item) full[key] = item[key];
      if (full.metadata === undefined) full.metadata = {};
      items[i] = full;
    }
  }
  return {
    apiVersion,
    kind,
    metadata: (decoded.metadata as ObjectList['metadata'] | undefined) ?? {},
    items: items as ApiObject[],
  };
}
