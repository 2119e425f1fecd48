import type { Schema } from '../../apis/schema/schema.js';
import type { SizeBound } from './cost-estimator.js';
import { UNBOUNDED } from './cost-model.js';
import { codePoints, KEYS } from './cost-operators.js';

/** kube's largest JSON forms of the string formats it types as timestamps and durations (quotes included). */
const FORMAT_SIZES: Readonly<Record<string, number>> = { date: 12, 'date-time': 32, duration: 32 };

/**
 * Size bounds from structural schemas, one per variable (`self`, `oldSelf`), as kube-apiserver
 * v1.32 declares them to cel-go's estimator: a string's `maxLength` times 4 (a character can take
 * 4 bytes; without it the longest `enum` value), bytes' `maxLength`, a date 12, a date-time or
 * duration 32, an int-or-string what fits in a request; `maxItems` for lists, `maxProperties` for
 * maps; 0 for numbers, booleans, objects with properties and map keys (kube sets no size on
 * them). `*` descends into list items or map values, `@keys` to map keys, a name into a declared
 * property (a map's value selected by name has no bound, as in kube). Undefined where nothing
 * bounds the value (the estimator then assumes the request size limit).
 */
export function schemaSizeBound(schemas: Readonly<Record<string, Schema>>): SizeBound {
  return (path) => {
    let s: Schema | undefined = schemas[path[0]];
    for (let i = 1; i < path.length && s; i++) {
      const step = path[i];
      if (step === KEYS) return 0;
      if (step === '*')
        s = s.items ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      // A named step reaches a declared property only: kube gives a map's entry selected by name
      // no size (its estimator finds no such field), so the type decides.
      else s = s.properties?.[step];
    }
    return s ? schemaSize(s) : undefined;
  };
}

function schemaSize(s: Schema): number | undefined {
  if (s['x-orch-int-or-string']) return UNBOUNDED.string;
  switch (s.type) {
    case 'string': {
      if (s.format === 'byte') return s.maxLength;
      const formatted = s.format === undefined ? undefined : FORMAT_SIZES[s.format];
      if (formatted !== undefined) return formatted;
      if (s.maxLength !== undefined) return Math.max(0, s.maxLength) * 4;
      return s.enum ? longestEnumValue(s.enum) : undefined;
    }
    case 'array':
      return s.maxItems;
    case 'object':
      if (s.additionalProperties !== undefined && s.additionalProperties !== false) return s.maxProperties;
      return s.properties ? 0 : undefined;
    case 'integer':
    case 'number':
    case 'boolean':
      return 0;
    default:
      return undefined;
  }
}

function longestEnumValue(values: readonly unknown[]): number | undefined {
  let max: number | undefined;
  for (const v of values) {
    if (typeof v !== 'string') return undefined;
    max = Math.max(max ?? 0, [...v].length);
  }
  return max;
}

/**
 * Size bounds read from the values of one evaluation: the actual lengths (the largest over the
 * elements where the path goes through `*` or `@keys`), 1 for a value without a size (a number,
 * a boolean: cel-go's actual size of a scalar). Charging an evaluation with these makes its cost
 * a function of the expression and the input only.
 */
export function valueSizeBound(activation: Readonly<Record<string, unknown>>): SizeBound {
  return (path) => {
    let values: unknown[] = [activation[path[0]]];
    for (let i = 1; i < path.length; i++) {
      const step = path[i];
      const next: unknown[] = [];
      for (const v of values) {
        if (step === KEYS) {
          if (v instanceof Map) next.push(...v.keys());
          else if (v && typeof v === 'object' && !Array.isArray(v)) next.push(...Object.keys(v));
        } else if (step === '*') {
          if (Array.isArray(v)) next.push(...v);
          else if (v instanceof Map) next.push(...v.values());
          else if (v && typeof v === 'object') next.push(...Object.values(v));
        } else if (v instanceof Map) {
          if (v.has(step)) next.push(v.get(step));
        } else if (v && typeof v === 'object' && step in v) {
          next.push((v as Record<string, unknown>)[step]);
        }
      }
      values = next;
    }
    let max: number | undefined;
    for (const v of values) {
      const size = sizeOf(v) ?? (v === undefined ? undefined : 1);
      if (size !== undefined) max = max === undefined ? size : Math.max(max, size);
    }
    return max;
  };
}

function sizeOf(v: unknown): number | undefined {
  // A string's size is its length in code points, as CEL's size() counts it.
  if (typeof v === 'string') return codePoints(v);
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (v && typeof v === 'object') return Object.keys(v).length;
  return undefined;
}
