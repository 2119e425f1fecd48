import type { JsonObject } from '../../apis/object.js';
import { FieldSet, type SetEntry } from './field-set.js';
import { goJsonString } from './go-text.js';
import {
  type PathElement,
  PathElementSyntaxError,
  parsePathElement,
  UnknownPathElementTypeError,
} from './path-element.js';

/**
 * The `FieldsV1` format of `metadata.managedFields[].fieldsV1`: a nested object keyed by
 * serialized path elements, `{}` for a member, and a `"."` key when an element is a member and
 * also has members below it. Keys appear in path-element order (fields, then keys, then values,
 * then indexes), exactly as kube-apiserver writes them.
 */

/** A `fieldsV1` object that cannot be read. */
export class FieldsV1Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldsV1Error';
  }
}

/**
 * Parsed `fieldsV1` keys, kept by their owner (a field manager) so that decoding the same
 * managedFields on every write does not re-parse every key. Bounded: emptied when full.
 */
export class PathElementCache {
  private readonly map = new Map<string, PathElement>();

  constructor(private readonly limit = 20_000) {}

  /** `parsePathElement`, remembered. */
  parse(key: string): PathElement {
    let pe = this.map.get(key);
    if (!pe) {
      pe = parsePathElement(key);
      if (this.map.size >= this.limit) this.map.clear();
      this.map.set(key, pe);
    }
    return pe;
  }
}

/** The set as a `fieldsV1` object, keys inserted in kube's order. */
export function toFieldsV1(set: FieldSet): JsonObject {
  const out: JsonObject = {};
  for (const e of set.entries()) out[e.pe.id] = entryObject(e);
  return out;
}

function entryObject(e: SetEntry): JsonObject {
  if (!e.children) return {};
  const out: JsonObject = e.member ? { '.': {} } : {};
  for (const c of e.children.entries()) out[c.pe.id] = entryObject(c);
  return out;
}

/**
 * The exact JSON text kube-apiserver writes for the set (no whitespace, Go's HTML-safe string
 * escaping of keys), e.g. `{"f:data":{".":{},"f:a":{}}}`.
 */
export function fieldsV1Text(set: FieldSet): string {
  let out = '{';
  let first = true;
  for (const e of set.entries()) {
    out += `${first ? '' : ','}${goJsonString(e.pe.id)}:${entryText(e)}`;
    first = false;
  }
  return `${out}}`;
}

function entryText(e: SetEntry): string {
  if (!e.children) return '{}';
  let out = e.member ? '{".":{}' : '{';
  let first = !e.member;
  for (const c of e.children.entries()) {
    out += `${first ? '' : ','}${goJsonString(c.pe.id)}:${entryText(c)}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * Reads a `fieldsV1` object. Keys with an unknown type prefix are dropped (a newer format), as
 * kube does; an element whose object holds nothing it understands is a member. Throws
 * `FieldsV1Error` for malformed keys or non-object values.
 */
export function fromFieldsV1(value: unknown, cache?: PathElementCache): FieldSet {
  if (value === undefined || value === null) return FieldSet.EMPTY;
  const parse = cache ? (key: string) => cache.parse(key) : parsePathElement;
  return readLevel(value, '', parse).children ?? FieldSet.EMPTY;
}

function readLevel(
  value: unknown,
  where: string,
  parse: (key: string) => PathElement,
): { children: FieldSet | undefined; member: boolean } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FieldsV1Error(`expected an object${where ? ` at ${where}` : ''}`);
  }
  let member = false;
  const entries: SetEntry[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (key === '.') {
      member = true;
      continue;
    }
    let pe: PathElement;
    try {
      pe = parse(key);
    } catch (e) {
      if (e instanceof UnknownPathElementTypeError) continue;
      if (e instanceof PathElementSyntaxError) {
        throw new FieldsV1Error(`parsing key as path element: ${e.message}`);
      }
      throw e;
    }
    const read = readLevel(child, key, parse);
    entries.push({ pe, member: read.member, children: read.children });
  }
  const children = entries.length === 0 ? undefined : FieldSet.fromEntries(entries);
  return { children: children?.empty ? undefined : children, member: member || !children || children.empty };
}
