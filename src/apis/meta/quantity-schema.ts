import { namedType } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';

/**
 * `resource.Quantity`: an amount such as `500m`, `1Gi` or `1e3`, written as a string in JSON
 * and as `{string string = 1}` in protobuf. kube also accepts a JSON number on input and writes
 * the canonical string back; that normalization belongs to the kinds that hold quantities.
 */
export const quantitySchema: Schema = namedType(
  'io.orch.apimachinery.pkg.api.resource.Quantity',
  'A fixed-point amount with an optional binary (Ki, Mi...) or decimal (m, k, M...) suffix or exponent, written as a string.',
  { type: 'string', 'x-orch-protobuf-message': 'Quantity' },
);
