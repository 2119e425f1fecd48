import type { ApiObject } from '../../apis/object.js';
import { canonicalJson } from '../../apis/schema/json-value.js';

const FIX =
  'API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed:';

/** kube's warning for duplicates in the request's object (create and update). */
const DUPLICATES = `.metadata.ownerReferences contains duplicate entries; ${FIX}`;
/** kube's warning for duplicates found after mutating admission (every PATCH is checked only there). */
const DUPLICATES_AFTER_ADMISSION = `.metadata.ownerReferences contains duplicate entries after mutating admission happens; ${FIX}`;

/**
 * Removes owner references identical to an earlier one, as kube's handlers do before the write
 * (create and update: before the field manager; patch: after the patch is applied): only
 * entries equal in every member go; entries sharing a UID but differing otherwise stay, for
 * validation to judge. Mutates `obj`; returns the warning to send (the UIDs of the removed
 * entries, in order) or undefined when nothing was removed.
 */
export function dedupOwnerReferences(obj: ApiObject, o: { readonly afterAdmission: boolean }): string | undefined {
  const refs = obj.metadata?.ownerReferences;
  if (!Array.isArray(refs) || refs.length < 2) return undefined;
  const kept: unknown[] = [];
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const ref of refs) {
    const key = canonicalJson(ref);
    if (seen.has(key)) {
      duplicates.push(String((ref as { uid?: unknown }).uid ?? ''));
      continue;
    }
    seen.add(key);
    kept.push(ref);
  }
  if (duplicates.length === 0) return undefined;
  obj.metadata.ownerReferences = kept as typeof refs;
  return `${o.afterAdmission ? DUPLICATES_AFTER_ADMISSION : DUPLICATES} ${duplicates.join(', ')}`;
}

/** `warnings` plus the warning of {@link dedupOwnerReferences} for the request's own object. */
export function withDedupedOwnerReferences(obj: ApiObject, warnings: readonly string[]): readonly string[] {
  const w = dedupOwnerReferences(obj, { afterAdmission: false });
  return w === undefined ? warnings : [...warnings, w];
}
