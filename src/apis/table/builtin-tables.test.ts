import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { builtinResources } from '../builtin.js';
import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { buildTable } from './build-table.js';

// Every built-in kind's Table for objects generated from its schema, compared with the Tables
// recorded in builtin-tables.golden.json: moving a column between code and declaration must not
// change one byte the server sends. `ORCH_RECORD_TABLES=1` rewrites the file (only when a
// column is meant to change).

const GOLDEN = fileURLToPath(new URL('./builtin-tables.golden.json', import.meta.url));
const NOW = new Date('2024-05-01T12:00:00Z');
const CREATED = '2024-04-28T09:30:00Z';

/** How the generated values vary between the object variants. */
interface Variant {
  readonly name: string;
  /** Which enum value a field takes (first or last). */
  readonly enumPick: 'first' | 'last';
  readonly listLength: number;
  readonly number: number;
  readonly bool: boolean;
}

const VARIANTS: readonly Variant[] = [
  { name: 'full', enumPick: 'first', listLength: 2, number: 3, bool: true },
  { name: 'other', enumPick: 'last', listLength: 1, number: 0, bool: false },
];

const MAX_DEPTH = 7;

/** A value for `schema` at `path`: every property set, deterministic, bounded in depth. */
function sample(schema: Schema, path: string, v: Variant, depth: number): unknown {
  if (depth > MAX_DEPTH) return undefined;
  if (schema.enum && schema.enum.length > 0) {
    return v.enumPick === 'first' ? schema.enum[0] : schema.enum[schema.enum.length - 1];
  }
  if (schema['x-orch-int-or-string']) return v.number % 2 === 1 ? `${v.number * 10}%` : v.number;
  if (schema.format === 'date-time') return v.enumPick === 'first' ? '2024-04-30T11:00:00Z' : '2024-01-01T00:00:00Z';
  switch (schema.type) {
    case 'string':
      return schema.format === 'byte' ? 'YWJj' : `${path.split('.').pop()}-${v.name}`;
    case 'integer':
    case 'number':
      return v.number + depth;
    case 'boolean':
      return v.bool;
    case 'array': {
      if (!schema.items) return [];
      const items: unknown[] = [];
      for (let i = 0; i < v.listLength; i++) {
        const item = sample(schema.items, `${path}${i}`, v, depth + 1);
        if (item !== undefined) items.push(item);
      }
      return items;
    }
    default:
      break;
  }
  if (schema.properties || schema.type === 'object' || typeof schema.additionalProperties === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      const value = sample(sub, `${path}.${key}`, v, depth + 1);
      if (value !== undefined) out[key] = value;
    }
    if (typeof schema.additionalProperties === 'object') {
      for (let i = 0; i < v.listLength; i++) {
        const value = sample(schema.additionalProperties, `${path}.k${i}`, v, depth + 1);
        if (value !== undefined) out[`key-${i}`] = value;
      }
    }
    return out;
  }
  return `${path.split('.').pop()}-${v.name}`;
}

/** The objects of a kind whose Tables are compared: bare, and filled in two ways. */
function objectsOf(kind: string, apiVersion: string, schema: Schema): ApiObject[] {
  const metadata = (name: string) => ({ name, namespace: 'ns', uid: `uid-${name}`, creationTimestamp: CREATED });
  const bare: ApiObject = { apiVersion, kind, metadata: metadata('bare') };
  const filled = VARIANTS.map((v) => {
    const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = sample(schema, kind, v, 0) as Record<string, unknown>;
    return { ...rest, apiVersion, kind, metadata: metadata(v.name) } as ApiObject;
  });
  return [bare, ...filled];
}

/** Every built-in kind's Table (one row per generated object), keyed by group/version/kind. */
function currentTables(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const def of builtinResources()) {
    const apiVersion = def.group ? `${def.group}/${def.version}` : def.version;
    const key = `${apiVersion}/${def.resource}`;
    const objects = objectsOf(def.kind, apiVersion, def.schema);
    const table = buildTable(def, objects, { now: NOW, includeObject: 'None' });
    out[key] = JSON.stringify(table);
  }
  return out;
}

describe('Tables of the built-in kinds', () => {
  it('are byte for byte the recorded ones', () => {
    const current = currentTables();
    if (process.env.ORCH_RECORD_TABLES === '1') {
      writeFileSync(GOLDEN, `${JSON.stringify(current, null, 1)}\n`);
    }
    const recorded = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(current).sort(), Object.keys(recorded).sort());
    for (const [key, table] of Object.entries(current)) assert.equal(table, recorded[key], key);
  });

  it('fill the generated objects’ cells (the objects reach the columns)', () => {
    const current = currentTables();
    const deployments = JSON.parse(current['apps/v1/deployments']);
    assert.deepEqual(
      deployments.columnDefinitions.map((c: { name: string }) => c.name),
      ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector'],
    );
    assert.equal(deployments.rows.length, 3);
    assert.notDeepEqual(deployments.rows[1].cells, deployments.rows[0].cells);
  });
});
