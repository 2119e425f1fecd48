import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyDefaults } from './defaults.js';
import { goDecodeError } from './go-type-decode.js';
import { pruneUnknownFields } from './prune.js';
import type { Schema } from './schema.js';

// The walks derive their facts once per schema object, linked node to node: a schema that
// reaches itself, and the less common shapes, walk as they did when read keyword by keyword.

function recursiveSchema(): Schema {
  const node: { -readonly [K in keyof Schema]: Schema[K] } = {
    type: 'object',
    'x-orch-type-name': 'io.example.v1.Node',
    properties: { name: { type: 'string', default: 'unnamed' }, size: { type: 'integer', format: 'int32' } },
  };
  (node.properties as Record<string, Schema>).children = { type: 'array', items: node as Schema };
  return node as Schema;
}

describe('schema walks over a schema that reaches itself', () => {
  const schema = recursiveSchema();
  const value = () => ({ name: 'a', children: [{ children: [{ size: 1, extra: true }] }] });

  it('prunes at every depth', () => {
    const obj = value();
    assert.deepEqual(pruneUnknownFields(schema, obj), ['children[0].children[0].extra']);
  });

  it('defaults at every depth', () => {
    const obj = value();
    applyDefaults(schema, obj);
    assert.deepEqual(obj, {
      name: 'a',
      children: [{ name: 'unnamed', children: [{ name: 'unnamed', size: 1, extra: true }] }],
    });
  });

  it('checks Go kinds and ranges at every depth', () => {
    assert.equal(
      goDecodeError(schema, { children: [{ children: [{ size: 2147483648 }] }] }),
      'json: cannot unmarshal number 2147483648 into Go struct field Node.children.children.size of type int32',
    );
    assert.equal(
      goDecodeError(schema, { children: [{ children: [{ name: 1 }] }] }),
      'json: cannot unmarshal number into Go struct field Node.children.children.name of type string',
    );
  });
});

describe('pruneUnknownFields: less common shapes', () => {
  const schema: Schema = {
    type: 'object',
    properties: {
      list: { type: 'array' },
      free: { type: 'array', 'x-orch-preserve-unknown-fields': true },
    },
  };

  it('empties the objects of a list without an item schema, except under preserve-unknown-fields', () => {
    const obj = { list: [{ a: 1 }, 2, [{ b: 1 }]], free: [{ c: 1 }] };
    assert.deepEqual(pruneUnknownFields(schema, obj), ['list[0].a', 'list[2][0].b']);
    assert.deepEqual(obj, { list: [{}, 2, [{}]], free: [{ c: 1 }] });
  });

  it('knows only the declared properties: inherited names such as toString are unknown fields', () => {
    const obj = JSON.parse('{"toString":{"a":1},"constructor":1,"__proto__":{"b":1},"other":1}');
    assert.deepEqual(pruneUnknownFields(schema, obj), ['toString', 'constructor', '__proto__', 'other']);
    assert.deepEqual(Object.keys(obj), []);
  });
});

describe('applyDefaults: copies of defaults of every kind', () => {
  const defaults = {
    s: 'x',
    n: 3,
    f: 0.1,
    big: 2 ** 60,
    z: -0,
    b: false,
    empty: {},
    object: { a: [1] },
    list: ['a'],
    nil: null,
  };
  const schema: Schema = {
    type: 'object',
    properties: Object.fromEntries(Object.entries(defaults).map(([k, d]) => [k, { default: d, nullable: true }])),
  };

  it('writes each default as a JSON round trip of it, never the schema’s own object', () => {
    const obj: Record<string, unknown> = {};
    applyDefaults(schema, obj);
    assert.deepStrictEqual(obj, {
      s: 'x',
      n: 3,
      f: 0.1,
      // Written as JSON writes 2^60, read back exactly.
      big: 1152921504606847000n,
      z: 0,
      b: false,
      empty: {},
      object: { a: [1] },
      list: ['a'],
      nil: null,
    });
    for (const key of ['empty', 'object', 'list'] as const) assert.notEqual(obj[key], defaults[key]);
  });
});
