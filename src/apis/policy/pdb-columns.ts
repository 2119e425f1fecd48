import { AGE_SPEC, declarativeTableColumns } from '../table/declarative-columns.js';
import type { TableColumns } from '../table/table-types.js';

/**
 * kube's PodDisruptionBudget printer: `Name`, `Min Available`, `Max Unavailable` (`N/A` when
 * unset), `Allowed Disruptions`, `Age`.
 */
export function pdbTableColumns(): TableColumns {
  return declarativeTableColumns([
    {
      name: 'Min Available',
      type: 'string',
      description: 'How many pods must stay available, as a number or percentage.',
      jsonPath: '.spec.minAvailable',
      zero: 'N/A',
    },
    {
      name: 'Max Unavailable',
      type: 'string',
      description: 'How many pods may be unavailable, as a number or percentage.',
      jsonPath: '.spec.maxUnavailable',
      zero: 'N/A',
    },
    {
      name: 'Allowed Disruptions',
      type: 'integer',
      description: 'How many pods may be disrupted right now.',
      jsonPath: '.status.disruptionsAllowed',
      zero: 0,
    },
    AGE_SPEC,
  ]);
}
