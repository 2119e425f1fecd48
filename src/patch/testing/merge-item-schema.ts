import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Schema } from '../../apis/schema/schema.js';
import { applyStrategicMergePatch } from '../strategic-merge.js';

/**
 * A test type modelled on the `MergeItem` struct of kube's strategicpatch tests: every kind of
 * patch metadata on one (recursive) type.
 */
export function mergeItemSchema(): Schema {
  const item: Schema = { type: 'object', 'x-orch-type-name': 'io.orch.test.MergeItem' };
  const retainKeysItem: Schema = {
    type: 'object',
    'x-orch-type-name': 'io.orch.test.RetainKeysMergeItem',
    properties: {
      name: { type: 'string' },
      value: { type: 'string' },
      other: { type: 'string' },
      simpleMap: { type: 'object', additionalProperties: { type: 'string' } },
      mergingIntList: { type: 'array', items: { type: 'integer' }, 'x-orch-patch-strategy': 'merge' },
      mergingList: { type: 'array', items: item, 'x-orch-patch-strategy': 'merge', 'x-orch-patch-merge-key': 'name' },
      nonMergingList: { type: 'array', items: item },
    },
  };
  item.properties = {
    name: { type: 'string' },
    value: { type: 'string' },
    other: { type: 'string' },
    mergingList: { type: 'array', items: item, 'x-orch-patch-strategy': 'merge', 'x-orch-patch-merge-key': 'name' },
    nonMergingList: { type: 'array', items: item },
    mergingIntList: { type: 'array', items: { type: 'integer' }, 'x-orch-patch-strategy': 'merge' },
    nonMergingIntList: { type: 'array', items: { type: 'integer' } },
    simpleMap: { type: 'object', additionalProperties: { type: 'string' } },
    replacingItem: { type: 'object', 'x-orch-preserve-unknown-fields': true, 'x-orch-patch-strategy': 'replace' },
    openItem: { type: 'object', 'x-orch-preserve-unknown-fields': true },
    retainKeysMap: { ...retainKeysItem, 'x-orch-patch-strategy': 'retainKeys' },
    retainKeysMergingList: {
      type: 'array',
      items: item,
      'x-orch-patch-strategy': 'merge,retainKeys',
      'x-orch-patch-merge-key': 'name',
    },
  };
  return item;
}

export interface StrategicMergeCase {
  name: string;
  original: Record<string, unknown>;
  patch: unknown;
  expected: unknown;
}

/** One test per case: the patch gives `expected`, and neither input is modified. */
export function runStrategicMergeCases(schema: Schema, cases: StrategicMergeCase[]): void {
  for (const c of cases) {
    it(c.name, () => {
      const originalBefore = JSON.stringify(c.original);
      const patchBefore = JSON.stringify(c.patch);
      assert.deepStrictEqual(applyStrategicMergePatch(c.original, c.patch, schema), c.expected);
      assert.equal(JSON.stringify(c.original), originalBefore, 'original was modified');
      assert.equal(JSON.stringify(c.patch), patchBefore, 'patch was modified');
    });
  }
}
