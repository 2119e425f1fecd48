import type { Schema } from './schema.js';

/**
 * A test of whether a value of a schema may hold a node that `matches` (itself or anything
 * below it: properties, map values, list items), remembered per schema object so that walks run
 * per request can skip whole subtrees. Schemas are immutable once built, so the answers stay
 * true; a schema that reaches itself counts as holding a match.
 */
export function reachTest(matches: (schema: Schema) => boolean): (schema: Schema) => boolean {
  const memo = new WeakMap<Schema, boolean>();
  const holds = (schema: Schema): boolean => {
    const known = memo.get(schema);
    if (known !== undefined) return known;
    memo.set(schema, true); // while looking: a schema that reaches itself
    const extra = schema.additionalProperties;
    const result =
      matches(schema) ||
      (schema.items !== undefined && holds(schema.items)) ||
      (typeof extra === 'object' && holds(extra)) ||
      Object.values(schema.properties ?? {}).some(holds);
    memo.set(schema, result);
    return result;
  };
  return holds;
}
