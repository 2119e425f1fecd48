import type { Schema } from '../schema/schema.js';
import { describeField } from '../table/column-helpers.js';
import { AGE_SPEC, declarativeTableColumns } from '../table/declarative-columns.js';
import type { TableColumns } from '../table/table-types.js';

/**
 * kube's PriorityClass printer: `Name`, `Value`, `Global-Default`, `Age`, `PreemptionPolicy`
 * (empty when unset). Descriptions come from the kind's schema.
 */
export function priorityClassTableColumns(schema: Schema): TableColumns {
  return declarativeTableColumns([
    {
      name: 'Value',
      type: 'integer',
      description: describeField(schema, 'value') || 'The priority value of the class.',
      jsonPath: '.value',
      zero: 0,
    },
    {
      name: 'Global-Default',
      type: 'boolean',
      description:
        describeField(schema, 'globalDefault') ||
        'Whether this class is the default for pods without a priority class.',
      jsonPath: '.globalDefault',
      zero: false,
    },
    AGE_SPEC,
    {
      name: 'PreemptionPolicy',
      type: 'string',
      description: describeField(schema, 'preemptionPolicy') || 'The policy for preempting pods with lower priority.',
      jsonPath: '.preemptionPolicy',
      zero: '',
    },
  ]);
}
