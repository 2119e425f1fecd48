import type { Schema } from '../../apis/schema/schema.js';
import type { SizeBound } from './cost-estimator.js';

/**
 * Size bounds from structural schemas, one per variable (`self`, `oldSelf`): `maxLength` for
 * strings, `maxItems` for lists, `maxProperties` for maps; `*` descends into list items or map
 * values. Unbounded values give undefined (the estimator then assumes the request size limit).
 */
export function schemaSizeBound(schemas: Readonly<Record<string, Schema>>): SizeBound {
  return (path) => {
    let s: Schema | undefined = schemas[path[0]];
    for (let i = 1; i < path.length && s; i++) {
      const step = path[i];
      if (step === '*')
        s = s.items ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      else
        s = s.properties?.[step] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    }
    if (!s) return undefined;
    if (s.type === 'string') return s.maxLength;
    if (s.type === 'array') return s.maxItems;
    if (s.type === 'object' && s.additionalProperties !== undefined && s.additionalProperties !== false) {
      return s.maxProperties;
    }
    return undefined;
  };
}

/**
 * Size bounds read from the values of one evaluation: the actual lengths (the largest over the
 * elements where the path goes through `*`). Charging an evaluation with these makes its cost a
 * function of the expression and the input only.
 */
export function valueSizeBound(activation: Readonly<Record<string, unknown>>): SizeBound {
  return (path) => {
    let values: unknown[] = [activation[path[0]]];
    for (let i = 1; i < path.length; i++) {
      const step = path[i];
      const next: unknown[] = [];
      for (const v of values) {
        if (step === '*') {
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
      const size = sizeOf(v);
      if (size !== undefined) max = max === undefined ? size : Math.max(max, size);
    }
    return max;
  };
}

function sizeOf(v: unknown): number | undefined {
  if (typeof v === 'string') return v.length;
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (v && typeof v === 'object') return Object.keys(v).length;
  return undefined;
}
