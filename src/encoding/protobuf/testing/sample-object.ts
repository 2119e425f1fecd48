import type { Schema } from '../../../apis/schema/schema.js';
import { richMetadata } from './fixtures.js';

/**
 * A fully populated object of a schema, for codec tests of generated kinds: every property that
 * travels in protobuf set to a non-zero value of its type (the first enum value, a one-element list, a one-entry map,
 * the special messages in canonical JSON), keys in schema order. Deterministic: the same schema
 * gives the same object.
 */
export function sampleObject(schema: Schema, kind: string, apiVersion: string): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion, kind };
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (name === 'apiVersion' || name === 'kind') continue;
    out[name] = name === 'metadata' ? richMetadata('sample', 'default') : sampleValue(prop, name, 0);
  }
  return out;
}

function sampleValue(schema: Schema, name: string, depth: number): unknown {
  if (depth > 40) throw new Error(`${name}: schema nests too deeply for a sample`);
  switch (schema['x-orch-protobuf-message']) {
    case 'Time':
      return '2024-05-06T07:08:09Z';
    case 'MicroTime':
      return '2024-05-06T07:08:09.123456Z';
    case 'Quantity':
      return '1500m';
    case 'IntOrString':
      return name.length % 2 === 0 ? 8080 : 'http';
    case 'RawExtension':
      return { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } };
  }
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case 'string':
      return schema.format === 'byte' ? Buffer.from(`${name} bytes`).toString('base64') : `${name}-value`;
    case 'integer':
      return schema.format === 'int32' ? 7 : 9_000_000_001;
    case 'number':
      return 0.25;
    case 'boolean':
      return true;
    case 'array':
      return [sampleValue(schema.items ?? {}, name, depth + 1)];
    case 'object': {
      if (typeof schema.additionalProperties === 'object') {
        return { [`${name}-key`]: sampleValue(schema.additionalProperties, name, depth + 1) };
      }
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        // An embedded object's apiVersion and kind are not part of its message (as in Go).
        if (prop['x-orch-protobuf-field'] === undefined) continue;
        out[key] = sampleValue(prop, key, depth + 1);
      }
      return out;
    }
    default:
      throw new Error(`${name}: no sample for schema type ${String(schema.type)}`);
  }
}
