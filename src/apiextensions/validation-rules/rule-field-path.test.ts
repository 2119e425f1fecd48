import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../../apis/schema/schema.js';
import { validFieldPath } from './rule-field-path.js';

const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        'a.b': { type: 'string' },
        "it's": { type: 'string' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        byName: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { port: { type: 'integer' } } },
        },
        list: { type: 'array', items: { type: 'object', properties: { x: { type: 'string' } } } },
      },
    },
  },
};

describe('validFieldPath', () => {
  const ok: [string, string, Schema['type']][] = [
    ['.spec', 'spec', 'object'],
    ['.spec.replicas', 'spec.replicas', 'integer'],
    ["['spec']['replicas']", 'spec.replicas', 'integer'],
    [".spec['a.b']", 'spec.a.b', 'string'],
    [".spec['it\\'s']", "spec.it's", 'string'],
    [".spec.labels['app.kubernetes.io/name']", 'spec.labels[app.kubernetes.io/name]', 'string'],
    ['.spec.labels.app', 'spec.labels[app]', 'string'],
    [".spec.byName['web'].port", 'spec.byName[web].port', 'integer'],
    ['.spec.list', 'spec.list', 'array'],
  ];
  for (const [path, want, type] of ok) {
    it(`${path} → ${want}`, () => {
      const got = validFieldPath(path, schema);
      assert.equal(got.error, undefined);
      if (got.error === undefined) {
        assert.equal(got.path, want);
        assert.equal(got.schema.type, type);
      }
    });
  }

  const bad: [string, string][] = [
    ['spec', 'expected [ or . but got: spec'],
    ['.nope', 'does not refer to a valid field'],
    ['.spec.replicas.x', 'does not refer to a valid field'],
    ['.spec.list.x', 'does not refer to a valid field'],
    ['.spec.list[0]', 'expected single quoted string but got 0'],
    ['.spec.', 'unexpected end of JSON path'],
    ["['spec'", 'unexpected end of JSON path'],
    ["['spec')", 'expected ] but got )'],
    ["['spec", "expected single quoted string but got 'spec"],
    ["['spec'.", 'expected ] but got .'],
    [".spec['a\\qb']", 'invalid string literal'],
    ['.spec. replicas', 'does not refer to a valid field'],
  ];
  for (const [path, error] of bad) {
    it(`${path} is invalid: ${error}`, () => assert.deepEqual(validFieldPath(path, schema), { error }));
  }
});
