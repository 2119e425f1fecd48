import type { RulesContext, SchemaRulesChecks } from '../apis/apiextensions/schema-validation.js';
import type { FieldError } from '../apis/meta/field-error.js';
import type { Schema } from '../apis/schema/schema.js';
import { type CompiledRules, compileValidationRules } from './validation-rules/index.js';

/** The compiled CEL validation rules (`x-orch-validations`) of a structural schema. */
export type CompiledSchemaRules = CompiledRules;

/** How a schema's rules are compiled (see `compileValidationRules`). */
export interface SchemaRulesOptions {
  /** The schema's path in its definition, which definition errors are named under. */
  readonly schemaPath?: string;
  /** Which expressions may use every library: all (`true`, a stored definition) or the stored definition's. */
  readonly storedExpressions?: boolean | RulesContext['preexisting'];
  /** The version's schema is unchanged: per-expression cost limits are not enforced. */
  readonly suppressPerExpressionCost?: boolean;
}

/**
 * THE SEAM to the validation-rules layer, the one place it is called from: compiles every
 * `x-orch-validations` rule of `schema` (a structural root schema) with
 * `compileValidationRules`. `rules` is absent when the schema has none.
 */
export function compileSchemaRules(
  schema: Schema,
  options: SchemaRulesOptions = {},
): { rules?: CompiledSchemaRules; errors: FieldError[] } {
  if (!hasValidationRules(schema)) return { errors: [] };
  return compileValidationRules(schema, {
    schemaPath: options.schemaPath,
    storedExpressions: options.storedExpressions,
    suppressPerExpressionCost: options.suppressPerExpressionCost,
  });
}

/** Whether a schema (or anything below it) carries validation rules. */
export function hasValidationRules(schema: Schema, seen = new Set<Schema>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  if ((schema['x-orch-validations'] ?? []).length > 0) return true;
  const extra = typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : [];
  const children = [...Object.values(schema.properties ?? {}), ...(schema.items ? [schema.items] : []), ...extra];
  return children.some((c) => hasValidationRules(c, seen));
}

/** A rule error of a value validated on its own, named under `path` (`<nil>` is the value itself). */
function under(path: string, e: FieldError): FieldError {
  if (e.field === '<nil>' || e.field === '') return { ...e, field: path };
  return { ...e, field: e.field.startsWith('[') ? `${path}${e.field}` : `${path}.${e.field}` };
}

/**
 * The definition-time rule checks the CRD kind runs (see `SchemaRulesChecks`): a schema's rules
 * compiled with kube's environments (a stored definition's own expressions may use every
 * library), and a `default` checked against the rules of its own schema, as if it replaced itself
 * and as if it were new (kube checks both with ratcheting on).
 */
export function schemaRulesChecks(): SchemaRulesChecks {
  return {
    compile(schema, path, context) {
      return compileSchemaRules(schema, {
        schemaPath: path,
        storedExpressions: context.preexisting,
        suppressPerExpressionCost: context.unchangedSchema,
      }).errors;
    },
    checkDefault(schema, value, path) {
      const rules = compileSchemaRules(schema, { storedExpressions: true }).rules;
      if (!rules) return [];
      const errs = rules.validate(value, value);
      const fresh = errs.length === 0 ? rules.validate(value, undefined) : [];
      return [...errs, ...fresh].map((e) => under(path, e));
    },
  };
}
