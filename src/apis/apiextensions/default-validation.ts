import { type FieldError, invalidShown } from '../meta/field-error.js';
import { childPath, keyPath } from '../schema/field-path.js';
import { jsonEqual } from '../schema/json-value.js';
import { pruneUnknownFields } from '../schema/prune.js';
import type { Schema } from '../schema/schema.js';
import { validateValueAgainstSchema } from '../schema/validate.js';
import type { JSONSchemaProps } from './crd-types.js';
import { validateEmbeddedResources } from './embedded-resources.js';
import { goSharpJson } from './go-sharp-v.js';
import { schemaFromJSONSchemaProps, stripUnsupportedFormats } from './schema-from-json-schema-props.js';

/** Checks a default value against the CEL rules of its schema (the validation-rules layer, injected). */
export type DefaultRulesCheck = (schema: Schema, value: unknown, path: string) => FieldError[];

function isSchema(v: unknown): v is JSONSchemaProps {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const META = new Set(['metadata', 'apiVersion', 'kind']);

/**
 * kube's `defaulting.ValidateDefaults` over a structural root schema at `path`: every `default`
 * (not below additionalProperties) must be pruned already (`must not have unknown fields`), must
 * make a valid embedded resource where it is one, must satisfy its own schema (errors below
 * `<path>.default`, messages relative to the value) and its CEL rules. Defaults of the
 * TypeMeta/ObjectMeta of embedded resources are checked against their schema only.
 */
export function validateDefaults(
  root: JSONSchemaProps,
  path: string,
  opts: { readonly requirePrunedDefaults: boolean; readonly rules?: DefaultRulesCheck },
): FieldError[] {
  const errs: FieldError[] = [];
  const visit = (s: JSONSchemaProps, at: string, insideMeta: boolean, isRoot: boolean): void => {
    const embedded = isRoot || s['x-kubernetes-embedded-resource'] === true;
    const meta = embedded ? false : insideMeta;
    if (s.default !== undefined && s.default !== null) errs.push(...defaultErrors(s, at, meta, embedded, opts));
    if (isSchema(s.items)) visit(s.items, childPath(at, 'items'), meta, false);
    const props = isSchema(s.properties) ? Object.entries(s.properties).sort(([a], [b]) => (a < b ? -1 : 1)) : [];
    for (const [k, sub] of props) {
      if (!isSchema(sub)) continue;
      visit(sub, keyPath(childPath(at, 'properties'), k), meta || (embedded && META.has(k)), false);
    }
  };
  visit(root, path, false, true);
  return errs;
}

function defaultErrors(
  s: JSONSchemaProps,
  path: string,
  insideMeta: boolean,
  embedded: boolean,
  opts: { readonly requirePrunedDefaults: boolean; readonly rules?: DefaultRulesCheck },
): FieldError[] {
  const at = childPath(path, 'default');
  const value = s.default;
  const schema = schemaFromJSONSchemaProps(s);
  const validation = stripUnsupportedFormats(schema);
  if (insideMeta) return validateValueAgainstSchema(validation, value, at);
  const errs: FieldError[] = [];
  if (opts.requirePrunedDefaults) {
    const pruned = structuredClone(value);
    pruneUnknownFields(embedded ? { ...schema, 'x-orch-embedded-resource': true } : schema, pruned);
    if (!jsonEqual(pruned, value)) errs.push(invalidShown(at, goSharpJson(value), 'must not have unknown fields'));
  }
  const embeddedErrs = embedded ? validateEmbeddedResources(at, value, schema, true) : [];
  if (embeddedErrs.length > 0) return [...errs, ...embeddedErrs];
  const schemaErrs = validateValueAgainstSchema(validation, value, at);
  if (schemaErrs.length > 0) return [...errs, ...schemaErrs];
  return [...errs, ...(opts.rules?.(schema, value, at) ?? [])];
}
