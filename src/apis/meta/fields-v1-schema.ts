import { namedType } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';

/**
 * `meta/v1` `FieldsV1`: the set of fields a manager owns, as a JSON trie of field paths (kept as
 * is); in protobuf `{bytes Raw = 1}` holding that JSON.
 */
export const fieldsV1Schema: Schema = namedType(
  'io.orch.apimachinery.pkg.apis.meta.v1.FieldsV1',
  'A set of field paths, written as a JSON tree whose keys name fields, map keys and list items.',
  { type: 'object', 'x-orch-preserve-unknown-fields': true, 'x-orch-protobuf-message': 'FieldsV1' },
);
