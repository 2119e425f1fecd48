import { apiErrors } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { AdmissionAttributes, Operation } from '../admission-attributes.js';
import type { AdmissionPlugin } from '../admission-plugin.js';

export const PRIORITY = 'Priority';

/** The PriorityClasses that exist now, and the group they are served in. */
export interface PriorityClassLister {
  /** `scheduling.<domain>`. */
  readonly group: string;
  list(signal: AbortSignal): Promise<readonly ApiObject[]>;
}

/**
 * kube's `Priority` admission plugin, its PriorityClass part (validating): a class may be created
 * or updated as `globalDefault` only while no other class is the default (the existing default
 * with the lowest value is named in the 403). Pod priority resolution is not part of it here.
 */
export function priorityPlugin(lister: PriorityClassLister): AdmissionPlugin {
  return {
    name: PRIORITY,
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE',
    async validate(a: AdmissionAttributes, signal: AbortSignal): Promise<void> {
      if (a.subresource !== '' || a.resource.group !== lister.group || a.resource.resource !== 'priorityclasses')
        return;
      if (a.object?.globalDefault !== true) return;
      let current: ApiObject | undefined;
      for (const pc of await lister.list(signal)) {
        if (pc.globalDefault !== true) continue;
        if (!current || (current.value as number) > (pc.value as number)) current = pc;
      }
      if (!current) return;
      const currentName = current.metadata.name ?? '';
      if (a.operation === 'CREATE' || currentName !== a.name) {
        throw apiErrors.forbidden(
          { group: a.resource.group, resource: a.resource.resource },
          a.name,
          `PriorityClass ${currentName} is already marked as default. Only one default can exist`,
        );
      }
    },
  };
}
