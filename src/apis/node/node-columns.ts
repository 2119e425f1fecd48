import type { Schema } from '../schema/schema.js';
import { describeField } from '../table/column-helpers.js';
import { AGE_SPEC, declarativeTableColumns } from '../table/declarative-columns.js';
import type { TableColumns } from '../table/table-types.js';

/** kube's RuntimeClass printer: `Name`, `Handler`, `Age`. */
export function runtimeClassTableColumns(schema: Schema): TableColumns {
  return declarativeTableColumns([
    {
      name: 'Handler',
      type: 'string',
      description:
        describeField(schema, 'handler') || 'The name of the runtime configuration that handles pods of this class.',
      jsonPath: '.handler',
      zero: '',
    },
    AGE_SPEC,
  ]);
}
