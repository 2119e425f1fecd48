import { type FieldError, fieldErrors, invalidShown } from '../meta/field-error.js';
import { childPath } from '../schema/field-path.js';
import type { Schema } from '../schema/schema.js';
import type { InternalCrdSpec } from './crd-internal.js';
import type { JSONSchemaProps } from './crd-types.js';
import { type DefaultRulesCheck, validateDefaults } from './default-validation.js';
import { goSharpSchema } from './go-sharp-v.js';
import { validateOpenApiSchema } from './openapi-schema-validation.js';
import { schemaFromJSONSchemaProps } from './schema-from-json-schema-props.js';
import { hasDefault, hasKubernetesExtensions, specHasSchemaWith } from './schema-walk.js';
import { newStructuralError, validateStructural } from './structural-validation.js';

/**
 * The validation-rule (CEL) checks a CRD's schemas get at definition time, provided by the
 * apiextensions layer (which compiles rules through `src/apiextensions/validation-rules`).
 */
export interface SchemaRulesChecks {
  /**
   * Errors of every `x-kubernetes-validations` rule of a structural root schema (compile errors,
   * cost limits, `oldSelf` misuse), with field paths under `path` (`...openAPIV3Schema`).
   */
  compile(schema: Schema, path: string, context: RulesContext): FieldError[];
  /** Errors of a `default` value against the rules of its own schema. */
  checkDefault: DefaultRulesCheck;
}

/** What an update tells the rule checks about the stored definition (kube's ratcheting of rule checks). */
export interface RulesContext {
  /** The rules and message expressions the stored definition had (they may use every library). */
  readonly preexisting?: { readonly rules: ReadonlySet<string>; readonly messageExpressions: ReadonlySet<string> };
  /** The version's schema is unchanged by the update: per-expression cost limits are not enforced. */
  readonly unchangedSchema?: boolean;
}

/** The rules a schema is held to (what an update may keep from the stored object). */
export interface SchemaTightening {
  readonly requireValidPropertyType: boolean;
  readonly requireStructuralSchema: boolean;
  readonly requirePrunedDefaults: boolean;
  readonly requireAtomicSetType: boolean;
  readonly requireMapListKeysMapSetValidation: boolean;
}

/** The internal `JSONSchemaProps` fields in Go order, with their JSON names. */
const ROOT_FIELDS: readonly (readonly [string, string])[] = [
  ['ID', 'id'],
  ['Schema', '$schema'],
  ['Ref', '$ref'],
  ['Description', 'description'],
  ['Type', 'type'],
  ['Nullable', 'nullable'],
  ['Format', 'format'],
  ['Title', 'title'],
  ['Default', 'default'],
  ['Maximum', 'maximum'],
  ['ExclusiveMaximum', 'exclusiveMaximum'],
  ['Minimum', 'minimum'],
  ['ExclusiveMinimum', 'exclusiveMinimum'],
  ['MaxLength', 'maxLength'],
  ['MinLength', 'minLength'],
  ['Pattern', 'pattern'],
  ['MaxItems', 'maxItems'],
  ['MinItems', 'minItems'],
  ['UniqueItems', 'uniqueItems'],
  ['MultipleOf', 'multipleOf'],
  ['Enum', 'enum'],
  ['MaxProperties', 'maxProperties'],
  ['MinProperties', 'minProperties'],
  ['Required', 'required'],
  ['Items', 'items'],
  ['AllOf', 'allOf'],
  ['OneOf', 'oneOf'],
  ['AnyOf', 'anyOf'],
  ['Not', 'not'],
  ['Properties', 'properties'],
  ['AdditionalProperties', 'additionalProperties'],
  ['PatternProperties', 'patternProperties'],
  ['Dependencies', 'dependencies'],
  ['AdditionalItems', 'additionalItems'],
  ['Definitions', 'definitions'],
  ['ExternalDocs', 'externalDocs'],
  ['Example', 'example'],
  ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'],
  ['XEmbeddedResource', 'x-kubernetes-embedded-resource'],
  ['XIntOrString', 'x-kubernetes-int-or-string'],
  ['XListMapKeys', 'x-kubernetes-list-map-keys'],
  ['XListType', 'x-kubernetes-list-type'],
  ['XMapType', 'x-kubernetes-map-type'],
  ['XValidations', 'x-kubernetes-validations'],
];

const ALLOWED_AT_ROOT = [
  'Description',
  'Type',
  'Format',
  'Title',
  'Maximum',
  'ExclusiveMaximum',
  'Minimum',
  'ExclusiveMinimum',
  'MaxLength',
  'MinLength',
  'Pattern',
  'MaxItems',
  'MinItems',
  'UniqueItems',
  'MultipleOf',
  'Required',
  'Items',
  'Properties',
  'ExternalDocs',
  'Example',
  'XPreserveUnknownFields',
  'XValidations',
];

/** Whether a member is set in Go terms (zero values, nil pointers and nil collections are not). */
function isSetInGo(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && value !== false;
}

/** With a status sub-resource, the root schema may only hold what survives taking `properties.status` out. */
function statusRootErrors(schema: JSONSchemaProps, path: string): FieldError[] {
  for (const [goName, jsonName] of ROOT_FIELDS) {
    const value = (schema as Record<string, unknown>)[jsonName];
    if (!isSetInGo(value)) continue;
    if (goName === 'Type') {
      if (value !== 'object') {
        return [
          fieldErrors.invalid(
            childPath(path, 'openAPIV3Schema.type'),
            value,
            'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
          ),
        ];
      }
      continue;
    }
    if (!ALLOWED_AT_ROOT.includes(goName)) {
      return [
        invalidShown(
          childPath(path, 'openAPIV3Schema'),
          goSharpSchema(schema),
          `only [${ALLOWED_AT_ROOT.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`,
        ),
      ];
    }
  }
  return [];
}

/**
 * kube's `validateCustomResourceDefinitionValidation` of one schema (`spec.validation` or a
 * version's `schema`) at `path`: the status sub-resource's root restrictions, structural rules,
 * defaults, the OpenAPI rules of every node, then the validation rules (only when everything
 * else is fine). A `NewStructural` failure is reported only when nothing else is wrong.
 */
export function validateVersionSchema(
  validation: { openAPIV3Schema?: JSONSchemaProps } | undefined,
  statusEnabled: boolean,
  o: {
    readonly path: string;
    readonly spec: InternalCrdSpec;
    readonly tightening: SchemaTightening;
    readonly rules?: SchemaRulesChecks;
    readonly rulesContext?: RulesContext;
  },
): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (typeof schema !== 'object' || schema === null) return [];
  const t = o.tightening;
  const rootPath = childPath(o.path, 'openAPIV3Schema');
  const errs: FieldError[] = [];
  if (statusEnabled) errs.push(...statusRootErrors(schema, o.path));
  if (schema.nullable === true) {
    errs.push(
      fieldErrors.forbidden(childPath(o.path, 'openAPIV3Schema.nullable'), 'nullable cannot be true at the root'),
    );
  }
  const requireStructural =
    t.requireStructuralSchema ||
    !o.spec.preserveUnknownFields ||
    specHasSchemaWith(o.spec, hasDefault) ||
    specHasSchemaWith(o.spec, hasKubernetesExtensions);
  let initErrors: FieldError[] = [];
  let rulesApply = false;
  if (requireStructural) {
    const initError = newStructuralError(schema);
    if (initError) initErrors = [fieldErrors.invalid(rootPath, '', initError)];
    else {
      const structural = validateStructural(schema, rootPath);
      if (structural.length > 0) errs.push(...structural);
      else {
        const defaults = validateDefaults(schema, rootPath, {
          requirePrunedDefaults: t.requirePrunedDefaults,
          rules: o.rules?.checkDefault,
        });
        if (defaults.length > 0) errs.push(...defaults);
        else rulesApply = true;
      }
    }
  }
  const openApi = validateOpenApiSchema(
    schema,
    rootPath,
    { allowDefaults: true, insideResourceMeta: false, requireValidPropertyType: t.requireValidPropertyType },
    true,
    {
      requireAtomicSetType: t.requireAtomicSetType,
      requireMapListKeysMapSetValidation: t.requireMapListKeysMapSetValidation,
    },
  );
  errs.push(...openApi);
  if (rulesApply && openApi.length === 0 && o.rules) {
    errs.push(...o.rules.compile(schemaFromJSONSchemaProps(schema), rootPath, o.rulesContext ?? {}));
  }
  if (errs.length === 0) errs.push(...initErrors);
  return errs;
}
