import type { ApiObject } from '../object.js';
import { AGE_COLUMN, column, NAME_COLUMN, objectName, stringAt, valueAt } from '../table/column-helpers.js';
import { translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';

/**
 * kube's printer columns of RoleBinding and ClusterRoleBinding: `Name`, `Role` (`kind/name` of
 * the role reference), `Age`, and the wide `Users`, `Groups` and `ServiceAccounts` (subject
 * names joined with `, `; service accounts as `namespace/name`). Roles and cluster roles have no
 * printer in kube: they get the default `Name`/`Created At` table.
 */

/** kube's `SubjectsStrings`: the names of user, group and service-account subjects, in order. */
export function subjectStrings(subjects: unknown): { users: string[]; groups: string[]; serviceAccounts: string[] } {
  const out = { users: [] as string[], groups: [] as string[], serviceAccounts: [] as string[] };
  if (!Array.isArray(subjects)) return out;
  for (const s of subjects) {
    const name = stringAt(s, 'name');
    switch (stringAt(s, 'kind')) {
      case 'ServiceAccount':
        out.serviceAccounts.push(`${stringAt(s, 'namespace')}/${name}`);
        break;
      case 'User':
        out.users.push(name);
        break;
      case 'Group':
        out.groups.push(name);
        break;
    }
  }
  return out;
}

/** The columns of a binding kind; `what` is `role binding` or `cluster role binding`. */
export function bindingTableColumns(what: 'role binding' | 'cluster role binding'): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Role', 'string', 'The role the binding grants, as kind/name.'),
      AGE_COLUMN,
      column('Users', 'string', `The users the ${what} grants its role to.`, { priority: 1 }),
      column('Groups', 'string', `The groups the ${what} grants its role to.`, { priority: 1 }),
      column('ServiceAccounts', 'string', `The service accounts the ${what} grants its role to, as namespace/name.`, {
        priority: 1,
      }),
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const { users, groups, serviceAccounts } = subjectStrings(obj.subjects);
      return [
        objectName(obj),
        `${stringAt(obj, 'roleRef', 'kind')}/${stringAt(obj, 'roleRef', 'name')}`,
        translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now),
        users.join(', '),
        groups.join(', '),
        serviceAccounts.join(', '),
      ];
    },
  });
}
