import type { ApiObject, ObjectMeta } from '../object.js';
import type { ResourceStrategy, StrategyContext, SubresourceDefinition } from '../resource-definition.js';
import { applyDefaults, canonicalizeTimestamps } from '../schema/defaults.js';
import type { Schema } from '../schema/schema.js';
import { validateAgainstSchema } from '../schema/validate.js';
import type { FieldError } from './field-error.js';
import { type NameValidator, nameIsPathSegment } from './name-validation.js';
import { publishedSchemaOf } from './native-validation-schema.js';
import { validateObjectMeta, validateObjectMetaNames, validateObjectMetaUpdate } from './object-meta-validation.js';

/** A sub-resource with the strategy its writes go through (e.g. `namespaces/status`). */
export type SubresourceWithStrategy = SubresourceDefinition;

/** The per-kind parts a {@link schemaStrategy} combines with the schema-driven steps. */
export interface KindRules<T extends ApiObject> {
  /** The kind's structural schema (whole object). */
  readonly schema: Schema;
  readonly namespaced: boolean;
  /**
   * The kind's name rule. When set, the kind validates its metadata with kube's
   * `ValidateObjectMeta` (and `ValidateObjectMetaUpdate`); when absent (core/v1 Event) only
   * the generic checks every kind gets apply.
   */
  readonly nameValidator?: NameValidator;
  /** Core-group kinds: finalizers without a `/` must be one of these. */
  readonly standardFinalizers?: readonly string[];
  /**
   * The kind's own defaults (kube's `SetDefaults_*`), after the schema's: see
   * `ResourceStrategy.defaults`. `decoded`: the object was decoded with the schema's defaults
   * (and, with {@link quantities}, its quantities canonical).
   */
  defaults?(obj: T, decoded: boolean): void;
  /**
   * `defaults` first writes every quantity in canonical form, unless `decoded`: a body is then
   * decoded with its quantities canonical too (`ResourceStrategy.defaultsQuantities`).
   */
  readonly quantities?: boolean;
  prepareForCreate?(obj: T, context?: StrategyContext): void;
  prepareForUpdate?(obj: T, old: T): void;
  /** Kind-specific rules on create; called only when the object matches the schema. */
  validateCreate?(obj: T): FieldError[];
  /** Kind-specific rules on update (immutability etc.); called only when the object matches the schema. */
  validateUpdate?(obj: T, old: T): FieldError[];
  /** See `ResourceStrategy.generationChanged`; absent: any change outside metadata and status. */
  generationChanged?(obj: T, old: T): boolean;
  /** See `ResourceStrategy.refuseDelete`. */
  refuseDelete?(name: string): string | undefined;
}

function meta(obj: ApiObject): ObjectMeta {
  return obj.metadata ?? {};
}

function dedupe(errs: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errs.filter((e) => {
    const key = `${e.type}\u0000${e.field}\u0000${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function metadataIsWellTyped(schemaErrs: FieldError[]): boolean {
  return !schemaErrs.some((e) => e.field === 'metadata' || e.field.startsWith('metadata.'));
}

/**
 * Builds a kind's strategy from its schema and its own rules, in kube-apiserver's order:
 *
 * - defaults: the schema's, then the kind's (run by the registry before the field manager);
 * - prepare: the kind's normalization, then timestamps in canonical form;
 * - validate on create: metadata (kind name rule), schema, kind rules; then, only when all of
 *   that passed, the generic metadata check every kind gets (path-segment-safe names), as kube's
 *   `rest.BeforeCreate` runs it after the strategy;
 * - validate on update: the generic `ValidateObjectMetaUpdate`, the kind's metadata rules on the
 *   new object, schema, kind update rules. Identical errors are reported once.
 *
 * Kind rules run only on objects that match the schema, so they may rely on field types.
 * The registry is expected to have generated `metadata.name` before `prepareForCreate` and to
 * have copied `resourceVersion` (for unconditional updates), `uid`, `creationTimestamp`,
 * `deletionTimestamp` and `generation` from the live object before `prepareForUpdate`.
 */
export function schemaStrategy<T extends ApiObject>(rules: KindRules<T>): ResourceStrategy {
  const { schema } = rules;
  // A validation schema has its published schema's defaults: a body decoded with those has them.
  const defaultsSchema = publishedSchemaOf(schema);
  const generationChanged = rules.generationChanged;
  return {
    ...(generationChanged ? { generationChanged: (obj, old) => generationChanged(obj as T, old as T) } : {}),
    refuseDelete: rules.refuseDelete,
    defaultsSchema,
    defaultsQuantities: !!rules.quantities,
    defaults(obj, schemaDefaulted) {
      const decoded = schemaDefaulted === defaultsSchema;
      if (!decoded) applyDefaults(defaultsSchema, obj);
      rules.defaults?.(obj as T, decoded);
    },
    // The registry runs `defaults` before the field manager; admission's built-in plugins set
    // complete values, which kube does not default again either.
    prepareForCreate(obj, context) {
      rules.prepareForCreate?.(obj as T, context);
      canonicalizeTimestamps(schema, obj);
    },
    prepareForUpdate(obj, old) {
      rules.prepareForUpdate?.(obj as T, old as T);
      canonicalizeTimestamps(schema, obj);
    },
    validateCreate(obj) {
      const schemaErrs = validateAgainstSchema(schema, obj);
      const errs: FieldError[] = [];
      if (rules.nameValidator && metadataIsWellTyped(schemaErrs)) {
        errs.push(
          ...validateObjectMeta(meta(obj), {
            namespaced: rules.namespaced,
            nameValidator: rules.nameValidator,
            standardFinalizers: rules.standardFinalizers,
          }),
        );
      }
      errs.push(...schemaErrs);
      if (schemaErrs.length === 0) errs.push(...(rules.validateCreate?.(obj as T) ?? []));
      if (errs.length > 0) return dedupe(errs);
      // Metadata that passed the kind's `validateObjectMeta` passes every check of the generic
      // one but the name rule; only kinds without a name rule need the whole check.
      if (rules.nameValidator) return validateObjectMetaNames(meta(obj), nameIsPathSegment);
      return validateObjectMeta(meta(obj), { namespaced: rules.namespaced, nameValidator: nameIsPathSegment });
    },
    validateUpdate(obj, old) {
      const schemaErrs = validateAgainstSchema(schema, obj);
      const errs: FieldError[] = [];
      if (metadataIsWellTyped(schemaErrs)) {
        errs.push(...validateObjectMetaUpdate(meta(obj), meta(old), { standardFinalizers: rules.standardFinalizers }));
        if (rules.nameValidator) {
          errs.push(
            ...validateObjectMeta(meta(obj), {
              namespaced: rules.namespaced,
              nameValidator: rules.nameValidator,
              standardFinalizers: rules.standardFinalizers,
            }),
          );
        }
      }
      errs.push(...schemaErrs);
      if (schemaErrs.length === 0) errs.push(...(rules.validateUpdate?.(obj as T, old as T) ?? []));
      return dedupe(errs);
    },
  };
}

/** The rules of a sub-resource that only updates part of the object (status, finalize). */
export interface SubresourceRules<T extends ApiObject> {
  readonly schema: Schema;
  /** Copy from `old` what this sub-resource may not change. */
  prepareForUpdate(obj: T, old: T): void;
  /** Field errors of the update (usually metadata update rules plus the part's own rules). */
  validateUpdate(obj: T, old: T): FieldError[];
}

/**
 * Strategy of a sub-resource that only accepts updates: defaults and timestamps as for the main
 * resource, schema validation, then the sub-resource's rules. Create is not served through
 * sub-resources; its hooks are no-ops.
 */
export function subresourceStrategy<T extends ApiObject>(rules: SubresourceRules<T>): ResourceStrategy {
  const { schema } = rules;
  return {
    prepareForCreate() {},
    validateCreate() {
      return [];
    },
    prepareForUpdate(obj, old) {
      applyDefaults(schema, obj);
      rules.prepareForUpdate(obj as T, old as T);
      canonicalizeTimestamps(schema, obj);
    },
    validateUpdate(obj, old) {
      const schemaErrs = validateAgainstSchema(schema, obj);
      if (schemaErrs.length > 0) return schemaErrs;
      return dedupe(rules.validateUpdate(obj as T, old as T));
    },
  };
}
