import { namedType } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';

/** `runtime.RawExtension`: an embedded JSON object kept as it is; protobuf `{bytes raw = 1}` holding its JSON. */
export const rawExtensionSchema: Schema = namedType(
  'io.orch.apimachinery.pkg.runtime.RawExtension',
  'An embedded object of any kind, kept as the JSON it was written in.',
  { type: 'object', 'x-orch-protobuf-message': 'RawExtension' },
);
