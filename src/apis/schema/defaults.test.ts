import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyDefaults, canonicalizeTimestamps } from './defaults.js';
import type { Schema } from './schema.js';

const schema: Schema = {
  type: 'object',
  properties: {
    type: { type: 'string', default: 'Opaque' },
    spec: {
      type: 'object',
      default: { replicas: 1 },
      properties: {
        replicas: { type: 'integer' },
        strategy: { type: 'object', properties: { kind: { type: 'string', default: 'Rolling' } } },
        list: { type: 'array', items: { type: 'object', properties: { p: { type: 'string', default: 'TCP' } } } },
        note: { type: 'string', nullable: true },
      },
    },
    map: { type: 'object', additionalProperties: { type: 'string' } },
    ref: { type: 'object', properties: { name: { type: 'string', 'x-orch-published-default': '' } } },
  },
};

describe('applyDefaults', () => {
  const cases: { name: string; obj: Record<string, unknown>; want: Record<string, unknown> }[] = [
    { name: 'absent fields get their defaults', obj: {}, want: { type: 'Opaque', spec: { replicas: 1 } } },
    {
      name: 'present values stay',
      obj: { type: 'tls', spec: { replicas: 3 } },
      want: { type: 'tls', spec: { replicas: 3 } },
    },
    {
      name: 'null on a non-nullable field with a default',
      obj: { type: null },
      want: { type: 'Opaque', spec: { replicas: 1 } },
    },
    {
      name: 'null without a default is dropped, unless nullable',
      obj: { spec: { replicas: null, note: null }, map: { a: null, b: 'x' } },
      want: { type: 'Opaque', spec: { note: null }, map: { b: 'x' } },
    },
    {
      name: 'defaults apply inside existing objects and list items, but do not create parents',
      obj: { spec: { strategy: {}, list: [{}, { p: 'UDP' }] } },
      want: { type: 'Opaque', spec: { strategy: { kind: 'Rolling' }, list: [{ p: 'TCP' }, { p: 'UDP' }] } },
    },
    {
      name: 'a published-only default (the zero of an omitempty Go field) is not applied',
      obj: { ref: {} },
      want: { type: 'Opaque', spec: { replicas: 1 }, ref: {} },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const obj = structuredClone(c.obj);
      applyDefaults(schema, obj);
      assert.deepEqual(obj, c.want);
      applyDefaults(schema, obj);
      assert.deepEqual(obj, c.want, 'idempotent');
    });
  }

  it('copies defaults instead of sharing them', () => {
    const a: Record<string, unknown> = {};
    const b: Record<string, unknown> = {};
    applyDefaults(schema, a);
    applyDefaults(schema, b);
    (a.spec as Record<string, unknown>).replicas = 5;
    assert.deepEqual(b.spec, { replicas: 1 });
  });
});

describe('canonicalizeTimestamps', () => {
  const timeSchema: Schema = {
    type: 'object',
    properties: {
      created: { type: 'string', format: 'date-time', 'x-orch-time-precision': 'second' },
      renewed: { type: 'string', format: 'date-time', 'x-orch-time-precision': 'microsecond' },
      history: { type: 'array', items: { type: 'string', 'x-orch-time-precision': 'microsecond' } },
      plain: { type: 'string' },
    },
  };
  it('writes Time in whole seconds and MicroTime with six digits, in UTC', () => {
    const obj = {
      created: '2024-05-06T07:08:09.987654+02:00',
      renewed: '2024-05-06T07:08:09.5Z',
      history: ['2024-05-06T07:08:09.123456789-01:30'],
      plain: '2024-05-06T07:08:09.5Z',
    };
    canonicalizeTimestamps(timeSchema, obj);
    assert.deepEqual(obj, {
      created: '2024-05-06T05:08:09Z',
      renewed: '2024-05-06T07:08:09.500000Z',
      history: ['2024-05-06T08:38:09.123456Z'],
      plain: '2024-05-06T07:08:09.5Z',
    });
  });
  it('leaves unparsable values for validation', () => {
    const obj = { created: 'yesterday' };
    canonicalizeTimestamps(timeSchema, obj);
    assert.deepEqual(obj, { created: 'yesterday' });
  });
  const unchanged: [string, Record<string, unknown>][] = [
    ['canonical values', { created: '2024-05-06T07:08:09Z', renewed: '2024-05-06T07:08:09.123456Z' }],
    ['a year before 100', { created: '0099-12-31T23:59:59Z', renewed: '0001-01-01T00:00:00.000000Z' }],
    ['canonical shapes that do not parse', { created: '2024-02-30T07:08:09Z', renewed: '2024-05-06T24:00:00.000000Z' }],
    ['a leap second', { created: '2016-12-31T23:59:60Z' }],
  ];
  for (const [name, obj] of unchanged) {
    it(`keeps ${name} as they are`, () => {
      const copy = structuredClone(obj);
      canonicalizeTimestamps(timeSchema, copy);
      assert.deepEqual(copy, obj);
    });
  }
  it('still rewrites the other precision of a canonical shape', () => {
    const obj = { created: '2024-05-06T07:08:09.123456Z', renewed: '2024-05-06T07:08:09Z' };
    canonicalizeTimestamps(timeSchema, obj);
    assert.deepEqual(obj, { created: '2024-05-06T07:08:09Z', renewed: '2024-05-06T07:08:09.000000Z' });
  });
});
