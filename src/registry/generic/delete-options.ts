import { type FieldError, fieldErrors } from '../../apis/meta/field-error.js';
import { apiErrors, type GroupResource, StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { DeleteOptions } from '../types.js';

/** The group DeleteOptions belong to (kube's `meta.k8s.io`). */

const UNSAFE_OPTION = 'ignoreStoreReadErrorWithClusterBreakingPotential';
const PROPAGATION_POLICIES = ['Foreground', 'Background', 'Orphan'] as const;

/**
 * The options a delete actually runs with. With the feature gate AllowUnsafeMalformedObjectDeletion
 * off, kube drops `ignoreStoreReadErrorWithClusterBreakingPotential` before anything looks at it,
 * so the option has no effect at all (a corrupt object then fails the normal delete with a 500).
 */
export function effectiveDeleteOptions(o: DeleteOptions, allowUnsafeDelete: boolean): DeleteOptions {
  if (allowUnsafeDelete || o.ignoreStoreReadErrorWithClusterBreakingPotential === undefined) return o;
  const { ignoreStoreReadErrorWithClusterBreakingPotential: _dropped, ...rest } = o;
  return rest;
}

/**
 * kube's `ValidateDeleteOptions`: `orphanDependents` and `propagationPolicy` exclude each other,
 * the policy must be known, and an unsafe delete takes no other option. All problems are reported
 * at once as 422 `DeleteOptions.<meta group> "" is invalid: ...`.
 */
export function validateDeleteOptions(o: DeleteOptions, metaGroup: string): void {
  const errs: FieldError[] = [];
  const policy = o.propagationPolicy as string | undefined;
  if (o.orphanDependents !== undefined && policy !== undefined) {
    errs.push(
      fieldErrors.invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'),
    );
  }
  if (policy !== undefined && !(PROPAGATION_POLICIES as readonly string[]).includes(policy)) {
    errs.push(fieldErrors.notSupported('propagationPolicy', policy, [...PROPAGATION_POLICIES, 'nil']));
  }
  if (o.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
    const conflicting: [boolean, string][] = [
      [o.dryRun, 'dryRun'],
      [policy !== undefined, 'propagationPolicy'],
      [o.orphanDependents !== undefined, 'orphanDependents'],
      [o.gracePeriodSeconds !== undefined, 'gracePeriodSeconds'],
      [o.preconditions !== undefined, 'preconditions'],
    ];
    for (const [set, field] of conflicting) {
      if (set) errs.push(fieldErrors.invalid(UNSAFE_OPTION, true, `cannot be set together with .${field}`));
    }
  }
  if (errs.length === 0) return;
  const e = apiErrors.invalid({ group: metaGroup, kind: 'DeleteOptions' }, '', errs);
  // kube leaves the empty name out of the details.
  throw new StatusError(e.code, e.reason, e.message, { ...e.details, name: undefined });
}

/**
 * kube's `BeforeDelete` precondition check: 409 naming the kind (not the resource), e.g.
 * `Operation cannot be fulfilled on ConfigMap "x": the UID in the precondition (a) does not match
 * the UID in record (b). The object might have been deleted and then recreated`.
 */
export function checkDeletePreconditions(
  kind: { group: string; kind: string },
  live: ApiObject,
  o: DeleteOptions,
): void {
  const p = o.preconditions;
  if (!p) return;
  const gr: GroupResource = { group: kind.group, resource: kind.kind };
  const name = live.metadata.name ?? '';
  if (p.uid !== undefined && p.uid !== live.metadata.uid) {
    throw apiErrors.conflict(
      gr,
      name,
      `the UID in the precondition (${p.uid}) does not match the UID in record (${live.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== live.metadata.resourceVersion) {
    throw apiErrors.conflict(
      gr,
      name,
      `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${live.metadata.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
}

/**
 * The storage-level precondition failure kube reports when the object changed between its read
 * and the write (and the namespace registry reports for any mismatch): `Precondition failed: UID
 * in precondition: a, UID in object meta: b`, on the resource.
 */
export function checkStoragePreconditions(gr: GroupResource, live: ApiObject, o: DeleteOptions): void {
  const p = o.preconditions;
  if (!p) return;
  const name = live.metadata.name ?? '';
  if (p.uid !== undefined && p.uid !== live.metadata.uid) {
    throw apiErrors.conflict(
      gr,
      name,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${live.metadata.uid ?? ''}`,
    );
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== live.metadata.resourceVersion) {
    throw apiErrors.conflict(
      gr,
      name,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${live.metadata.resourceVersion ?? ''}`,
    );
  }
}

/**
 * Reads `ignoreStoreReadErrorWithClusterBreakingPotential` from a DeleteOptions body or the query
 * (`true`/`1`/`false`/`0`), for the delete handlers.
 */
export function parseUnsafeDeleteOption(
  query: URLSearchParams,
  body: Record<string, unknown> | undefined,
): boolean | undefined {
  if (body && typeof body[UNSAFE_OPTION] === 'boolean') return body[UNSAFE_OPTION] as boolean;
  const q = query.get(UNSAFE_OPTION);
  if (q === null || q === '') return undefined;
  if (q === 'true' || q === '1') return true;
  if (q === 'false' || q === '0') return false;
  throw apiErrors.badRequest(`invalid value for ${UNSAFE_OPTION}: "${q}": must be a boolean`);
}

/**
 * The options of a deletecollection, as kube's handler checks them: the gate as for a single
 * delete, the same validation, and no unsafe delete of a whole collection.
 */
export function collectionDeleteOptions(
  o: DeleteOptions,
  allowUnsafeDelete: boolean,
  metaGroup: string,
): DeleteOptions {
  const effective = effectiveDeleteOptions(o, allowUnsafeDelete);
  validateDeleteOptions(effective, metaGroup);
  if (effective.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
    const e = apiErrors.invalid({ group: metaGroup, kind: 'DeleteOptions' }, '', [
      fieldErrors.invalid(
        UNSAFE_OPTION,
        true,
        'is not allowed with DELETECOLLECTION, try again after removing the option',
      ),
    ]);
    throw new StatusError(e.code, e.reason, e.message, { ...e.details, name: undefined });
  }
  return effective;
}
