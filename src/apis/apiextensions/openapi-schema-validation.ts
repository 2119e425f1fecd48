import { type FieldError, fieldErrors, invalidShown, notSupportedShown } from '../meta/field-error.js';
import { childPath, indexPath, keyPath } from '../schema/field-path.js';
import type { JSONSchemaProps } from './crd-types.js';
import { validFieldPath } from './field-path-resolution.js';
import { goSharpJson } from './go-sharp-v.js';

/**
 * kube's `ValidateCustomResourceDefinitionOpenAPISchema`: the OpenAPI v3 rules of every node of
 * a CRD schema (types, unsupported keywords, defaults where they may not be, the `x-kubernetes-*`
 * extensions and list/map markers, the static checks of validation rules). Structural rules are
 * in `structural-validation.ts`. Messages and paths are kube's; map keys are visited sorted.
 */

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const VALIDATION_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

/** What a node is validated under (kube's `specStandardValidatorV3`). */
export interface SchemaContext {
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason?: string;
  readonly insideResourceMeta: boolean;
  readonly requireValidPropertyType: boolean;
}

export interface OpenApiSchemaOptions {
  /** Items of `set` lists must be atomic. */
  readonly requireAtomicSetType: boolean;
  /** Keys of `map` lists required or defaulted and not nullable; items of set/map lists not nullable. */
  readonly requireMapListKeysMapSetValidation: boolean;
}

function isSchema(v: unknown): v is JSONSchemaProps {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sorted(map: unknown): [string, JSONSchemaProps][] {
  if (!isSchema(map)) return [];
  return Object.entries(map as Record<string, unknown>)
    .filter((e): e is [string, JSONSchemaProps] => isSchema(e[1]))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const goStrings = (v: readonly string[]) => `[]string{${v.map((s) => JSON.stringify(s)).join(', ')}}`;

/** The errors of `schema` at `path` and below. */
export function validateOpenApiSchema(
  schema: JSONSchemaProps | undefined,
  path: string,
  ctx: SchemaContext,
  isRoot: boolean,
  opts: OpenApiSchemaOptions,
): FieldError[] {
  if (!isSchema(schema)) return [];
  const errs: FieldError[] = [...standardErrors(schema, path, ctx)];
  const child = (name: string) => childPath(path, name);
  if (schema.uniqueItems === true) {
    errs.push(
      fieldErrors.forbidden(
        child('uniqueItems'),
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  }
  const properties = sorted(schema.properties);
  const additional = schema.additionalProperties;
  if (additional !== undefined && additional !== null) {
    if (properties.length > 0 && (additional === false || isSchema(additional))) {
      errs.push(
        fieldErrors.forbidden(
          child('additionalProperties'),
          'additionalProperties and properties are mutual exclusive',
        ),
      );
    }
    const sub: SchemaContext = ctx.insideResourceMeta
      ? {
          ...ctx,
          allowDefaults: false,
          disallowDefaultsReason: 'inside additionalProperties applying to object metadata',
        }
      : ctx;
    if (isSchema(additional))
      errs.push(...validateOpenApiSchema(additional, child('additionalProperties'), sub, false, opts));
  }
  for (const [name, prop] of properties) {
    let sub = ctx;
    if ((isRoot || schema['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${name}` };
    }
    errs.push(...validateOpenApiSchema(prop, keyPath(child('properties'), name), sub, false, opts));
  }
  errs.push(...validateOpenApiSchema(schema.not, child('not'), ctx, false, opts));
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    (schema[key] ?? []).forEach((member, i) => {
      errs.push(...validateOpenApiSchema(member, indexPath(child(key), i), ctx, false, opts));
    });
  }
  for (const [name, def] of sorted(schema.definitions)) {
    errs.push(...validateOpenApiSchema(def, keyPath(child('definitions'), name), ctx, false, opts));
  }
  if (isSchema(schema.items)) errs.push(...validateOpenApiSchema(schema.items, child('items'), ctx, false, opts));
  else if (Array.isArray(schema.items)) {
    schema.items.forEach((item, i) => {
      errs.push(...validateOpenApiSchema(item, indexPath(child('items'), i), ctx, false, opts));
    });
  }
  for (const [name, dep] of sorted(schema.dependencies)) {
    errs.push(...validateOpenApiSchema(dep, keyPath(child('dependencies'), name), ctx, false, opts));
  }
  errs.push(...extensionErrors(schema, path, opts));
  errs.push(...ruleErrors(schema, path));
  return errs;
}

/** kube's `specStandardValidatorV3.validate` for one node. */
function standardErrors(schema: JSONSchemaProps, path: string, ctx: SchemaContext): FieldError[] {
  const errs: FieldError[] = [];
  const child = (name: string) => childPath(path, name);
  const type = str(schema.type);
  if (ctx.requireValidPropertyType && type !== '' && !OPENAPI_V3_TYPES.includes(type)) {
    errs.push(fieldErrors.notSupported(child('type'), type, OPENAPI_V3_TYPES));
  }
  if (schema.default !== undefined && schema.default !== null && !ctx.allowDefaults) {
    const reason = ctx.disallowDefaultsReason ? ` ${ctx.disallowDefaultsReason}` : '';
    errs.push(fieldErrors.forbidden(child('default'), `must not be set${reason}`));
  }
  if (str(schema.id) !== '') errs.push(fieldErrors.forbidden(child('id'), 'id is not supported'));
  if (schema.additionalItems !== undefined && schema.additionalItems !== null) {
    errs.push(fieldErrors.forbidden(child('additionalItems'), 'additionalItems is not supported'));
  }
  if (sorted(schema.patternProperties).length > 0) {
    errs.push(fieldErrors.forbidden(child('patternProperties'), 'patternProperties is not supported'));
  }
  if (sorted(schema.definitions).length > 0) {
    errs.push(fieldErrors.forbidden(child('definitions'), 'definitions is not supported'));
  }
  if (schema.dependencies !== undefined && schema.dependencies !== null) {
    errs.push(fieldErrors.forbidden(child('dependencies'), 'dependencies is not supported'));
  }
  if (schema.$ref !== undefined && schema.$ref !== null)
    errs.push(fieldErrors.forbidden(child('$ref'), '$ref is not supported'));
  if (type === 'null') {
    errs.push(fieldErrors.forbidden(child('type'), 'type cannot be set to null, use nullable as an alternative'));
  }
  if (Array.isArray(schema.items) && schema.items.length > 0) {
    errs.push(fieldErrors.forbidden(child('items'), 'items must be a schema object and not an array'));
  }
  if (ctx.insideResourceMeta && schema['x-kubernetes-embedded-resource'] === true) {
    errs.push(
      fieldErrors.forbidden(child('x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'),
    );
  }
  return errs;
}

function extensionErrors(schema: JSONSchemaProps, path: string, opts: OpenApiSchemaOptions): FieldError[] {
  const errs: FieldError[] = [];
  const child = (name: string) => childPath(path, name);
  const type = str(schema.type);
  const preserve = schema['x-kubernetes-preserve-unknown-fields'];
  const mapType = schema['x-kubernetes-map-type'];
  const listType = schema['x-kubernetes-list-type'];
  const mapKeys = Array.isArray(schema['x-kubernetes-list-map-keys']) ? schema['x-kubernetes-list-map-keys'] : [];
  const items = isSchema(schema.items) ? schema.items : undefined;
  if (preserve === false) {
    errs.push(fieldErrors.invalid(child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  if (mapType !== undefined && mapType !== null && type !== 'object') {
    const detail = 'must be object if x-kubernetes-map-type is specified';
    errs.push(
      type === '' ? fieldErrors.required(child('type'), detail) : fieldErrors.invalid(child('type'), type, detail),
    );
  }
  if (typeof mapType === 'string' && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(fieldErrors.notSupported(child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  if (listType !== undefined && listType !== null && type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified';
    errs.push(
      type === '' ? fieldErrors.required(child('type'), detail) : fieldErrors.invalid(child('type'), type, detail),
    );
  } else if (opts.requireAtomicSetType && listType === 'set' && items) {
    const detail = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    if (items.type === 'array') {
      const inner = items['x-kubernetes-list-type'];
      if (typeof inner === 'string' && inner !== 'atomic') {
        errs.push(fieldErrors.invalid(childPath(child('items'), 'x-kubernetes-list-type'), inner, detail));
      }
    } else if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      // kube prints the items' list type here (a nil pointer for an object).
      const shown =
        typeof items['x-kubernetes-list-type'] === 'string' ? JSON.stringify(items['x-kubernetes-list-type']) : 'null';
      errs.push(invalidShown(childPath(child('items'), 'x-kubernetes-map-type'), shown, detail));
    }
  }
  if (typeof listType === 'string' && !['atomic', 'set', 'map'].includes(listType)) {
    errs.push(fieldErrors.notSupported(child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  if (mapKeys.length > 0) {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined || listType === null)
      errs.push(fieldErrors.required(child('x-kubernetes-list-type'), detail));
    else if (listType !== 'map') errs.push(fieldErrors.invalid(child('x-kubernetes-list-type'), listType, detail));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0) {
      errs.push(
        fieldErrors.required(child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'),
      );
    }
    if (schema.items === undefined || schema.items === null) {
      errs.push(fieldErrors.required(child('items'), 'must have a schema if x-kubernetes-list-type is map'));
    } else if (!items) {
      errs.push(
        invalidShown(
          child('items'),
          goSharpJson(schema.items),
          'must only have a single schema if x-kubernetes-list-type is map',
        ),
      );
    } else if (items.type !== 'object') {
      errs.push(
        fieldErrors.invalid(
          childPath(child('items'), 'type'),
          str(items.type),
          "must be object if parent array's x-kubernetes-list-type is map",
        ),
      );
    } else {
      const seen = new Set<string>();
      const itemProps = new Map(sorted(items.properties));
      for (const key of mapKeys) {
        const prop = itemProps.get(key);
        if (prop) {
          if (prop.type === 'array' || prop.type === 'object') {
            errs.push(
              fieldErrors.invalid(
                childPath(keyPath(childPath(child('items'), 'properties'), key), 'type'),
                str(items.type),
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
              ),
            );
          }
        } else {
          errs.push(
            invalidShown(
              child('x-kubernetes-list-map-keys'),
              goStrings(mapKeys),
              'entries must all be names of item properties',
            ),
          );
        }
        if (seen.has(key)) {
          errs.push(
            invalidShown(child('x-kubernetes-list-map-keys'), goStrings(mapKeys), 'must not contain duplicate entries'),
          );
        }
        seen.add(key);
      }
    }
  }
  if (opts.requireMapListKeysMapSetValidation) errs.push(...mapListKeysMapSetErrors(schema, path));
  return errs;
}

/** kube's `validateMapListKeysMapSet`. */
export function mapListKeysMapSetErrors(schema: JSONSchemaProps, path: string): FieldError[] {
  const items = isSchema(schema.items) ? schema.items : undefined;
  const listType = schema['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  const itemsPath = childPath(path, 'items');
  if (items.nullable === true) {
    errs.push(
      fieldErrors.forbidden(
        childPath(itemsPath, 'nullable'),
        `cannot be nullable when x-kubernetes-list-type is ${listType}`,
      ),
    );
  }
  if (listType === 'map') {
    const required = new Set(Array.isArray(items.required) ? items.required : []);
    const props = new Map(sorted(items.properties));
    for (const key of schema['x-kubernetes-list-map-keys'] ?? []) {
      const prop = props.get(key);
      if (!prop) continue;
      const keyAt = keyPath(childPath(itemsPath, 'properties'), key);
      if (!required.has(key) && (prop.default === undefined || prop.default === null)) {
        errs.push(
          fieldErrors.required(
            childPath(keyAt, 'default'),
            'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
          ),
        );
      }
      if (prop.nullable === true) {
        errs.push(
          fieldErrors.forbidden(
            childPath(keyAt, 'nullable'),
            'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
          ),
        );
      }
    }
  }
  return errs;
}

/** The checks of `x-kubernetes-validations` that need no CEL (kube checks the rules themselves later). */
function ruleErrors(schema: JSONSchemaProps, path: string): FieldError[] {
  const rules = schema['x-kubernetes-validations'];
  if (!Array.isArray(rules)) return [];
  const errs: FieldError[] = [];
  const newline = /[\n\r]+/;
  rules.forEach((rule, i) => {
    const at = (name: string) => childPath(indexPath(childPath(path, 'x-kubernetes-validations'), i), name);
    const r: Record<string, unknown> = isSchema(rule) ? { ...rule } : {};
    const text = str(r.rule);
    const message = str(r.message);
    const messageExpression = str(r.messageExpression);
    const fieldPath = str(r.fieldPath);
    if (text.trim() === '') errs.push(fieldErrors.required(at('rule'), 'rule is not specified'));
    else if (message !== '' && message.trim() === '') {
      errs.push(fieldErrors.invalid(at('message'), message, 'message must be non-empty if specified'));
    } else if (newline.test(message.trim())) {
      errs.push(fieldErrors.invalid(at('message'), message, 'message must not contain line breaks'));
    } else if (newline.test(text.trim()) && message.trim() === '') {
      errs.push(fieldErrors.required(at('message'), 'message must be specified if rule contains line breaks'));
    }
    if (messageExpression !== '' && messageExpression.trim() === '') {
      errs.push(fieldErrors.required(at('messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (r.reason !== undefined && r.reason !== null && !VALIDATION_REASONS.includes(str(r.reason))) {
      errs.push(notSupportedShown(at('reason'), JSON.stringify(str(r.reason)), VALIDATION_REASONS));
    }
    if (fieldPath !== '' && fieldPath.trim() === '') {
      errs.push(fieldErrors.invalid(at('fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'));
    }
    if (newline.test(fieldPath)) {
      errs.push(fieldErrors.invalid(at('fieldPath'), fieldPath, 'fieldPath must not contain line breaks'));
    }
    if (fieldPath !== '' && !fieldPathValid(schema, fieldPath)) {
      errs.push(fieldErrors.invalid(at('fieldPath'), fieldPath, 'fieldPath must be a valid path'));
    }
  });
  return errs;
}

/** Whether a rule's `fieldPath` names a field of the node's schema (kube's `cel.ValidFieldPath`). */
function fieldPathValid(schema: JSONSchemaProps, fieldPath: string): boolean {
  return 'schema' in validFieldPath(schema, fieldPath, true);
}
