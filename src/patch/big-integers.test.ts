import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonPatchError } from './errors.js';
import { goKind, goValue } from './go-format.js';
import { applyJsonPatch } from './json-patch.js';
import { applyMergePatch } from './merge-patch.js';
import { applyStrategicMergePatch } from './strategic-merge.js';
import { mergeItemSchema } from './testing/merge-item-schema.js';

/** Integers beyond 2^53 are `bigint`s: patches compare and copy them exactly. */
describe('patches with integers past 2^53', () => {
  const A = 9007199254740993n;
  const B = 9007199254740992n;

  it('are Go int64s within int64 and float64s past it', () => {
    assert.equal(goKind(A), 'int64');
    assert.equal(goKind(-(2n ** 63n)), 'int64');
    assert.equal(goKind(2n ** 63n), 'float64');
    assert.equal(goValue([A, 2n ** 63n]), '[9007199254740993 9.223372036854776e+18]');
  });

  it('JSON patch tests, copies and moves them exactly', () => {
    const doc = { a: A, l: [B] };
    assert.deepStrictEqual(
      applyJsonPatch(doc, [
        { op: 'test', path: '/a', value: A },
        { op: 'copy', from: '/a', path: '/b' },
        { op: 'add', path: '/l/-', value: 2n ** 63n - 1n },
      ]),
      { a: A, l: [B, 2n ** 63n - 1n], b: A },
    );
    assert.throws(() => applyJsonPatch(doc, [{ op: 'test', path: '/a', value: B }]), JsonPatchError);
  });

  it('merge patch replaces them', () => {
    assert.deepStrictEqual(applyMergePatch({ a: A, b: 1 }, { b: B }), { a: A, b: B });
  });

  it('strategic merge keeps distinct values of a merged int list apart and merges equal ones', () => {
    const schema = mergeItemSchema();
    assert.deepStrictEqual(applyStrategicMergePatch({ mergingIntList: [A, 1] }, { mergingIntList: [B, A] }, schema), {
      mergingIntList: [B, A, 1],
    });
    assert.deepStrictEqual(
      applyStrategicMergePatch(
        { mergingIntList: [A, B] },
        { '$deleteFromPrimitiveList/mergingIntList': [B], mergingList: [{ name: 'x', value: A }] },
        schema,
      ),
      { mergingIntList: [A], mergingList: [{ name: 'x', value: A }] },
    );
  });
});
