import type { ApiObject } from '../../apis/object.js';
import type { AdmissionAttributes, Operation } from '../admission-attributes.js';
import type { AdmissionPlugin } from '../admission-plugin.js';

export const DEFAULT_STORAGE_CLASS = 'DefaultStorageClass';

/** The StorageClasses that exist now, and the annotations that mark the default one. */
export interface StorageClassLister {
  /** `storageclass.<key domain>/is-default-class` and its beta form. */
  readonly defaultAnnotations: readonly string[];
  /** The beta annotation of a claim that names its class: `volume.beta.<key domain>/storage-class`. */
  readonly claimClassAnnotation: string;
  /** The classes as the watch cache holds them (kube's plugin reads an informer's cache). */
  list(signal: AbortSignal): Promise<readonly ApiObject[]>;
}

/**
 * kube's `GetDefaultClass`: of the classes annotated as default, the newest (by creation
 * timestamp; equal ones by name ascending).
 */
export function defaultStorageClass(
  classes: readonly ApiObject[],
  annotations: readonly string[],
): ApiObject | undefined {
  const defaults = classes.filter((c) => annotations.some((k) => c.metadata.annotations?.[k] === 'true'));
  const created = (c: ApiObject) => Date.parse(c.metadata.creationTimestamp ?? '') || 0;
  defaults.sort((x, y) => {
    const dx = created(x);
    const dy = created(y);
    if (dx !== dy) return dy - dx;
    const nx = x.metadata.name ?? '';
    const ny = y.metadata.name ?? '';
    return nx < ny ? -1 : nx > ny ? 1 : 0;
  });
  return defaults[0];
}

/**
 * kube's `DefaultStorageClass` (mutating, claims on create): a PersistentVolumeClaim that names
 * no class (no `spec.storageClassName`, not even empty, and no beta annotation) gets the default
 * StorageClass, when there is one.
 */
export function defaultStorageClassPlugin(lister: StorageClassLister): AdmissionPlugin {
  return {
    name: DEFAULT_STORAGE_CLASS,
    handles: (op: Operation) => op === 'CREATE',
    async admit(a: AdmissionAttributes, signal: AbortSignal): Promise<void> {
      if (a.subresource !== '' || a.resource.group !== '' || a.resource.resource !== 'persistentvolumeclaims') return;
      const claim = a.object as (ApiObject & { spec?: Record<string, unknown> }) | undefined;
      if (!claim) return;
      const spec = claim.spec ?? {};
      if (typeof spec.storageClassName === 'string') return;
      if (claim.metadata.annotations?.[lister.claimClassAnnotation] !== undefined) return;
      const def = defaultStorageClass(await lister.list(signal), lister.defaultAnnotations);
      if (!def) return;
      claim.spec = { ...spec, storageClassName: def.metadata.name ?? '' };
    },
  };
}
