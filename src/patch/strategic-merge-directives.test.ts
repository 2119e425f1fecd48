import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../apis/schema/schema.js';
import { StrategicMergePatchError, type StrategicMergePatchErrorKind } from './errors.js';
import { applyStrategicMergePatch, schemaSupportsStrategicMerge } from './strategic-merge.js';
import { mergeItemSchema, runStrategicMergeCases, type StrategicMergeCase } from './testing/merge-item-schema.js';

const schema = mergeItemSchema();

function runCases(cases: StrategicMergeCase[]): void {
  runStrategicMergeCases(schema, cases);
}

describe('strategic merge: $setElementOrder', () => {
  runCases([
    {
      name: 'adds an int and keeps the given order, server-only items interleaved',
      original: { mergingIntList: [1, 4, 2] },
      patch: { '$setElementOrder/mergingIntList': [3, 1, 2], mergingIntList: [3] },
      expected: { mergingIntList: [3, 1, 4, 2] },
    },
    {
      name: 'adds an int at the position $setElementOrder gives',
      original: { mergingIntList: [1, 2, 4] },
      patch: { '$setElementOrder/mergingIntList': [1, 2, 3], mergingIntList: [3] },
      expected: { mergingIntList: [1, 2, 3, 4] },
    },
    {
      name: 'orders and deletes scalars',
      original: { mergingIntList: [1, 2, 3] },
      patch: { '$setElementOrder/mergingIntList': [2, 1], '$deleteFromPrimitiveList/mergingIntList': [3] },
      expected: { mergingIntList: [2, 1] },
    },
    {
      name: 'names items missing from the list without adding them',
      original: { mergingIntList: [1, 3] },
      patch: { '$setElementOrder/mergingIntList': [3, 2, 1] },
      expected: { mergingIntList: [3, 1] },
    },
    {
      name: 'reorders maps with server-only items at the end',
      original: {
        mergingList: [
          { name: 1, other: 'a' },
          { name: 3, value: 3 },
          { name: 4, value: 4 },
          { name: 2, value: 2 },
          { name: 9 },
        ],
      },
      patch: { '$setElementOrder/mergingList': [{ name: 4 }, { name: 2 }, { name: 3 }, { name: 1 }] },
      expected: {
        mergingList: [
          { name: 4, value: 4 },
          { name: 2, value: 2 },
          { name: 3, value: 3 },
          { name: 1, other: 'a' },
          { name: 9 },
        ],
      },
    },
    {
      name: 'keeps server-only maps after their live predecessor',
      original: {
        mergingList: [
          { name: 1, other: 'a' },
          { name: 2, value: 2 },
          { name: 7 },
          { name: 9 },
          { name: 8 },
          { name: 3, value: 3 },
          { name: 4, value: 4 },
        ],
      },
      patch: { '$setElementOrder/mergingList': [{ name: 2 }, { name: 1 }, { name: 4 }, { name: 3 }] },
      expected: {
        mergingList: [
          { name: 2, value: 2 },
          { name: 1, other: 'a' },
          { name: 7 },
          { name: 9 },
          { name: 8 },
          { name: 4, value: 4 },
          { name: 3, value: 3 },
        ],
      },
    },
    {
      name: 'deletes from one list and reorders another',
      original: {
        mergingList: [
          { name: 'a', value: 'a' },
          { name: 'b', value: 'b' },
        ],
        retainKeysMergingList: [
          { name: 'c', value: 'c' },
          { name: 'd', value: 'd' },
        ],
      },
      patch: {
        '$setElementOrder/mergingList': [{ name: 'b' }],
        '$setElementOrder/retainKeysMergingList': [{ name: 'd' }, { name: 'c' }],
        mergingList: [{ $patch: 'delete', name: 'a' }],
      },
      expected: {
        mergingList: [{ name: 'b', value: 'b' }],
        retainKeysMergingList: [
          { name: 'd', value: 'd' },
          { name: 'c', value: 'c' },
        ],
      },
    },
    {
      name: 'orders a list the original lacks',
      original: {},
      patch: {
        '$setElementOrder/mergingList': [{ name: 'c' }, { name: 'b' }, { name: 'a' }],
        mergingList: [{ name: 'b', value: null }, { name: 'a' }, { name: 'x', $patch: 'delete' }],
      },
      expected: { mergingList: [{ name: 'b', value: null }, { name: 'a' }] },
    },
  ]);
});

describe('strategic merge: $retainKeys', () => {
  runCases([
    {
      name: 'clears keys not retained',
      original: { retainKeysMap: { value: 'foo' } },
      patch: { retainKeysMap: { $retainKeys: ['other'], other: 'bar' } },
      expected: { retainKeysMap: { other: 'bar' } },
    },
    {
      name: 'switches a discriminated union',
      original: { retainKeysMap: { name: 'type1', value: 'foo' } },
      patch: { retainKeysMap: { $retainKeys: ['name', 'other'], name: 'type2', other: 'bar' } },
      expected: { retainKeysMap: { name: 'type2', other: 'bar' } },
    },
    {
      name: 'adds a field and clears another',
      original: { retainKeysMap: { name: 'foo', other: 'a' } },
      patch: { retainKeysMap: { $retainKeys: ['name', 'value'], value: 'bar' } },
      expected: { retainKeysMap: { name: 'foo', value: 'bar' } },
    },
    {
      name: 'without the directive the map just merges',
      original: { retainKeysMap: { name: 'foo', value: 'a' } },
      patch: { retainKeysMap: { value: null } },
      expected: { retainKeysMap: { name: 'foo' } },
    },
    {
      name: 'applies within items of a list',
      original: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a', other: 'o' }] },
      patch: { retainKeysMergingList: [{ name: 'foo', $retainKeys: ['name', 'other'], other: 'p' }] },
      expected: { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', other: 'p' }] },
    },
    {
      name: 'null patch values need not be retained',
      original: { retainKeysMap: { name: 'foo', value: 'a' } },
      patch: { retainKeysMap: { $retainKeys: ['name'], value: null } },
      expected: { retainKeysMap: { name: 'foo' } },
    },
  ]);
});

function smpFailure(original: unknown, patch: unknown): StrategicMergePatchError {
  try {
    applyStrategicMergePatch(original, patch, schema);
  } catch (e) {
    assert.ok(e instanceof StrategicMergePatchError, `expected a StrategicMergePatchError, got ${String(e)}`);
    return e;
  }
  assert.fail('patch applied but was expected to fail');
}

describe('strategic merge: errors', () => {
  const cases: {
    name: string;
    original: unknown;
    patch: unknown;
    kind: StrategicMergePatchErrorKind;
    code: number;
    message: string;
  }[] = [
    {
      name: 'merge key missing in a patch item',
      original: { mergingList: [{ name: '1', value: 'a' }] },
      patch: { mergingList: [{ value: 'b' }] },
      kind: 'no-merge-key',
      code: 500,
      message: 'map: map[value:b] does not contain declared merge key: name',
    },
    {
      name: 'merge key missing in a $patch: delete item',
      original: { mergingList: [{ name: '1' }] },
      patch: { mergingList: [{ $patch: 'delete', value: 'b' }] },
      kind: 'no-merge-key',
      code: 500,
      message: 'map: map[$patch:delete value:b] does not contain declared merge key: name',
    },
    {
      name: 'unknown $patch in a map',
      original: { simpleMap: { a: 'b' } },
      patch: { simpleMap: { $patch: 'explode' } },
      kind: 'bad-directive',
      code: 500,
      message: 'unknown patch type: explode in map: map[$patch:explode]',
    },
    {
      name: '$patch: merge in a map',
      original: {},
      patch: { $patch: 'merge', name: 'x' },
      kind: 'bad-directive',
      code: 500,
      message: 'unknown patch type: merge in map: map[$patch:merge name:x]',
    },
    {
      name: 'non-string $patch',
      original: {},
      patch: { $patch: true },
      kind: 'bad-directive',
      code: 500,
      message: 'unknown patch type: %!s(bool=true) in map: map[$patch:true]',
    },
    {
      name: '$patch: merge as a list item',
      original: { mergingList: [{ name: '1' }] },
      patch: { mergingList: [{ $patch: 'merge' }] },
      kind: 'bad-directive',
      code: 500,
      message: 'merging lists cannot yet be specified in the patch',
    },
    {
      name: 'setElementOrder disagreeing with the patch list',
      original: { mergingList: [{ name: 1 }, { name: 3 }, { name: 2 }] },
      patch: {
        '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }, { name: 3 }],
        mergingList: [
          { name: 3, value: 3 },
          { name: 1, value: 1 },
        ],
      },
      kind: 'order-mismatch',
      code: 500,
      message:
        "The order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n",
    },
    {
      name: 'setElementOrder of int list disagreeing with the patch list',
      original: { mergingIntList: [1, 3, 2] },
      patch: { '$setElementOrder/mergingIntList': [1, 2, 3], mergingIntList: [3, 1] },
      kind: 'order-mismatch',
      code: 500,
      message: "The order in patch list:\n[3 1]\n doesn't match $setElementOrder list:\n[1 2 3]\n",
    },
    {
      name: '$retainKeys not a list',
      original: { retainKeysMap: { name: 'a' } },
      patch: { retainKeysMap: { $retainKeys: 'name' } },
      kind: 'bad-retain-keys',
      code: 400,
      message: 'invalid patch format of retainKeys',
    },
    {
      name: 'patch key missing from $retainKeys',
      original: { retainKeysMap: { name: 'a' } },
      patch: { retainKeysMap: { $retainKeys: ['name'], value: 'v' } },
      kind: 'bad-retain-keys',
      code: 400,
      message: 'invalid patch format of retainKeys',
    },
    {
      name: 'malformed $setElementOrder key',
      original: { mergingIntList: [1] },
      patch: { $setElementOrder: [1] },
      kind: 'bad-set-element-order',
      code: 400,
      message: 'invalid patch format of setElementOrder list',
    },
    {
      name: 'malformed $deleteFromPrimitiveList key',
      original: { mergingIntList: [1] },
      patch: { '$deleteFromPrimitiveListX/mergingIntList': [1] },
      kind: 'bad-primitive-list',
      code: 400,
      message: 'invalid patch format of primitive list',
    },
    {
      name: '$setElementOrder that is not a list',
      original: { mergingIntList: [1] },
      patch: { '$setElementOrder/mergingIntList': 'x' },
      kind: 'bad-argument-type',
      code: 500,
      message: 'expected a []interface {}, but received a string',
    },
    {
      name: 'lists of lists',
      original: { mergingIntList: [[1]] },
      patch: { mergingIntList: [[2]] },
      kind: 'list-of-lists',
      code: 422,
      message: 'lists of lists are not supported',
    },
    {
      name: 'mixed element types',
      original: { mergingIntList: [1, 2] },
      patch: { mergingIntList: ['3'] },
      kind: 'element-type-mismatch',
      code: 500,
      message: 'list element types are not identical: [[1 2] [3]]',
    },
    {
      name: 'maps on both sides of a field the type lacks',
      original: { complex: { nested: true } },
      patch: { complex: { nested: false } },
      kind: 'unknown-field',
      code: 500,
      message: 'unable to find api field in struct MergeItem for the json field "complex"',
    },
    {
      name: '$setElementOrder of a field the type lacks',
      original: {},
      patch: { '$setElementOrder/bogus': ['a'] },
      kind: 'unknown-field',
      code: 500,
      message: 'unable to find api field in struct MergeItem for the json field "bogus"',
    },
    {
      name: 'a patch that is not an object',
      original: {},
      patch: [{ name: 'a' }],
      kind: 'bad-json-document',
      code: 400,
      message: 'json: cannot unmarshal array into Go value of type map[string]interface {}',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const err = smpFailure(c.original, c.patch);
      assert.equal(err.kind, c.kind);
      assert.equal(err.code, c.code);
      assert.equal(err.message, c.message);
    });
  }

  it('copies an unknown field the original lacks (left for pruning to report)', () => {
    assert.deepEqual(applyStrategicMergePatch({ name: 'a' }, { complex: { nested: true, gone: null } }, schema), {
      name: 'a',
      complex: { nested: true },
    });
  });
});

describe('schemaSupportsStrategicMerge', () => {
  it('accepts named compiled-in types and schemas with patch metadata', () => {
    assert.equal(schemaSupportsStrategicMerge(schema), true);
    assert.equal(
      schemaSupportsStrategicMerge({
        type: 'object',
        properties: {
          spec: { type: 'object', properties: { l: { type: 'array', 'x-orch-patch-strategy': 'merge' } } },
        },
      }),
      true,
    );
  });

  it('rejects custom-resource-like schemas, even with a built-in metadata schema', () => {
    const metadata: Schema = {
      type: 'object',
      properties: { finalizers: { type: 'array', items: { type: 'string' }, 'x-orch-patch-strategy': 'merge' } },
    };
    assert.equal(schemaSupportsStrategicMerge({ type: 'object', 'x-orch-preserve-unknown-fields': true }), false);
    assert.equal(
      schemaSupportsStrategicMerge({
        type: 'object',
        properties: {
          metadata,
          spec: { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } } },
        },
      }),
      false,
    );
  });
});
