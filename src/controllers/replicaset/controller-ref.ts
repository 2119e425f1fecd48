import type { ApiObject, OwnerReference } from '../../apis/object.js';
import { type LabelSelector, matchesLabels } from '../../apis/selectors/index.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import { controllerRefOf, errorText, isStatus } from '../controller-support.js';

export interface ClaimOptions {
  /** The controller claiming (its uid and deletion state decide). */
  readonly owner: ApiObject;
  /** The reference adoption adds (from {@link newControllerRef}). */
  readonly ownerRef: OwnerReference;
  readonly selector: LabelSelector;
  /** The client of the claimed objects' resource, for the adopt and release patches. */
  readonly client: ResourceClient;
  /**
   * Throws when the owner may not adopt (it is gone, replaced or being deleted: a live read,
   * as kube's `RecheckDeletionTimestamp`); called at most once, before the first adoption.
   */
  readonly canAdopt: () => Promise<void>;
  readonly signal: AbortSignal;
}

/** Failures of some adoptions or releases (the objects claimed so far are in `claimed`). */
export class ClaimError extends Error {
  constructor(
    readonly claimed: ApiObject[],
    readonly causes: readonly unknown[],
  ) {
    super(`claiming objects failed: ${causes.map((c) => errorText(c)).join('; ')}`);
    this.name = 'ClaimError';
  }
}

/**
 * kube's controller ref manager (`ClaimObject`): of `objects` (same namespace as the owner),
 * those it controls and that match the selector are its; those it controls that no longer match
 * are released (its reference removed) unless it is being deleted; orphans that match and are
 * not being deleted are adopted (its controller reference added) unless it is being deleted.
 * Objects another controller owns are left alone. Patches are strategic merges with the
 * object's uid as precondition, as kube sends them.
 *
 * @returns the claimed objects (adopted ones as the patch answered).
 * @throws ClaimError when an adoption or release failed for another reason than the object
 *   being gone.
 */
export async function claimObjects(objects: readonly ApiObject[], o: ClaimOptions): Promise<ApiObject[]> {
  const ownerUid = o.owner.metadata.uid;
  const ownerDeleting = Boolean(o.owner.metadata.deletionTimestamp);
  const claimed: ApiObject[] = [];
  const errors: unknown[] = [];
  let adoptChecked: Promise<void> | undefined;
  for (const obj of objects) {
    const ref = controllerRefOf(obj);
    const matches = matchesLabels(o.selector, obj.metadata.labels ?? {});
    if (ref) {
      if (ref.uid !== ownerUid) continue;
      if (matches) {
        claimed.push(obj);
        continue;
      }
      if (ownerDeleting) continue;
      try {
        await o.client.patch(
          obj.metadata.namespace ?? '',
          obj.metadata.name ?? '',
          'strategic',
          { metadata: { ownerReferences: [{ $patch: 'delete', uid: ownerUid }], uid: obj.metadata.uid } },
          o.signal,
        );
      } catch (e) {
        // Gone, or being deleted with an owner reference that cannot change: nothing to release.
        if (!isStatus(e, 404) && !isStatus(e, 422)) errors.push(e);
      }
      continue;
    }
    if (ownerDeleting || !matches || obj.metadata.deletionTimestamp) continue;
    if (obj.metadata.namespace !== o.owner.metadata.namespace) continue;
    try {
      adoptChecked ??= o.canAdopt();
      await adoptChecked;
      const adopted = await o.client.patch(
        obj.metadata.namespace ?? '',
        obj.metadata.name ?? '',
        'strategic',
        { metadata: { ownerReferences: [o.ownerRef], uid: obj.metadata.uid } },
        o.signal,
      );
      claimed.push(adopted);
    } catch (e) {
      if (!isStatus(e, 404)) errors.push(e);
    }
  }
  if (errors.length > 0) throw new ClaimError(claimed, errors);
  return claimed;
}

/**
 * kube's `RecheckDeletionTimestamp`: a live read of the owner; it may adopt only when it is the
 * same object (uid) and not being deleted.
 */
export async function recheckOwner(client: ResourceClient, owner: ApiObject, signal: AbortSignal): Promise<void> {
  const fresh = await client.get(owner.metadata.namespace ?? '', owner.metadata.name ?? '', signal);
  const what = `${owner.kind ?? client.resource.kind} ${owner.metadata.namespace}/${owner.metadata.name}`;
  if (fresh.metadata.uid !== owner.metadata.uid) {
    throw new Error(`original ${what} is gone: got uid ${fresh.metadata.uid}, wanted ${owner.metadata.uid}`);
  }
  if (fresh.metadata.deletionTimestamp) {
    throw new Error(`${what} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
  }
}
