/** Small helpers over plain JSON objects for the conversion modules. Pure; never mutate inputs. */
import type { ApiObject } from '../object.js';
import { cloneJson, isPlainObject } from '../schema/json-value.js';

export type Obj = Record<string, unknown>;

/** The value as an object, or an empty one. */
export const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});
/** The value as a list, or an empty one. */
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** Present and not null. */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** A deep copy of the object with a new `apiVersion`. */
export function retarget(o: ApiObject, apiVersion: string): ApiObject {
  return { ...cloneJson(o), apiVersion };
}

/** A copy of `o` with `key` renamed to `to`, keeping its position; unchanged when absent. */
export function renameKey(o: Obj, key: string, to: string): Obj {
  if (!Object.hasOwn(o, key)) return o;
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) out[k === key ? to : k] = v;
  return out;
}

/** A copy of `o` without the keys. */
export function omit(o: Obj, ...keys: string[]): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) if (!keys.includes(k)) out[k] = v;
  return out;
}

/** Sets `o[key] = value` when `o[key]` is unset (undefined or null); returns `o`. */
export function defaultField(o: Obj, key: string, value: unknown): Obj {
  if (!isSet(o[key])) o[key] = value;
  return o;
}

/** Applies `f` to `o.spec` (a deep copy, an empty object when absent) and stores the result. */
export function withSpec(o: ApiObject, f: (spec: Obj) => Obj): ApiObject {
  const out = cloneJson(o);
  out.spec = f(obj(out.spec));
  return out;
}
