import { goFormatFloatG, goQuote } from '../../util/go-strconv.js';
import type { InternalCrdVersion } from './crd-internal.js';
import type { JSONSchemaProps } from './crd-types.js';

/**
 * Go's `%#v` of the few values kube prints whole in CustomResourceDefinition validation errors
 * (a list of versions, a root schema, a default value). Pointers to structs print as an address
 * in Go; Orch prints a fixed one, since the address means nothing to a client.
 */
const ADDRESS = '0xc000000000';
const PKG = 'apiextensions';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `%#v` of a decoded JSON value held in an `interface{}` (Go's unstructured form). */
export function goSharpJson(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : goFormatFloatG(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpJson).join(', ')}}`;
  const keys = Object.keys(v as object).sort();
  const obj = v as Record<string, unknown>;
  return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharpJson(obj[k])}`).join(', ')}}`;
}

const ptr = (type: string, present: boolean) => `(*${type})(${present ? ADDRESS : 'nil'})`;
const strPtr = (v: unknown) => (typeof v === 'string' ? ptr('string', true) : '(*string)(nil)');
const num = (v: unknown, type: string) => (typeof v === 'number' ? ptr(type, true) : `(*${type})(nil)`);
const strings = (v: unknown) =>
  Array.isArray(v) ? `[]string{${v.map((s) => goQuote(String(s))).join(', ')}}` : '[]string(nil)';

/** `%#v` of an internal `JSONSchemaProps` (the root schema kube prints for a status sub-resource error). */
export function goSharpSchema(s: JSONSchemaProps): string {
  const slice = (v: unknown, type: string) =>
    Array.isArray(v)
      ? `[]${type}{${v.map((x) => (type === `${PKG}.JSON` ? goSharpJson(x) : goSharpSchema(x as JSONSchemaProps))).join(', ')}}`
      : `[]${type}(nil)`;
  const map = (v: unknown) =>
    isObject(v)
      ? `map[string]${PKG}.JSONSchemaProps{${Object.keys(v)
          .sort()
          .map((k) => `${goQuote(k)}:${goSharpSchema(v[k] as JSONSchemaProps)}`)
          .join(', ')}}`
      : `map[string]${PKG}.JSONSchemaProps(nil)`;
  const fields: [string, string][] = [
    ['ID', goQuote(String(s.id ?? ''))],
    ['Schema', goQuote(String(s.$schema ?? ''))],
    ['Ref', strPtr(s.$ref)],
    ['Description', goQuote(String(s.description ?? ''))],
    ['Type', goQuote(String(s.type ?? ''))],
    ['Nullable', String(s.nullable === true)],
    ['Format', goQuote(String(s.format ?? ''))],
    ['Title', goQuote(String(s.title ?? ''))],
    ['Default', ptr(`${PKG}.JSON`, s.default !== undefined)],
    ['Maximum', num(s.maximum, 'float64')],
    ['ExclusiveMaximum', String(s.exclusiveMaximum === true)],
    ['Minimum', num(s.minimum, 'float64')],
    ['ExclusiveMinimum', String(s.exclusiveMinimum === true)],
    ['MaxLength', num(s.maxLength, 'int64')],
    ['MinLength', num(s.minLength, 'int64')],
    ['Pattern', goQuote(String(s.pattern ?? ''))],
    ['MaxItems', num(s.maxItems, 'int64')],
    ['MinItems', num(s.minItems, 'int64')],
    ['UniqueItems', String(s.uniqueItems === true)],
    ['MultipleOf', num(s.multipleOf, 'float64')],
    ['Enum', slice(s.enum, `${PKG}.JSON`)],
    ['MaxProperties', num(s.maxProperties, 'int64')],
    ['MinProperties', num(s.minProperties, 'int64')],
    ['Required', strings(s.required)],
    ['Items', ptr(`${PKG}.JSONSchemaPropsOrArray`, s.items !== undefined)],
    ['AllOf', slice(s.allOf, `${PKG}.JSONSchemaProps`)],
    ['OneOf', slice(s.oneOf, `${PKG}.JSONSchemaProps`)],
    ['AnyOf', slice(s.anyOf, `${PKG}.JSONSchemaProps`)],
    ['Not', ptr(`${PKG}.JSONSchemaProps`, s.not !== undefined)],
    ['Properties', map(s.properties)],
    ['AdditionalProperties', ptr(`${PKG}.JSONSchemaPropsOrBool`, s.additionalProperties !== undefined)],
    ['PatternProperties', map(s.patternProperties)],
    [
      'Dependencies',
      isObject(s.dependencies) ? `${PKG}.JSONSchemaDependencies{...}` : `${PKG}.JSONSchemaDependencies(nil)`,
    ],
    ['AdditionalItems', ptr(`${PKG}.JSONSchemaPropsOrBool`, s.additionalItems !== undefined)],
    [
      'Definitions',
      isObject(s.definitions) ? `${PKG}.JSONSchemaDefinitions{...}` : `${PKG}.JSONSchemaDefinitions(nil)`,
    ],
    ['ExternalDocs', ptr(`${PKG}.ExternalDocumentation`, s.externalDocs !== undefined)],
    ['Example', ptr(`${PKG}.JSON`, s.example !== undefined)],
    ['XPreserveUnknownFields', ptr('bool', typeof s['x-kubernetes-preserve-unknown-fields'] === 'boolean')],
    ['XEmbeddedResource', String(s['x-kubernetes-embedded-resource'] === true)],
    ['XIntOrString', String(s['x-kubernetes-int-or-string'] === true)],
    ['XListMapKeys', strings(s['x-kubernetes-list-map-keys'])],
    ['XListType', strPtr(s['x-kubernetes-list-type'])],
    ['XMapType', strPtr(s['x-kubernetes-map-type'])],
    [
      'XValidations',
      Array.isArray(s['x-kubernetes-validations']) ? `${PKG}.ValidationRules{...}` : `${PKG}.ValidationRules(nil)`,
    ],
  ];
  return `${PKG}.JSONSchemaProps{${fields.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

/** `%#v` of the internal versions list (kube prints it for errors about `spec.versions` as a whole). */
export function goSharpVersions(versions: readonly InternalCrdVersion[]): string {
  const one = (v: InternalCrdVersion) =>
    `${PKG}.CustomResourceDefinitionVersion{Name:${goQuote(v.name)}, Served:${v.served}, Storage:${v.storage}, ` +
    `Deprecated:${v.deprecated}, DeprecationWarning:${strPtr(v.deprecationWarning)}, ` +
    `Schema:${ptr(`${PKG}.CustomResourceValidation`, v.schema !== undefined)}, ` +
    `Subresources:${ptr(`${PKG}.CustomResourceSubresources`, v.subresources !== undefined)}, ` +
    `AdditionalPrinterColumns:${
      v.additionalPrinterColumns
        ? `[]${PKG}.CustomResourceColumnDefinition{...}`
        : `[]${PKG}.CustomResourceColumnDefinition(nil)`
    }, SelectableFields:${v.selectableFields ? `[]${PKG}.SelectableField{...}` : `[]${PKG}.SelectableField(nil)`}}`;
  return `[]${PKG}.CustomResourceDefinitionVersion{${versions.map(one).join(', ')}}`;
}
