import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pruneUnknownFields } from './prune.js';
import type { Schema } from './schema.js';

const schema: Schema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: {
      type: 'object',
      properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } },
    },
    spec: {
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        free: {
          type: 'object',
          'x-orch-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        anything: { type: 'object', additionalProperties: true },
        opaque: { type: 'object' },
        embedded: {
          type: 'object',
          'x-orch-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } },
        },
      },
    },
  },
};

describe('pruneUnknownFields', () => {
  const cases: { name: string; obj: Record<string, unknown>; pruned: Record<string, unknown>; paths: string[] }[] = [
    {
      name: 'top-level and nested unknown fields',
      obj: { apiVersion: 'v1', kind: 'X', extra: 1, metadata: { name: 'a', bogus: true }, spec: { foo: 'bar' } },
      pruned: { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' }, spec: {} },
      paths: ['extra', 'metadata.bogus', 'spec.foo'],
    },
    {
      name: 'list items are pruned with indexed paths',
      obj: { spec: { items: [{ name: 'a', x: 1 }, { name: 'b' }, { y: 2 }] } },
      pruned: { spec: { items: [{ name: 'a' }, { name: 'b' }, {}] } },
      paths: ['spec.items[0].x', 'spec.items[2].y'],
    },
    {
      name: 'maps keep their keys',
      obj: { metadata: { labels: { a: 'b', c: 'd' } }, spec: { anything: { x: { y: 1 } } } },
      pruned: { metadata: { labels: { a: 'b', c: 'd' } }, spec: { anything: { x: { y: 1 } } } },
      paths: [],
    },
    {
      name: 'preserve-unknown-fields keeps unknown keys but prunes inside declared ones',
      obj: { spec: { free: { z: 1, known: { a: 'x', b: 'y' } } } },
      pruned: { spec: { free: { z: 1, known: { a: 'x' } } } },
      paths: ['spec.free.known.b'],
    },
    {
      name: 'an object schema declaring nothing loses all fields',
      obj: { spec: { opaque: { a: 1 } } },
      pruned: { spec: { opaque: {} } },
      paths: ['spec.opaque.a'],
    },
    {
      name: 'embedded resources keep apiVersion, kind and metadata',
      obj: {
        spec: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { any: 1 }, spec: { x: 'a', y: 'b' }, other: 1 } },
      },
      pruned: { spec: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { any: 1 }, spec: { x: 'a' } } } },
      paths: ['spec.embedded.spec.y', 'spec.embedded.other'],
    },
    {
      name: 'values of the wrong type are left for validation',
      obj: { spec: 'text', metadata: [1] },
      pruned: { spec: 'text', metadata: [1] },
      paths: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const obj = structuredClone(c.obj);
      assert.deepEqual(pruneUnknownFields(schema, obj), c.paths);
      assert.deepEqual(obj, c.pruned);
    });
  }

  it('prefixes the paths', () => {
    const obj = { a: 1 };
    assert.deepEqual(pruneUnknownFields({ type: 'object', properties: {} }, obj, 'spec'), ['spec.a']);
  });
});
