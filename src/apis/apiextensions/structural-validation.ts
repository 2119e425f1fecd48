import { RE2JS } from 're2js';
import { type FieldError, fieldErrors, formatFieldError } from '../meta/field-error.js';
import { childPath, indexPath, keyPath } from '../schema/field-path.js';
import type { JSONSchemaProps } from './crd-types.js';

/**
 * kube's structural-schema rules (apiextensions `schema.NewStructural` and
 * `ValidateStructural`) over a CRD's `openAPIV3Schema`: the structural part of a schema (type,
 * properties, items, additionalProperties) is everything outside `allOf`/`anyOf`/`oneOf`/`not`,
 * which may only add value validations, and every field a value validation names must exist
 * structurally. Messages and paths are kube's; errors are sorted as kube sorts them.
 */

type Level = 'root' | 'item' | 'field';

function isSchema(v: unknown): v is JSONSchemaProps {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function entries(map: unknown): [string, JSONSchemaProps][] {
  if (!isSchema(map)) return [];
  return Object.entries(map as Record<string, unknown>)
    .filter((e): e is [string, JSONSchemaProps] => isSchema(e[1]))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function nonEmpty(v: unknown): boolean {
  return typeof v === 'string' ? v !== '' : false;
}

/**
 * The error kube's `NewStructural` gives for a schema it cannot represent, or undefined. kube
 * reports it only when nothing else is wrong with the schema.
 */
export function newStructuralError(s: JSONSchemaProps): string | undefined {
  const unsupported = unsupportedField(s);
  if (unsupported) return unsupported;
  for (const nested of [s.not, ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
    if (!isSchema(nested)) continue;
    const err = newStructuralError(nested);
    if (err) return err;
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  if (Array.isArray(s.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const children = [
    ...(isSchema(s.items) ? [s.items] : []),
    ...entries(s.properties).map(([, v]) => v),
    ...(isSchema(s.additionalProperties) ? [s.additionalProperties] : []),
  ];
  for (const child of children) {
    const err = newStructuralError(child);
    if (err) return err;
  }
  return undefined;
}

function unsupportedField(s: JSONSchemaProps): string | undefined {
  if (nonEmpty(s.id)) return "OpenAPIV3Schema 'id' is not supported";
  if (nonEmpty(s.$schema)) return "OpenAPIV3Schema 'schema' is not supported";
  if (nonEmpty(s.$ref)) return "OpenAPIV3Schema '$ref' is not supported";
  if (entries(s.patternProperties).length > 0) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (isSchema(s.dependencies) && Object.keys(s.dependencies).length > 0) {
    return "OpenAPIV3Schema 'dependencies' is not supported";
  }
  if (s.additionalItems !== undefined && s.additionalItems !== null) {
    return "OpenAPIV3Schema 'additionalItems' is not supported";
  }
  if (entries(s.definitions).length > 0) return "OpenAPIV3Schema 'definitions' is not supported";
  return undefined;
}

/** kube's `ValidateStructural` errors of a root schema at `path`, sorted as kube sorts them. */
export function validateStructural(s: JSONSchemaProps, path: string): FieldError[] {
  const errs = [...invariants(s, 'root', path), ...completeness(s, s, path, path)];
  const text = (e: FieldError) => formatFieldError(e);
  return errs.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}

const INT_OR_STRING_ALTERNATIVES = [{ type: 'integer' }, { type: 'string' }];

function isIntOrStringAnyOf(anyOf: unknown): boolean {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return false;
  return anyOf.every(
    (alt, i) =>
      isSchema(alt) &&
      Object.keys(alt).length === 1 &&
      (alt as { type?: unknown }).type === INT_OR_STRING_ALTERNATIVES[i].type,
  );
}

function invariants(s: JSONSchemaProps, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeof s.type === 'string' ? s.type : '';
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const props = entries(s.properties);
  if (type === 'array' && !isSchema(s.items))
    errs.push(fieldErrors.required(childPath(path, 'items'), 'must be specified'));
  if (isSchema(s.items)) errs.push(...invariants(s.items, 'item', childPath(path, 'items')));
  for (const [k, v] of props) errs.push(...invariants(v, 'field', keyPath(childPath(path, 'properties'), k)));
  if (s.additionalProperties !== undefined && s.additionalProperties !== null) {
    if (level === 'root') {
      errs.push(fieldErrors.forbidden(childPath(path, 'additionalProperties'), 'must not be used at the root'));
    }
    if (isSchema(s.additionalProperties)) {
      errs.push(...invariants(s.additionalProperties, 'field', childPath(path, 'additionalProperties')));
    }
  }
  if (intOrString && preserve) {
    errs.push(
      fieldErrors.invalid(
        childPath(path, 'x-kubernetes-preserve-unknown-fields'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  if (intOrString && embedded) {
    errs.push(
      fieldErrors.invalid(
        childPath(path, 'x-kubernetes-embedded-resource'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  const skipAnyOf = isIntOrStringAnyOf(s.anyOf);
  const skipFirstAllOfAnyOf = Array.isArray(s.allOf) && isSchema(s.allOf[0]) && isIntOrStringAnyOf(s.allOf[0].anyOf);
  errs.push(...valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, path));
  const checkMetadata = level === 'root' || embedded;
  if (embedded && type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    errs.push(
      type === ''
        ? fieldErrors.required(childPath(path, 'type'), detail)
        : fieldErrors.invalid(childPath(path, 'type'), type, detail),
    );
  } else if (type === '' && !intOrString && !preserve) {
    const detail = {
      root: 'must not be empty at the root',
      item: 'must not be empty for specified array items',
      field: 'must not be empty for specified object fields',
    }[level];
    errs.push(fieldErrors.required(childPath(path, 'type'), detail));
  }
  if (embedded && s.additionalProperties !== undefined && s.additionalProperties !== null) {
    errs.push(
      fieldErrors.forbidden(
        childPath(path, 'additionalProperties'),
        'must not be used if x-kubernetes-embedded-resource is set',
      ),
    );
  }
  if (level === 'root' && type !== '' && type !== 'object') {
    errs.push(fieldErrors.invalid(childPath(path, 'type'), type, 'must be object at the root'));
  }
  const byName = new Map(props);
  for (const name of ['kind', 'apiVersion']) {
    const prop = byName.get(name);
    if (prop && checkMetadata && prop.type !== 'string') {
      errs.push(
        fieldErrors.invalid(
          childPath(keyPath(childPath(path, 'properties'), name), 'type'),
          typeof prop.type === 'string' ? prop.type : '',
          'must be string',
        ),
      );
    }
  }
  const metadata = byName.get('metadata');
  if (metadata) {
    errs.push(
      ...metadataInvariants(metadata, checkMetadata, level, keyPath(childPath(path, 'properties'), 'metadata')),
    );
  }
  if (embedded && !preserve && props.length === 0) {
    errs.push(
      fieldErrors.required(
        childPath(path, 'properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  }
  return errs;
}

/** Keys of a root `metadata` schema that do not count against "only name and generateName". */
const METADATA_IGNORED = new Set(['type', 'default', 'properties']);

function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeof s.type === 'string' ? s.type : '';
  if (checkMetadata && type !== 'object')
    errs.push(fieldErrors.invalid(childPath(path, 'type'), type, 'must be object'));
  if (level === 'root') {
    const names = entries(s.properties).map(([k]) => k);
    const onlyNames =
      names.length > 0 &&
      names.length <= 2 &&
      names.every((n) => n === 'name' || n === 'generateName') &&
      new Set(names).size === names.length;
    const other = Object.entries(s).some(([k, v]) => !METADATA_IGNORED.has(k) && isSet(v));
    const extraProperties = names.length > 0 && !onlyNames;
    if (other || extraProperties) {
      errs.push(
        fieldErrors.forbidden(
          path,
          'must not specify anything other than name and generateName, but metadata is implicitly specified',
        ),
      );
    }
  }
  return errs;
}

/** Whether a JSONSchemaProps member holds a non-zero value (Go's zero values count as unset). */
function isSet(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/** Value validations of a node: the junctors' members, and the pattern. */
function valueValidation(
  s: JSONSchemaProps,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) {
    (s.anyOf ?? []).forEach((v, i) => {
      if (isSchema(v)) errs.push(...nested(v, false, indexPath(childPath(path, 'anyOf'), i)));
    });
  }
  (s.allOf ?? []).forEach((v, i) => {
    if (isSchema(v)) errs.push(...nested(v, skipFirstAllOfAnyOf && i === 0, indexPath(childPath(path, 'allOf'), i)));
  });
  (s.oneOf ?? []).forEach((v, i) => {
    if (isSchema(v)) errs.push(...nested(v, false, indexPath(childPath(path, 'oneOf'), i)));
  });
  if (isSchema(s.not)) errs.push(...nested(s.not, false, childPath(path, 'not')));
  if (typeof s.pattern === 'string' && s.pattern !== '') {
    const err = goRegexpError(s.pattern);
    if (err) {
      errs.push(
        fieldErrors.invalid(
          childPath(path, 'pattern'),
          s.pattern,
          `must be a valid regular expression, but isn't: ${err}`,
        ),
      );
    }
  }
  return errs;
}

/** Go's `regexp.Compile` error of a pattern, or undefined when it compiles. */
export function goRegexpError(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

function nested(v: JSONSchemaProps, skipAnyOf: boolean, path: string): FieldError[] {
  const errs = valueValidation(v, skipAnyOf, false, path);
  if (isSchema(v.items)) errs.push(...nested(v.items, false, childPath(path, 'items')));
  for (const [k, sub] of entries(v.properties))
    errs.push(...nested(sub, false, keyPath(childPath(path, 'properties'), k)));
  const forbid = (key: string, detail: string) => errs.push(fieldErrors.forbidden(childPath(path, key), detail));
  if (nonEmpty(v.type)) forbid('type', 'must be empty to be structural');
  if (isSchema(v.additionalProperties) || v.additionalProperties === true) {
    forbid('additionalProperties', 'must be undefined to be structural');
  }
  if (v.default !== undefined && v.default !== null) forbid('default', 'must be undefined to be structural');
  if (nonEmpty(v.title)) forbid('title', 'must be empty to be structural');
  if (nonEmpty(v.description)) forbid('description', 'must be empty to be structural');
  if (v.nullable === true) forbid('nullable', 'must be false to be structural');
  if (v['x-kubernetes-preserve-unknown-fields'] === true) {
    forbid('x-kubernetes-preserve-unknown-fields', 'must be false to be structural');
  }
  if (v['x-kubernetes-embedded-resource'] === true)
    forbid('x-kubernetes-embedded-resource', 'must be false to be structural');
  if (v['x-kubernetes-int-or-string'] === true) forbid('x-kubernetes-int-or-string', 'must be false to be structural');
  if (Array.isArray(v['x-kubernetes-list-map-keys']) && v['x-kubernetes-list-map-keys'].length > 0) {
    forbid('x-kubernetes-list-map-keys', 'must be empty to be structural');
  }
  if (typeof v['x-kubernetes-list-type'] === 'string')
    forbid('x-kubernetes-list-type', 'must be undefined to be structural');
  if (typeof v['x-kubernetes-map-type'] === 'string')
    forbid('x-kubernetes-map-type', 'must be undefined to be structural');
  if (Array.isArray(v['x-kubernetes-validations']) && v['x-kubernetes-validations'].length > 0) {
    forbid('x-kubernetes-validations', 'must be empty to be structural');
  }
  if (entries(v.properties).some(([k]) => k === 'metadata')) {
    errs.push(
      fieldErrors.forbidden(
        keyPath(childPath(path, 'properties'), 'metadata'),
        'must not be specified in a nested context',
      ),
    );
  }
  return errs;
}

/**
 * Every property, item and additional-properties schema a value validation names must exist in
 * the structural part (`s` at `sPath`); the validation sits at `vPath`.
 */
function completeness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const junctors: [string, JSONSchemaProps[]][] = [
    ['not', isSchema(v.not) ? [v.not] : []],
    ['allOf', (v.allOf ?? []).filter(isSchema)],
    ['anyOf', (v.anyOf ?? []).filter(isSchema)],
    ['oneOf', (v.oneOf ?? []).filter(isSchema)],
  ];
  for (const [key, list] of junctors) {
    list.forEach((member, i) => {
      const at = key === 'not' ? childPath(vPath, 'not') : indexPath(childPath(vPath, key), i);
      errs.push(...nestedCompleteness(member, s, sPath, at));
    });
  }
  return errs;
}

function nestedCompleteness(
  v: JSONSchemaProps,
  s: JSONSchemaProps | undefined,
  sPath: string,
  vPath: string,
): FieldError[] {
  if (s === undefined) return [fieldErrors.required(sPath, `because it is defined in ${vPath}`)];
  const errs = completeness(v, s, sPath, vPath);
  if (isSchema(v.items)) {
    errs.push(
      ...nestedCompleteness(
        v.items,
        isSchema(s.items) ? s.items : undefined,
        childPath(sPath, 'items'),
        childPath(vPath, 'items'),
      ),
    );
  }
  const structural = new Map(entries(s.properties));
  for (const [k, sub] of entries(v.properties)) {
    const sField = structural.get(k);
    const sp = keyPath(childPath(sPath, 'properties'), k);
    const vp = keyPath(childPath(vPath, 'properties'), k);
    if (!sField) errs.push(fieldErrors.required(sp, `because it is defined in ${vp}`));
    else errs.push(...nestedCompleteness(sub, sField, sp, vp));
  }
  return errs;
}
