import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import { dedupOwnerReferences } from './owner-references.js';

const ref = (uid: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: `n-${uid}`,
  uid,
  ...extra,
});
const obj = (refs: unknown[]) => ({ metadata: { name: 'x', ownerReferences: refs } }) as unknown as ApiObject;

describe('dedupOwnerReferences', () => {
  const rows: Array<[string, unknown[], unknown[], string[]]> = [
    ['no duplicates', [ref('a'), ref('b')], [ref('a'), ref('b')], []],
    ['identical entries, first kept in place', [ref('a'), ref('b'), ref('a')], [ref('a'), ref('b')], ['a']],
    [
      'member order does not matter',
      [ref('a'), { uid: 'a', name: 'n-a', kind: 'ConfigMap', apiVersion: 'v1' }],
      [ref('a')],
      ['a'],
    ],
    [
      'every removed entry is named',
      [ref('a'), ref('a'), ref('b'), ref('a'), ref('b')],
      [ref('a'), ref('b')],
      ['a', 'a', 'b'],
    ],
    [
      'same UID, other content',
      [ref('a'), ref('a', { controller: true })],
      [ref('a'), ref('a', { controller: true })],
      [],
    ],
    [
      'unset differs from false',
      [ref('a'), ref('a', { blockOwnerDeletion: false })],
      [ref('a'), ref('a', { blockOwnerDeletion: false })],
      [],
    ],
  ];
  for (const [name, refs, want, uids] of rows) {
    it(name, () => {
      const o = obj(refs);
      const warning = dedupOwnerReferences(o, { afterAdmission: false });
      assert.deepEqual(o.metadata.ownerReferences, want);
      if (uids.length === 0) assert.equal(warning, undefined);
      else assert.ok(warning?.endsWith(`duplicate UID(s) observed: ${uids.join(', ')}`), warning);
    });
  }
});
