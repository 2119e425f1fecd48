import { describe } from 'node:test';
import { mergeItemSchema, runStrategicMergeCases, type StrategicMergeCase } from './testing/merge-item-schema.js';

const schema = mergeItemSchema();

function runCases(cases: StrategicMergeCase[]): void {
  runStrategicMergeCases(schema, cases);
}

describe('strategic merge: maps and $patch on maps', () => {
  runCases([
    { name: 'null patch is empty', original: { name: 'a' }, patch: null, expected: { name: 'a' } },
    {
      name: 'sets and replaces scalars',
      original: { name: 'a', value: 'x' },
      patch: { value: 'y', other: 'z' },
      expected: { name: 'a', value: 'y', other: 'z' },
    },
    {
      name: 'null deletes a key',
      original: { name: 'a', value: 'x' },
      patch: { value: null },
      expected: { name: 'a' },
    },
    {
      name: 'null for an absent key is ignored',
      original: { name: 'a' },
      patch: { value: null },
      expected: { name: 'a' },
    },
    {
      name: 'maps merge recursively',
      original: { simpleMap: { key1: '1', key2: '2' } },
      patch: { simpleMap: { key2: null, key3: '3' } },
      expected: { simpleMap: { key1: '1', key3: '3' } },
    },
    {
      name: '$patch: delete empties a map',
      original: { simpleMap: { key1: '1', key2: '2' } },
      patch: { simpleMap: { $patch: 'delete' } },
      expected: { simpleMap: {} },
    },
    {
      name: '$patch: replace at the top level keeps only the patch',
      original: { name: 'a', value: 'b' },
      patch: { other: 'c', $patch: 'replace' },
      expected: { other: 'c' },
    },
    {
      name: '$patch: replace in a nested map',
      original: { simpleMap: { key1: '1' }, name: 'n' },
      patch: { simpleMap: { $patch: 'replace', key9: '9' } },
      expected: { simpleMap: { key9: '9' }, name: 'n' },
    },
    {
      name: 'a new key drops nested nulls and $patch maps (kube: removeDirectives)',
      original: {},
      patch: { openItem: { a: null, b: { $patch: 'delete' }, c: [{ $patch: 'replace' }, 'x', null], d: 1 } },
      expected: { openItem: { c: ['x', null], d: 1 } },
    },
    {
      name: 'a new key whose value is a $patch map is dropped',
      original: {},
      patch: { simpleMap: { $patch: 'replace', key: 'v' } },
      expected: {},
    },
    {
      name: 'strategy replace replaces a map as given',
      original: { replacingItem: { Some: 'Generic', Field: 'Period' } },
      patch: { replacingItem: { Newly: 'Modified', Gone: null } },
      expected: { replacingItem: { Newly: 'Modified', Gone: null } },
    },
    {
      name: 'preserve-unknown-fields maps merge, their lists are replaced',
      original: { openItem: { a: { b: 1, c: 2 }, list: [1, 2] } },
      patch: { openItem: { a: { c: null, d: 3 }, list: [3] } },
      expected: { openItem: { a: { b: 1, d: 3 }, list: [3] } },
    },
    {
      name: 'a type change takes the patch value',
      original: { openItem: { a: 'scalar' } },
      patch: { openItem: { a: { b: null, c: 1 } } },
      expected: { openItem: { a: { c: 1 } } },
    },
  ]);
});

describe('strategic merge: lists', () => {
  runCases([
    {
      name: 'merge-strategy scalar lists merge as sets',
      original: { mergingIntList: [1, 2] },
      patch: { mergingIntList: [2, 3] },
      expected: { mergingIntList: [1, 2, 3] },
    },
    {
      name: 'new scalars come before server-only items (kube order rule)',
      original: { mergingIntList: [1, 2] },
      patch: { mergingIntList: [3] },
      expected: { mergingIntList: [3, 1, 2] },
    },
    {
      name: 'patch order wins for the items it names',
      original: { mergingIntList: [1, 2, 3] },
      patch: { mergingIntList: [3, 1] },
      expected: { mergingIntList: [2, 3, 1] },
    },
    {
      name: 'lists without a strategy are replaced',
      original: { nonMergingIntList: [1, 2], nonMergingList: [{ name: 'a', value: 'x' }] },
      patch: { nonMergingIntList: [3], nonMergingList: [{ name: 'a' }] },
      expected: { nonMergingIntList: [3], nonMergingList: [{ name: 'a' }] },
    },
    {
      name: 'maps merge by merge key and keep the patch order',
      original: { mergingList: [{ name: '1' }, { name: '2', value: 'b' }, { name: '3' }] },
      patch: {
        mergingList: [
          { name: '3', value: 'c' },
          { name: '1', value: 'a' },
          { name: '2', other: 'x' },
        ],
      },
      expected: {
        mergingList: [
          { name: '3', value: 'c' },
          { name: '1', value: 'a' },
          { name: '2', value: 'b', other: 'x' },
        ],
      },
    },
    {
      name: 'server-only maps interleave by live order',
      original: { mergingList: [{ name: '1' }, { name: '2', value: 'b' }, { name: '3' }] },
      patch: {
        mergingList: [
          { name: '3', value: 'c' },
          { name: '1', value: 'a' },
        ],
      },
      expected: {
        mergingList: [
          { name: '2', value: 'b' },
          { name: '3', value: 'c' },
          { name: '1', value: 'a' },
        ],
      },
    },
    {
      name: 'a null inside a merged item deletes that field',
      original: { mergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
      patch: { mergingList: [{ name: 'foo', value: null }] },
      expected: { mergingList: [{ name: 'bar' }, { name: 'foo' }] },
    },
    {
      name: 'a nested merging list merges within the item',
      original: { mergingList: [{ name: '1', mergingList: [{ name: 'a', value: '1' }] }] },
      patch: { mergingList: [{ name: '1', mergingList: [{ name: 'b' }] }] },
      expected: { mergingList: [{ name: '1', mergingList: [{ name: 'b' }, { name: 'a', value: '1' }] }] },
    },
    {
      name: 'an appended item keeps its nulls as given (kube appends verbatim)',
      original: { mergingList: [{ name: '1' }] },
      patch: { mergingList: [{ name: '2', value: null }] },
      expected: { mergingList: [{ name: '2', value: null }, { name: '1' }] },
    },
    {
      name: '$patch: delete removes every item with that key',
      original: {
        mergingList: [{ name: 1 }, { name: 1 }, { name: 2, value: 'a' }, { name: 3 }, { name: 3 }],
      },
      patch: {
        mergingList: [
          { name: 1, $patch: 'delete' },
          { name: 3, $patch: 'delete' },
        ],
      },
      expected: { mergingList: [{ name: 2, value: 'a' }] },
    },
    {
      name: '$patch: delete of a missing item is a no-op',
      original: { mergingList: [{ name: '1', value: 'a' }] },
      patch: { mergingList: [{ name: '9', $patch: 'delete' }] },
      expected: { mergingList: [{ name: '1', value: 'a' }] },
    },
    {
      name: 'add one item and delete another',
      original: { mergingList: [{ name: '1' }, { name: '2' }] },
      patch: { mergingList: [{ name: '3' }, { name: '1', $patch: 'delete' }] },
      expected: { mergingList: [{ name: '3' }, { name: '2' }] },
    },
    {
      name: '$patch: replace as a list item replaces the list',
      original: { mergingList: [{ name: '1' }, { name: '2' }] },
      patch: { mergingList: [{ $patch: 'replace' }, { name: '3', value: 'c' }] },
      expected: { mergingList: [{ name: '3', value: 'c' }] },
    },
    {
      name: '$patch: replace alone empties the list',
      original: { mergingList: [{ name: '1' }, { name: '2' }] },
      patch: { mergingList: [{ $patch: 'replace' }] },
      expected: { mergingList: [] },
    },
    {
      name: 'empty lists merge to an empty list',
      original: { mergingList: [] },
      patch: { mergingList: [] },
      expected: { mergingList: [] },
    },
    {
      name: 'null deletes a list',
      original: { mergingList: [{ name: '1' }] },
      patch: { mergingList: null },
      expected: {},
    },
  ]);
});

describe('strategic merge: $deleteFromPrimitiveList', () => {
  runCases([
    {
      name: 'deletes from a merge-strategy list',
      original: { mergingIntList: [1, 2, 3] },
      patch: { '$deleteFromPrimitiveList/mergingIntList': [2] },
      expected: { mergingIntList: [1, 3] },
    },
    {
      name: 'deletes from a list without a strategy too',
      original: { nonMergingIntList: [1, 2, 3] },
      patch: { '$deleteFromPrimitiveList/nonMergingIntList': [2] },
      expected: { nonMergingIntList: [1, 3] },
    },
    {
      name: 'deletes every duplicate',
      original: { mergingIntList: [1, 2, 2, 3] },
      patch: { '$deleteFromPrimitiveList/mergingIntList': [2] },
      expected: { mergingIntList: [1, 3] },
    },
    {
      name: 'a missing item is not added',
      original: { mergingIntList: [1, 2] },
      patch: { '$deleteFromPrimitiveList/mergingIntList': [3] },
      expected: { mergingIntList: [1, 2] },
    },
    {
      name: 'a missing list is not created',
      original: { nonMergingList: [] },
      patch: { '$deleteFromPrimitiveList/mergingIntList': [3] },
      expected: { nonMergingList: [] },
    },
    {
      name: 'add and delete in one patch',
      original: { mergingIntList: [1, 2] },
      patch: { mergingIntList: [3], '$deleteFromPrimitiveList/mergingIntList': [1] },
      expected: { mergingIntList: [3, 2] },
    },
  ]);
});
