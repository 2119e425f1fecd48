import type { SchemaRulesChecks } from '../apis/apiextensions/schema-validation.js';
import type { FieldError } from '../apis/meta/field-error.js';
import type { Schema } from '../apis/schema/schema.js';

/**
 * The CEL validation rules (`x-orch-validations`) of a structural schema, compiled. Same shape as
 * `CompiledRules` of `./validation-rules/index.js`.
 */
export interface CompiledSchemaRules {
  /** Rule errors of an object (create: `old` undefined), kube's messages, paths and reasons. */
  validate(obj: unknown, old: unknown | undefined): FieldError[];
}

/**
 * THE SEAM to the validation-rules layer, the one place it is called from: compiles every
 * `x-orch-validations` rule of `schema` (a structural root schema). Errors name the rule's path
 * relative to the schema root (`properties[spec].x-kubernetes-validations[0].rule`).
 *
 * Until `src/apiextensions/validation-rules/` lands this compiles nothing: definitions with rules
 * are accepted and served, their rules not evaluated. Wiring it is one line:
 * `return compileValidationRules(schema, { perCallLimit: options.perCallLimit });`
 */
export function compileSchemaRules(
  _schema: Schema,
  _options: { readonly perCallLimit?: number } = {},
): { rules?: CompiledSchemaRules; errors: FieldError[] } {
  return { errors: [] };
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

/** `base` + a path relative to it (`properties[spec]...`, `[0]...`). */
function under(base: string, relative: string): string {
  if (relative === '') return base;
  return relative.startsWith('[') ? `${base}${relative}` : `${base}.${relative}`;
}

/**
 * The definition-time rule checks the CRD kind runs (see `SchemaRulesChecks`), over
 * {@link compileSchemaRules}: compile errors are moved under the schema's path, and a default
 * value is checked against the rules of its own schema.
 */
export function schemaRulesChecks(): SchemaRulesChecks {
  return {
    compile(schema, path) {
      if (!hasValidationRules(schema)) return [];
      return compileSchemaRules(schema).errors.map((e) => ({ ...e, field: under(path, e.field) }));
    },
    checkDefault(schema, value, path) {
      if (!hasValidationRules(schema)) return [];
      const rules = compileSchemaRules(schema).rules;
      return (rules?.validate(value, undefined) ?? []).map((e) => ({ ...e, field: under(path, e.field) }));
    },
  };
}
