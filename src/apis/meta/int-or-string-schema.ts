import { namedType } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';

/**
 * `intstr.IntOrString`: a JSON integer (int32) or string, e.g. a port number or name, or a
 * count or percentage. Protobuf: `{int64 type = 1; int32 intVal = 2; string strVal = 3}`.
 */
export const intOrStringSchema: Schema = namedType(
  'io.orch.apimachinery.pkg.util.intstr.IntOrString',
  'Either a 32-bit integer or a string, such as a port number or a port name.',
  { 'x-orch-int-or-string': true, 'x-orch-protobuf-message': 'IntOrString' },
);
