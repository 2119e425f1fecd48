import type { Schema, SchemaValidationRule } from '../schema/schema.js';
import { isCustomResourceFormat } from '../schema/string-formats.js';
import type { JSONSchemaProps, ValidationRuleJson } from './crd-types.js';

/**
 * Orch's structural `Schema` of a CustomResourceDefinition's `openAPIV3Schema` (or any node of
 * it): the OpenAPI keywords as they are, `x-kubernetes-*` extensions as their `x-orch-*` forms
 * (`x-kubernetes-validations` becomes `x-orch-validations`), `allOf`/`anyOf`/`oneOf`/`not` kept
 * for value validation. Keywords a structural schema may not hold (`$ref`, `definitions`,
 * `patternProperties`, `dependencies`, `additionalItems`, an array of `items`) are dropped: CRD
 * validation refuses them before a schema is served. Pure; the input is not changed and the
 * result shares no objects with it.
 */
export function schemaFromJSONSchemaProps(props: JSONSchemaProps): Schema {
  const out: Schema = {};
  const p = props as Record<string, unknown>;
  const copyString = (key: 'type' | 'description' | 'format' | 'title' | 'pattern') => {
    if (typeof p[key] === 'string' && p[key] !== '') (out as Record<string, unknown>)[key] = p[key];
  };
  const copyNumber = (
    key:
      | 'maximum'
      | 'minimum'
      | 'maxLength'
      | 'minLength'
      | 'maxItems'
      | 'minItems'
      | 'multipleOf'
      | 'maxProperties'
      | 'minProperties',
  ) => {
    if (typeof p[key] === 'number') out[key] = p[key] as number;
  };
  copyString('type');
  copyString('description');
  copyString('format');
  copyString('title');
  if (props.default !== undefined && props.default !== null) out.default = structuredClone(props.default);
  copyNumber('maximum');
  if (props.exclusiveMaximum === true) out.exclusiveMaximum = true;
  copyNumber('minimum');
  if (props.exclusiveMinimum === true) out.exclusiveMinimum = true;
  copyNumber('maxLength');
  copyNumber('minLength');
  copyString('pattern');
  copyNumber('maxItems');
  copyNumber('minItems');
  if (props.uniqueItems === true) out.uniqueItems = true;
  copyNumber('multipleOf');
  if (Array.isArray(props.enum)) out.enum = structuredClone(props.enum);
  copyNumber('maxProperties');
  copyNumber('minProperties');
  if (Array.isArray(props.required)) out.required = props.required.filter((r) => typeof r === 'string');
  if (isSchema(props.items)) out.items = schemaFromJSONSchemaProps(props.items);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = props[key];
    if (Array.isArray(list)) out[key] = list.filter(isSchema).map(schemaFromJSONSchemaProps);
  }
  if (isSchema(props.not)) out.not = schemaFromJSONSchemaProps(props.not);
  if (isRecord(props.properties)) {
    out.properties = {};
    for (const [name, sub] of Object.entries(props.properties)) {
      if (isSchema(sub)) out.properties[name] = schemaFromJSONSchemaProps(sub);
    }
  }
  if (typeof props.additionalProperties === 'boolean') out.additionalProperties = props.additionalProperties;
  else if (isSchema(props.additionalProperties)) {
    out.additionalProperties = schemaFromJSONSchemaProps(props.additionalProperties);
  }
  if (props.externalDocs && typeof props.externalDocs === 'object') out.externalDocs = { ...props.externalDocs };
  if (props.example !== undefined) out.example = structuredClone(props.example);
  if (props.nullable === true) out.nullable = true;
  if (props['x-kubernetes-preserve-unknown-fields'] === true) out['x-orch-preserve-unknown-fields'] = true;
  if (props['x-kubernetes-embedded-resource'] === true) out['x-orch-embedded-resource'] = true;
  if (props['x-kubernetes-int-or-string'] === true) out['x-orch-int-or-string'] = true;
  const keys = props['x-kubernetes-list-map-keys'];
  if (Array.isArray(keys)) out['x-orch-list-map-keys'] = keys.filter((k) => typeof k === 'string');
  const listType = props['x-kubernetes-list-type'];
  if (listType === 'atomic' || listType === 'set' || listType === 'map') out['x-orch-list-type'] = listType;
  const mapType = props['x-kubernetes-map-type'];
  if (mapType === 'atomic' || mapType === 'granular') out['x-orch-map-type'] = mapType;
  const rules = props['x-kubernetes-validations'];
  if (Array.isArray(rules) && rules.length > 0) out['x-orch-validations'] = rules.filter(isRule).map(validationRule);
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isSchema(v: unknown): v is JSONSchemaProps {
  return isRecord(v);
}

function isRule(v: unknown): v is ValidationRuleJson {
  return isRecord(v) && typeof v.rule === 'string';
}

function validationRule(r: ValidationRuleJson): SchemaValidationRule {
  const out: SchemaValidationRule = { rule: r.rule };
  if (typeof r.message === 'string' && r.message !== '') out.message = r.message;
  if (typeof r.messageExpression === 'string' && r.messageExpression !== '')
    out.messageExpression = r.messageExpression;
  if (typeof r.reason === 'string') out.reason = r.reason;
  if (typeof r.fieldPath === 'string' && r.fieldPath !== '') out.fieldPath = r.fieldPath;
  if (typeof r.optionalOldSelf === 'boolean') out.optionalOldSelf = r.optionalOldSelf;
  return out;
}

/**
 * The schema custom resources are validated with: formats kube does not check in custom
 * resources (`int32`, `int64`, `float`, ...) are dropped, as apiextensions strips them before
 * building its validator; everything else is kept. Returns a new schema.
 */
export function stripUnsupportedFormats(schema: Schema): Schema {
  const out: Schema = { ...schema };
  if (out.format !== undefined && !isCustomResourceFormat(out.format)) delete out.format;
  if (out.items) out.items = stripUnsupportedFormats(out.items);
  if (out.properties) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([k, v]) => [k, stripUnsupportedFormats(v)]),
    );
  }
  if (typeof out.additionalProperties === 'object')
    out.additionalProperties = stripUnsupportedFormats(out.additionalProperties);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = out[key];
    if (list) out[key] = list.map(stripUnsupportedFormats);
  }
  if (out.not) out.not = stripUnsupportedFormats(out.not);
  return out;
}
