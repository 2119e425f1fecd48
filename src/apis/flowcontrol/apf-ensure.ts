import { goParseBool } from '../../util/go-strconv.js';
import type { ApiObject } from '../object.js';
import { jsonEqual } from '../schema/json-value.js';
import { EXEMPT, type PriorityLevelConfiguration } from './flowcontrol-types.js';

/**
 * kube's APF configuration ensurer as pure functions: what start-up does to each bootstrap
 * object that exists (mandatory ones always get their spec back; suggested ones only while
 * their `autoupdate-spec` annotation allows it), and which objects it removes.
 */

/** How an existing object is kept: mandatory objects always, suggested ones per annotation. */
export type EnsureStrategy = 'mandatory' | 'suggested';

function annotationValue(obj: ApiObject, annotation: string): string | undefined {
  return obj.metadata.annotations?.[annotation];
}

/**
 * kube's `shouldUpdateSpec` for suggested objects: the annotation's boolean when it parses, else
 * whether the object was never changed (generation 1).
 */
function suggestedMayUpdate(obj: ApiObject, annotation: string): boolean {
  const parsed = goParseBool(annotationValue(obj, annotation) ?? '');
  if (parsed !== undefined) return parsed;
  return obj.metadata.generation === 1;
}

/**
 * Whether two specs are the same for the ensurer (kube's `SpecEqualish`): exact JSON equality,
 * except that the `exempt` priority level's `spec.exempt` values are the administrator's.
 */
export function specEqualish(kind: string, expected: ApiObject, actual: ApiObject): boolean {
  const want = structuredClone(expected.spec) as PriorityLevelConfiguration['spec'];
  const have = actual.spec as PriorityLevelConfiguration['spec'];
  if (kind === 'PriorityLevelConfiguration' && expected.metadata.name === EXEMPT) {
    if (!have?.exempt || !want) return false;
    want.exempt = structuredClone(have.exempt);
  }
  return jsonEqual(want, have);
}

/**
 * kube's `ReviseIfNeeded`: the object to write back for `current` (a copy with the bootstrap
 * spec and/or the annotation set to what the strategy decided), or undefined when it is fine.
 */
export function reviseIfNeeded(
  strategy: EnsureStrategy,
  current: ApiObject,
  bootstrap: ApiObject,
  annotation: string,
): ApiObject | undefined {
  const autoUpdateSpec = strategy === 'mandatory' || suggestedMayUpdate(current, annotation);
  const parsed = goParseBool(annotationValue(current, annotation) ?? '');
  const updateAnnotation = parsed !== autoUpdateSpec;
  const specChanged = autoUpdateSpec && !specEqualish(current.kind, bootstrap, current);
  if (!updateAnnotation && !specChanged) return undefined;
  const revised = structuredClone(current);
  if (specChanged) revised.spec = structuredClone(bootstrap.spec);
  if (updateAnnotation) {
    revised.metadata.annotations = { ...(revised.metadata.annotations ?? {}), [annotation]: String(autoUpdateSpec) };
  }
  return revised;
}

/**
 * kube's `RemoveUnwantedObjects` selection: objects whose name is not a bootstrap name and whose
 * annotation parses as true (objects without it, or with false or a malformed value, stay).
 */
export function unwantedObjects(
  current: readonly ApiObject[],
  wanted: ReadonlySet<string>,
  annotation: string,
): ApiObject[] {
  return current.filter((o) => {
    if (wanted.has(o.metadata.name ?? '')) return false;
    const value = annotationValue(o, annotation);
    return value !== undefined && goParseBool(value) === true;
  });
}
