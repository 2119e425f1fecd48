import type { JsonValue } from '../../apis/object.js';
import { compareGoStrings } from '../../util/go-strings.js';
import { parseJson as parseJsonText } from '../../util/json-text.js';
import { goJsonString, goJsonValue, goValueString } from './go-text.js';

/**
 * One step of a field path, as structured-merge-diff defines it:
 * - `field`: a struct field or map key (`f:name`);
 * - `key`: the item of a list map (`listType: map`) with these key field values (`k:{"name":"x"}`);
 * - `value`: the item of a set (`listType: set`) with this scalar value (`v:"x"`);
 * - `index`: the item at a position (`i:0`); only validation messages use it, since atomic lists
 *   are leaves of every field set.
 *
 * `id` is the element's serialized `fieldsV1` key. It is canonical (key fields sorted, values
 * written as Go writes them), so two elements are equal exactly when their ids are.
 */
export type PathElement = FieldElement | KeyElement | ValueElement | IndexElement;

export interface FieldElement {
  readonly kind: 'field';
  readonly id: string;
  readonly name: string;
}

export interface KeyField {
  readonly name: string;
  readonly value: JsonValue;
}

export interface KeyElement {
  readonly kind: 'key';
  readonly id: string;
  /** Sorted by name (Go byte order). */
  readonly fields: readonly KeyField[];
}

export interface ValueElement {
  readonly kind: 'value';
  readonly id: string;
  readonly value: JsonValue;
}

export interface IndexElement {
  readonly kind: 'index';
  readonly id: string;
  readonly index: number;
}

/** A field path from the object's root. */
export type Path = readonly PathElement[];

/** A struct field or map key. */
export function fieldElement(name: string): FieldElement {
  return { kind: 'field', id: `f:${name}`, name };
}

/** A list-map item by its key fields (any order; they are sorted here). */
export function keyElement(fields: readonly KeyField[]): KeyElement {
  const sorted = fields.length < 2 ? fields : [...fields].sort(byName);
  let id = '';
  for (let i = 0; i < sorted.length; i++) id += keyIdPrefix(sorted[i].name, i) + goJsonValue(sorted[i].value);
  return { kind: 'key', id: closedKeyId(id), fields: sorted };
}

const byName = (a: KeyField, b: KeyField): number => compareGoStrings(a.name, b.name);

/** The text of a `k:` id before the value of its `i`th key field `name`. */
function keyIdPrefix(name: string, i: number): string {
  return `${i === 0 ? 'k:{' : ','}${goJsonString(name)}:`;
}

/** A `k:` id from the text of its fields. */
function closedKeyId(fieldsText: string): string {
  return fieldsText === '' ? 'k:{}' : `${fieldsText}}`;
}

/**
 * A list map's key field names as its items' `k:` ids hold them (sorted in Go's byte order), each
 * with the id text written before its value: prepared once per list type, so that the id of an
 * item is a concatenation.
 */
export interface KeyFieldOrder {
  readonly names: readonly string[];
  readonly prefixes: readonly string[];
  /** The elements made in this order, kept by their key values (see {@link KeptKeyElements}). */
  readonly kept: KeptKeyElements;
}

/** The order and id text of key fields `names` (any order; they are sorted here). */
export function keyFieldOrder(names: readonly string[]): KeyFieldOrder {
  const sorted = names.length < 2 ? names : [...names].sort(compareGoStrings);
  return { names: sorted, prefixes: sorted.map(keyIdPrefix), kept: new KeptKeyElements(sorted.length) };
}

/**
 * The element of an item whose key fields are `fields` in `order` (`fields[i].name` is
 * `order.names[i]`): `keyElement` without its sort. An element made before from the same key
 * values is given again: items of one list type mostly repeat their keys (`name: http`), and a
 * kept element costs no id to write and no allocation.
 */
export function orderedKeyElement(order: KeyFieldOrder, fields: readonly KeyField[]): KeyElement {
  const kept = order.kept.get(fields);
  if (kept !== undefined) return kept;
  let id = '';
  for (let i = 0; i < fields.length; i++) id += order.prefixes[i] + goJsonValue(fields[i].value);
  const made: KeyElement = { kind: 'key', id: closedKeyId(id), fields };
  order.kept.add(fields, made);
  return made;
}

/** How many elements a {@link KeptKeyElements} keeps before it starts afresh. */
const MAX_KEPT_KEY_ELEMENTS = 1024;

/**
 * The `k:` elements of one list type, made once per combination of key values and shared (they
 * are never changed): a tree of Maps, one level per key field, by value. Only scalar values that
 * a Map tells apart as Go's JSON does are kept (not `-0`, which a Map takes for `0`). Bounded:
 * past {@link MAX_KEPT_KEY_ELEMENTS} it starts afresh.
 */
export class KeptKeyElements {
  private root = new Map<unknown, unknown>();
  private size = 0;

  constructor(private readonly depth: number) {}

  /** The kept element of `fields` (one per key field, in order), or undefined. */
  get(fields: readonly KeyField[]): KeyElement | undefined {
    if (fields.length !== this.depth || this.depth === 0) return undefined;
    let at: unknown = this.root;
    for (let i = 0; i < fields.length; i++) {
      const value = fields[i]!.value;
      if (!(at instanceof Map) || !isKeptValue(value)) return undefined;
      at = at.get(value);
    }
    return at as KeyElement | undefined;
  }

  /**
   * The kept element of an item whose key fields `names` (in order) hold its values, or their
   * defaults when it omits them; undefined when there is none (nothing is made to find out).
   */
  of(item: Readonly<Record<string, unknown>>, names: readonly string[], defaults: ReadonlyMap<string, unknown>) {
    if (names.length !== this.depth || this.depth === 0) return undefined;
    let at: unknown = this.root;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const own = item[name];
      const value = own !== undefined ? own : defaults.get(name);
      if (!(at instanceof Map) || !isKeptValue(value as JsonValue)) return undefined;
      at = at.get(value);
    }
    return at as KeyElement | undefined;
  }

  add(fields: readonly KeyField[], element: KeyElement): void {
    if (fields.length !== this.depth || this.depth === 0 || !fields.every((f) => isKeptValue(f.value))) return;
    if (this.size >= MAX_KEPT_KEY_ELEMENTS) {
      this.root = new Map();
      this.size = 0;
    }
    let at = this.root;
    for (let i = 0; i < fields.length - 1; i++) {
      const value = fields[i]!.value;
      let next = at.get(value) as Map<unknown, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        at.set(value, next);
      }
      at = next;
    }
    at.set(fields[fields.length - 1]!.value, element);
    this.size++;
  }
}

function isKeptValue(value: JsonValue): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Object.is(value, -0);
    default:
      return false;
  }
}

/** A set item by its value. */
export function valueElement(value: JsonValue): ValueElement {
  return { kind: 'value', id: `v:${goJsonValue(value)}`, value };
}

/** A list item by position. */
export function indexElement(index: number): IndexElement {
  return { kind: 'index', id: `i:${index}`, index };
}

const KIND_ORDER = { field: 0, key: 1, value: 2, index: 3 } as const;

/**
 * structured-merge-diff's order of path elements, which is the order of keys in `fieldsV1`:
 * field names before keys before values before indexes; names in byte order; keys field by field
 * (name, then value); values by `compareValues`; indexes numerically.
 */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  switch (a.kind) {
    case 'field':
      return compareGoStrings(a.name, (b as FieldElement).name);
    case 'key':
      return compareKeyFields(a.fields, (b as KeyElement).fields);
    case 'value':
      return compareValues(a.value, (b as ValueElement).value);
    case 'index':
      return Math.sign(a.index - (b as IndexElement).index);
  }
}

function compareKeyFields(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length) return i >= b.length ? 0 : -1;
    if (i >= b.length) return 1;
    const byName = compareGoStrings(a[i].name, b[i].name);
    if (byName !== 0) return byName;
    const byValue = compareValues(a[i].value, b[i].value);
    if (byValue !== 0) return byValue;
  }
}

function rank(v: unknown): number {
  if (typeof v === 'number' || typeof v === 'bigint') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null && typeof v === 'object') return 4;
  return 5;
}

/**
 * structured-merge-diff's total order of values: numbers (ints and floats compared numerically)
 * < strings < booleans (false first) < lists < maps < null. Lists and maps compare item by item;
 * maps by their sorted keys, then values.
 */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0:
      return (a as number | bigint) < (b as number | bigint)
        ? -1
        : (a as number | bigint) > (b as number | bigint)
          ? 1
          : 0;
    case 1:
      return compareGoStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; ; i++) {
        if (i >= la.length) return i >= lb.length ? 0 : -1;
        if (i >= lb.length) return 1;
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
    }
    case 4: {
      const ma = a as Record<string, unknown>;
      const mb = b as Record<string, unknown>;
      const ka = Object.keys(ma).sort(compareGoStrings);
      const kb = Object.keys(mb).sort(compareGoStrings);
      for (let i = 0; ; i++) {
        if (i >= ka.length) return i >= kb.length ? 0 : -1;
        if (i >= kb.length) return 1;
        const byKey = compareGoStrings(ka[i], kb[i]);
        if (byKey !== 0) return byKey;
        const byValue = compareValues(ma[ka[i]], mb[kb[i]]);
        if (byValue !== 0) return byValue;
      }
    }
    default:
      return 0;
  }
}

/**
 * The element as conflict messages print it: `.name`, `[name="x",port=80]`, `[="x"]`, `[0]`.
 */
export function pathElementString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map((f) => `${f.name}=${goValueString(f.value)}`).join(',')}]`;
    case 'value':
      return `[=${goValueString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

/** A path as kube prints it, e.g. `.metadata.ownerReferences[uid="u1"]`. */
export function pathString(path: Path): string {
  let out = '';
  for (const pe of path) out += pathElementString(pe);
  return out;
}

/** A `fieldsV1` key that is not a path element (a newer format); readers skip these. */
export class UnknownPathElementTypeError extends Error {
  constructor() {
    super('unknown path element type');
    this.name = 'UnknownPathElementTypeError';
  }
}

/** A `fieldsV1` key that cannot be read as a path element. */
export class PathElementSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PathElementSyntaxError';
  }
}

const INTEGER = /^[+-]?\d+$/;

/**
 * Reads a serialized path element (`f:…`, `k:{…}`, `v:…`, `i:…`). Throws
 * `UnknownPathElementTypeError` for other prefixes, `PathElementSyntaxError` for malformed text.
 */
export function parsePathElement(s: string): PathElement {
  if (s.length < 2) throw new PathElementSyntaxError('key must be 2 characters long:');
  if (s[1] !== ':') throw new PathElementSyntaxError(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return fieldElement(body);
    case 'v':
      return valueElement(parseJson(body));
    case 'k': {
      const parsed = parseJson(body);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new PathElementSyntaxError(`ReadObjectCB: expect { or n, but found ${body.slice(0, 1)}`);
      }
      return keyElement(Object.entries(parsed).map(([name, value]) => ({ name, value })));
    }
    case 'i':
      if (!INTEGER.test(body) || !Number.isSafeInteger(Number(body))) {
        throw new PathElementSyntaxError(`strconv.Atoi: parsing ${goJsonString(body)}: invalid syntax`);
      }
      return indexElement(Number(body));
    default:
      throw new UnknownPathElementTypeError();
  }
}

function parseJson(text: string): JsonValue {
  try {
    return parseJsonText(text) as JsonValue;
  } catch (e) {
    throw new PathElementSyntaxError((e as Error).message);
  }
}
