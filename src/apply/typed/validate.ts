import { goQuote } from '../../util/go-strconv.js';
import { compareGoStrings } from '../../util/go-strings.js';
import { type PathElement, pathElementString } from '../fieldpath/path-element.js';
import { isObject, ListItemError, listItemElement } from './list-items.js';
import { fieldType, type ListType, type MapType, resolveType, type ScalarType, type TypeNode } from './type-node.js';

/**
 * Checks that a value fits its type as structured-merge-diff does before any merge: declared
 * fields only (unless the map has an element type), scalar kinds, identifiable items in
 * associative lists, and (unless allowed) no two items with the same key. Messages are kube's.
 */
export interface TypedValidationOptions {
  /** Live objects may hold duplicate list items (kube's `AllowDuplicates`). */
  readonly allowDuplicates?: boolean;
}

/** Every problem found, `path: message` each (an empty list when the value fits). */
export function validateTyped(value: unknown, t: TypeNode, opts: TypedValidationOptions = {}): string[] {
  const errs: string[] = [];
  walk(value, t, undefined, opts.allowDuplicates === true, errs);
  return errs;
}

/** kube's `ValidationErrors.Error()`: one error as is, several under `errors:`. */
export function formatValidationErrors(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0] : ['errors:', ...errs.map((e) => `  ${e}`)].join('\n');
}

/** Where the walk is, kept as a chain and printed only when there is an error to report. */
interface Where {
  readonly parent: Where | undefined;
  readonly step: PathElement | string;
}

function text(where: Where | undefined): string {
  if (!where) return '';
  const step = typeof where.step === 'string' ? where.step : pathElementString(where.step);
  return text(where.parent) + step;
}

function at(where: Where | undefined, message: string): string {
  const path = text(where);
  return path ? `${path}: ${message}` : message;
}

function walk(value: unknown, t: TypeNode, path: Where | undefined, allowDuplicates: boolean, errs: string[]): void {
  const rt = resolveType(t, value);
  if (rt.kind === 'scalar') {
    const msg = scalarProblem(rt, value);
    if (msg) errs.push(at(path, msg));
  } else if (rt.kind === 'map') {
    walkMap(value, rt, path, allowDuplicates, errs);
  } else {
    walkList(value, rt, path, allowDuplicates, errs);
  }
}

function walkMap(value: unknown, t: MapType, path: Where | undefined, allowDuplicates: boolean, errs: string[]): void {
  if (value === null) return;
  if (!isObject(value)) {
    errs.push(at(path, `expected map, got ${goPointerV(value)}`));
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const ft = fieldType(t, key);
    if (!ft) {
      // kube stops reading a map at its first undeclared field.
      errs.push(`${text(path)}.${key}: field not declared in schema`);
      return;
    }
    walk(v, ft, { parent: path, step: `.${key}` }, allowDuplicates, errs);
  }
}

function walkList(
  value: unknown,
  t: ListType,
  path: Where | undefined,
  allowDuplicates: boolean,
  errs: string[],
): void {
  if (value === null) return;
  if (!Array.isArray(value)) {
    errs.push(at(path, `expected list, got ${goPointerV(value)}`));
    return;
  }
  const seen = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    let step: PathElement | string = `[${i}]`;
    if (!t.atomic) {
      let pe: ReturnType<typeof listItemElement>;
      try {
        pe = listItemElement(t, value[i]);
      } catch (e) {
        if (!(e instanceof ListItemError)) throw e;
        // kube gives up on the whole list when an item has no identity.
        errs.push(at(path, `element ${i}: ${e.message}`));
        return;
      }
      step = pe;
      if (seen.has(pe.id) && !allowDuplicates)
        errs.push(at(path, `duplicate entries for key ${pathElementString(pe)}`));
      seen.add(pe.id);
    }
    walk(value[i], t.element, { parent: path, step }, allowDuplicates, errs);
  }
}

function scalarProblem(t: ScalarType, v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  switch (t.scalar) {
    case 'numeric':
      return typeof v === 'number' || typeof v === 'bigint'
        ? undefined
        : `expected numeric (int or float), got ${goTypeName(v)}`;
    case 'string':
      return typeof v === 'string' ? undefined : `expected string, got &value.valueUnstructured{Value:${goSharpV(v)}}`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `expected boolean, got ${goPointerV(v)}`;
    case 'untyped':
      return typeof v === 'object' ? `expected any scalar, got ${goPointerV(v)}` : undefined;
  }
}

/** Go's `%T` of a decoded YAML/JSON value. */
function goTypeName(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (isObject(v)) return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'bigint') return 'int64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

/** Go's `%v` of a pointer to kube's unstructured value wrapper: `&{…}`. */
function goPointerV(v: unknown): string {
  return `&{${goV(v)}}`;
}

function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort(compareGoStrings);
    return `map[${keys.map((k) => `${k}:${goV(v[k])}`).join(' ')}]`;
  }
  return String(v);
}

function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort(compareGoStrings);
    return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharpV(v[k])}`).join(', ')}}`;
  }
  return String(v);
}
