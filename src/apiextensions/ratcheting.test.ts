import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrors } from '../apis/meta/field-error.js';
import type { Schema } from '../apis/schema/schema.js';
import { ratchetSchemaErrors } from './ratcheting.js';

const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'string' },
        ports: {
          type: 'array',
          'x-orch-list-type': 'map',
          'x-orch-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
        },
        tags: { type: 'array', items: { type: 'string' } },
      },
    },
  },
};

describe('validation ratcheting', () => {
  const old = { spec: { a: 'bad', b: 'x', ports: [{ name: 'p', port: 'x' }], tags: ['bad', 'y'] } };
  const cases: { name: string; now: unknown; field: string; kept: boolean }[] = [
    { name: 'an unchanged invalid value', now: { spec: { ...old.spec, b: 'changed' } }, field: 'spec.a', kept: false },
    { name: 'a changed invalid value', now: { spec: { ...old.spec, a: 'worse' } }, field: 'spec.a', kept: true },
    { name: 'a new value', now: { spec: { ...old.spec, c: 1 } }, field: 'spec.c', kept: true },
    {
      name: 'an unchanged item of a map list moved elsewhere',
      now: {
        spec: {
          ...old.spec,
          ports: [
            { name: 'q', port: 1 },
            { name: 'p', port: 'x' },
          ],
        },
      },
      field: 'spec.ports[1].port',
      kept: false,
    },
    {
      name: 'an item of an atomic list that changed',
      now: { spec: { ...old.spec, tags: ['bad', 'z'] } },
      field: 'spec.tags[0]',
      kept: true,
    },
    {
      name: 'an unchanged atomic list',
      now: { spec: { ...old.spec, a: 'other' } },
      field: 'spec.tags[0]',
      kept: false,
    },
  ];
  for (const c of cases) {
    it(`${c.kept ? 'keeps' : 'drops'} the error of ${c.name}`, () => {
      const err = fieldErrors.invalid(c.field, 'x', 'bad');
      assert.deepEqual(ratchetSchemaErrors([err], c.now, old, schema), c.kept ? [err] : []);
    });
  }
});
