import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { liveListAfterMerge } from './strategic-merge-list.js';
import { mergeItemSchema, runStrategicMergeCases } from './testing/merge-item-schema.js';

const schema = mergeItemSchema();
const named = (...names: Array<string | number>) => names.map((name) => ({ name }));

describe('strategic merge: $setElementOrder places server-only items as kube does', () => {
  runStrategicMergeCases(schema, [
    {
      name: 'a deleted item frees its slot for the added one: live [s1 s2 s4] gives [s2 s4 s3]',
      original: { mergingList: named('s1', 's2', 's4') },
      patch: {
        '$setElementOrder/mergingList': named('s2', 's3'),
        mergingList: [{ name: 's3' }, { name: 's1', $patch: 'delete' }],
      },
      expected: { mergingList: named('s2', 's4', 's3') },
    },
    {
      name: 'a server-only item goes first when the added item takes the deleted slot after it',
      original: {
        mergingList: [
          { name: 1, other: 'a' },
          { name: 4, other: 'c' },
        ],
      },
      patch: {
        '$setElementOrder/mergingList': named(2, 3),
        mergingList: [{ name: 2 }, { name: 3 }, { name: 1, $patch: 'delete' }],
      },
      expected: { mergingList: [{ name: 4, other: 'c' }, { name: 2 }, { name: 3 }] },
    },
    {
      name: 'two deletions, one addition: the server-only item sits between the kept and the added item',
      original: { mergingList: named('a', 'b', 'c', 'd') },
      patch: {
        '$setElementOrder/mergingList': named('c', 'x'),
        mergingList: [{ name: 'x' }, { name: 'a', $patch: 'delete' }, { name: 'b', $patch: 'delete' }],
      },
      expected: { mergingList: named('c', 'd', 'x') },
    },
    {
      name: 'one deletion, two additions: only the first addition is placed after the server-only item',
      original: { mergingList: named('a', 'b', 'c') },
      patch: {
        '$setElementOrder/mergingList': named('b', 'x', 'y'),
        mergingList: [{ name: 'x' }, { name: 'y' }, { name: 'a', $patch: 'delete' }],
      },
      expected: { mergingList: named('b', 'c', 'x', 'y') },
    },
    {
      name: 'without a deletion an added item goes before the server-only items that follow',
      original: { mergingList: named('s1', 's2', 's4') },
      patch: { '$setElementOrder/mergingList': named('s1', 's2', 's3'), mergingList: [{ name: 's3' }] },
      expected: { mergingList: named('s1', 's2', 's3', 's4') },
    },
    {
      name: 'merges the fields of items that stay; the server-only item precedes the slot it now holds',
      original: { mergingList: [{ name: 's1' }, { name: 's2', value: 'x' }, { name: 's4', other: 'keep' }] },
      patch: {
        '$setElementOrder/mergingList': named('s3', 's2'),
        mergingList: [{ name: 's3' }, { name: 's2', value: 'y' }, { name: 's1', $patch: 'delete' }],
      },
      expected: { mergingList: [{ name: 's4', other: 'keep' }, { name: 's3' }, { name: 's2', value: 'y' }] },
    },
    {
      name: 'server-only maps keep their place before the items they preceded live',
      original: { mergingList: named(1, 7, 2, 8, 3) },
      patch: { '$setElementOrder/mergingList': named(3, 2, 1) },
      expected: { mergingList: named(7, 8, 3, 2, 1) },
    },
    {
      name: 'server-only ints keep their place before the items they preceded live',
      original: { mergingIntList: [1, 7, 2, 8, 3] },
      patch: { '$setElementOrder/mergingIntList': [3, 2, 1] },
      expected: { mergingIntList: [7, 8, 3, 2, 1] },
    },
    {
      name: 'ints: an addition and a deletion leave the server-only items in live order at the end',
      original: { mergingIntList: [1, 2, 3, 9] },
      patch: {
        '$setElementOrder/mergingIntList': [4, 2, 1],
        mergingIntList: [4],
        '$deleteFromPrimitiveList/mergingIntList': [3],
      },
      expected: { mergingIntList: [4, 2, 1, 9] },
    },
    {
      name: 'ints: a deletion frees no slot (scalar lists are not edited in place)',
      original: { mergingIntList: [1, 2, 4] },
      patch: {
        '$setElementOrder/mergingIntList': [2, 3],
        mergingIntList: [3],
        '$deleteFromPrimitiveList/mergingIntList': [1],
      },
      expected: { mergingIntList: [2, 3, 4] },
    },
    {
      name: 'a $patch: replace item keeps only the patch items, in the given order',
      original: { mergingList: named('a', 'b', 'c') },
      patch: {
        '$setElementOrder/mergingList': named('y', 'x'),
        mergingList: [{ $patch: 'replace' }, { name: 'y' }, { name: 'x' }],
      },
      expected: { mergingList: named('y', 'x') },
    },
  ]);
});

describe('liveListAfterMerge', () => {
  const meta = { node: {}, strategy: 'merge', retainKeys: false, mergeKey: 'name' };
  const cases: Array<{ name: string; live: unknown[]; patch: unknown[]; meta?: typeof meta; expected: unknown[] }> = [
    { name: 'nothing deleted reads as live', live: named(1, 2), patch: named(3), expected: named(1, 2) },
    {
      name: 'a deletion shifts left and leaves a stale copy of the tail',
      live: named(1, 2, 3),
      patch: [{ name: 1, $patch: 'delete' }],
      expected: named(2, 3, 3),
    },
    {
      name: 'additions fill the freed slots in patch order',
      live: named(1, 2, 3),
      patch: [{ name: 9 }, { name: 8 }, { name: 1, $patch: 'delete' }],
      expected: named(2, 3, 9),
    },
    {
      name: 'items merged into the live list or named twice take no slot',
      live: named(1, 2, 3),
      patch: [{ name: 2 }, { name: 9 }, { name: 9 }, { name: 1, $patch: 'delete' }, { name: 3, $patch: 'delete' }],
      expected: named(2, 9, 3),
    },
    {
      name: 'a deletion removes every item with the key',
      live: named(1, 2, 1, 3),
      patch: [{ name: 1, $patch: 'delete' }],
      expected: named(2, 3, 3, 3),
    },
    {
      name: 'replace appends nothing',
      live: named(1, 2),
      patch: [{ name: 9 }, { $patch: 'replace' }, { name: 1, $patch: 'delete' }],
      expected: named(2, 2),
    },
    {
      name: 'a list that is replaced is not edited',
      live: named(1, 2),
      patch: [{ name: 1, $patch: 'delete' }],
      meta: { ...meta, strategy: '' },
      expected: named(1, 2),
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const live = structuredClone(c.live);
      assert.deepEqual(liveListAfterMerge(live, c.patch, c.meta ?? meta), c.expected);
      assert.deepEqual(live, c.live, 'live list was modified');
    });
  }
});
