import { validateEmbeddedResources } from '../apis/apiextensions/embedded-resources.js';
import { type FieldError, fieldErrors } from '../apis/meta/field-error.js';
import { nameIsDNSSubdomain } from '../apis/meta/name-validation.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../apis/meta/object-meta-validation.js';
import type { ApiObject } from '../apis/object.js';
import type { ResourceStrategy, ValidationContext } from '../apis/resource-definition.js';
import { applyDefaults, canonicalizeTimestamps } from '../apis/schema/defaults.js';
import { jsonEqual } from '../apis/schema/json-value.js';
import { reachTest } from '../apis/schema/schema-reach.js';
import { validateAgainstSchema, validateValueAgainstSchema } from '../apis/schema/validate.js';
import type { CustomResourceSchemas } from './custom-resource-schema.js';
import { ratchetSchemaErrors } from './ratcheting.js';
import { type ScalePaths, scaleSpecErrors, scaleStatusErrors } from './scale-paths.js';
import type { CompiledSchemaRules } from './schema-rules.js';

/** What a custom resource version's strategy is built from. */
export interface CustomResourceStrategyOptions {
  readonly schemas: CustomResourceSchemas;
  readonly namespaced: boolean;
  /** A `status` sub-resource owns `.status`. */
  readonly statusSubresource: boolean;
  /** The `scale` sub-resource's paths, when there is one. */
  readonly scale?: ScalePaths;
  /** The version's validation rules (CEL), when it has any. */
  readonly rules?: CompiledSchemaRules;
  /** Refuses creates (while the definition is being deleted); see `ResourceStrategy.refuseCreate`. */
  readonly refuseCreate?: () => string | undefined;
}

const holdsEmbeddedResources = reachTest((s) => s['x-orch-embedded-resource'] === true);

const BLOCKING = new Set([
  'FieldValueNotSupported',
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
]);

/**
 * The validation rules of an object, unless other errors would make them misleading (kube's
 * `hasBlockingErr`: then one error says the rules were not checked).
 */
function ruleErrors(
  rules: CompiledSchemaRules | undefined,
  errs: FieldError[],
  values: { readonly obj: unknown; readonly old: unknown; readonly context?: ValidationContext },
): FieldError[] {
  if (!rules) return [];
  if (errs.some((e) => BLOCKING.has(e.type))) {
    return [
      fieldErrors.invalid(
        '<nil>',
        null,
        'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      ),
    ];
  }
  // A rule failure ratcheting lets through is a warning, as kube's CEL validator adds it.
  const warnings = values.context?.warnings;
  return rules.validate(values.obj, values.old, warnings ? { warn: (w) => warnings.add(w) } : undefined);
}

/** Everything outside `metadata` (what `metadata.generation` counts). */
function withoutMetadata(obj: ApiObject): Record<string, unknown> {
  const { metadata: _m, ...rest } = obj;
  return rest;
}

/**
 * kube's custom resource strategy for one served version: structural defaults (pruning happens
 * when requests are decoded and objects read), `status` owned by its sub-resource when there is
 * one, generation bumped on any change outside `metadata` (the kept status included), and
 * validation in kube's order: ObjectMeta (names are DNS subdomains), the schema (ratcheted on
 * update), the scale paths, embedded resources, then the validation rules.
 */
export function customResourceStrategy(o: CustomResourceStrategyOptions): ResourceStrategy {
  const { published, validation } = o.schemas;
  // Most kinds embed no resource: then there is nothing to walk for.
  const embedded = holdsEmbeddedResources(published)
    ? (obj: ApiObject) => validateEmbeddedResources('', obj, published)
    : () => [];
  const schemaErrors = (obj: ApiObject, old: ApiObject | undefined): FieldError[] => {
    const errs = validateAgainstSchema(validation, obj);
    return old ? ratchetSchemaErrors(errs, obj, old, validation) : errs;
  };
  return {
    refuseCreate: o.refuseCreate,
    // Structural defaults apply to what a request decodes, before its writer's fields are recorded.
    defaults: (obj) => applyDefaults(published, obj),
    prepareForCreate(obj) {
      if (o.statusSubresource) delete obj.status;
      applyDefaults(published, obj);
      canonicalizeTimestamps(published, obj);
    },
    prepareForUpdate(obj, old) {
      if (o.statusSubresource) {
        if (old.status !== undefined) obj.status = structuredClone(old.status);
        else delete obj.status;
      }
      applyDefaults(published, obj);
      canonicalizeTimestamps(published, obj);
    },
    generationChanged: (obj, old) => !jsonEqual(withoutMetadata(obj), withoutMetadata(old)),
    validateCreate(obj) {
      const errs = [
        ...validateObjectMeta(obj.metadata ?? {}, { namespaced: o.namespaced, nameValidator: nameIsDNSSubdomain }),
        ...schemaErrors(obj, undefined),
        ...(o.scale ? [...scaleSpecErrors(obj, o.scale), ...scaleStatusErrors(obj, o.scale)] : []),
        ...embedded(obj),
      ];
      return [...errs, ...ruleErrors(o.rules, errs, { obj, old: undefined })];
    },
    validateUpdate(obj, old, context) {
      const errs = [
        ...validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {}, {}),
        ...schemaErrors(obj, old),
        ...(o.scale ? [...scaleSpecErrors(obj, o.scale), ...scaleStatusErrors(obj, o.scale)] : []),
        ...embedded(obj),
      ];
      return [...errs, ...ruleErrors(o.rules, errs, { obj, old, context })];
    },
  };
}

/**
 * The strategy of the `status` sub-resource: the object stays as stored except `status` (and the
 * managed fields the registry computed), which is validated against the schema's `status`
 * (messages relative to it, ratcheted), the scale status paths and the rules.
 */
export function customResourceStatusStrategy(o: CustomResourceStrategyOptions): ResourceStrategy {
  const { published, status } = o.schemas;
  return {
    prepareForCreate() {},
    validateCreate: () => [],
    prepareForUpdate(obj, old) {
      const next = structuredClone(old);
      next.metadata.managedFields = obj.metadata.managedFields;
      if (next.metadata.managedFields === undefined) delete next.metadata.managedFields;
      if (obj.status !== undefined) next.status = obj.status;
      else delete next.status;
      for (const key of Object.keys(obj)) delete obj[key];
      Object.assign(obj, next);
      applyDefaults(published, obj);
    },
    validateUpdate(obj, old, context) {
      const errs = validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {}, {});
      if (obj.status !== undefined && status) {
        const statusErrs = validateValueAgainstSchema(status, obj.status, 'status');
        errs.push(...ratchetSchemaErrors(statusErrs, obj, old, { properties: { status } }));
      }
      if (o.scale) errs.push(...scaleStatusErrors(obj, o.scale));
      return [...errs, ...ruleErrors(o.rules, errs, { obj, old, context })];
    },
  };
}
