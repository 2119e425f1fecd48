import { column, NAME_COLUMN } from '../table/column-helpers.js';
import { AGE_SPEC, declarativeTableColumns } from '../table/declarative-columns.js';
import type { TableColumns } from '../table/table-types.js';

/**
 * kube's printer of `autoscaling/v1` Scale, which the `scale` sub-resources of the built-in
 * workloads answer Tables with (`kubectl get deployment/web --subresource=scale`): `Name` (without
 * the `name` format kube's other printers give it), `Desired` (`spec.replicas`), `Available`
 * (`status.replicas`), `Age`. Descriptions in Orch's own words.
 */
export function scaleTableColumns(): TableColumns {
  return declarativeTableColumns(
    [
      {
        name: 'Desired',
        type: 'integer',
        description: 'The number of replicas asked for.',
        jsonPath: '.spec.replicas',
        zero: 0,
      },
      {
        name: 'Available',
        type: 'integer',
        description: 'The number of replicas last seen running.',
        jsonPath: '.status.replicas',
        zero: 0,
      },
      AGE_SPEC,
    ],
    { nameColumn: column(NAME_COLUMN.name, NAME_COLUMN.type, NAME_COLUMN.description) },
  );
}
