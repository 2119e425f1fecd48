import type { FieldError } from '../apis/meta/field-error.js';
import { isPlainObject, jsonEqual } from '../apis/schema/json-value.js';
import type { Schema } from '../apis/schema/schema.js';

/** One step of a field path: a property or map key, or a list index. */
type Step = string | number;

/** `spec.items[0].name` → `spec`, `items`, 0, `name`; `data[key]` → `data`, `key`. */
function stepsOf(path: string): Step[] | undefined {
  const steps: Step[] = [];
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  let m: RegExpExecArray | null;
  let consumed = 0;
  for (m = re.exec(path); m !== null; m = re.exec(path)) {
    if (m[1] !== undefined) steps.push(m[1]);
    else steps.push(/^\d+$/.test(m[2]) ? Number(m[2]) : m[2]);
    consumed = re.lastIndex;
  }
  return consumed === path.length ? steps : undefined;
}

/** The item of `old` a list-map item of `now` correlates with (same key values), if any. */
function correlatedItem(item: unknown, old: unknown[], keys: readonly string[]): unknown {
  if (!isPlainObject(item)) return undefined;
  return old.find((o) => isPlainObject(o) && keys.every((k) => jsonEqual(o[k], item[k])));
}

/**
 * Whether the value an error points at, or a value on the way to it, is unchanged from the old
 * object: kube's validation ratcheting (`CRDValidationRatcheting`, beta and on in v1.32) then
 * drops the error, so an update may keep an invalid value it does not touch. Values correlate
 * through object properties and map keys, and through `map` lists by their keys; items of other
 * lists do not (only an unchanged whole list ratchets).
 */
function unchanged(path: string, now: unknown, old: unknown, schema: Schema | undefined): boolean {
  const steps = stepsOf(path);
  if (!steps || steps.length === 0) return false;
  let a = now;
  let b = old;
  let s = schema;
  for (const step of steps) {
    if (jsonEqual(a, b) && a !== undefined) return true;
    if (typeof step === 'number') {
      if (!Array.isArray(a) || !Array.isArray(b)) return false;
      const keys = s?.['x-orch-list-type'] === 'map' ? (s['x-orch-list-map-keys'] ?? []) : undefined;
      if (!keys || keys.length === 0) return false;
      a = a[step];
      b = correlatedItem(a, b, keys);
      s = s?.items;
    } else {
      if (!isPlainObject(a) || !isPlainObject(b)) return false;
      a = a[step];
      b = b[step];
      const extra = typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined;
      s = s?.properties?.[step] ?? extra;
    }
    if (b === undefined) return false;
  }
  return a !== undefined && jsonEqual(a, b);
}

/** The schema errors of an update that are not ratcheted away (see `unchanged`). */
export function ratchetSchemaErrors(errs: FieldError[], now: unknown, old: unknown, schema: Schema): FieldError[] {
  return errs.filter((e) => e.field === '<nil>' || !unchanged(e.field, now, old, schema));
}
