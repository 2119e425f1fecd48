import { namedType } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';

/** `runtime.RawExtension`: an embedded JSON object kept as it is; protobuf `{bytes raw = 1}` holding its JSON. */
export const rawExtensionSchema: Schema = namedType(
  'io.orch.apimachinery.pkg.runtime.RawExtension',
  'RawExtension is used to hold extensions in external versions.',
  { type: 'object', 'x-orch-protobuf-message': 'RawExtension' },
);
