import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../apis/meta/status.js';
import type { ListOptions } from '../types.js';
import { encodeContinue, listSemantics } from './read-semantics.js';

const token = encodeContinue({ rv: '42', start: 'ns/name' });

// One row per cell of the spec's list resourceVersion table.
const rows: Array<[string, ListOptions, string | number]> = [
  ['unset, no limit', {}, 'latest'],
  ['0, no limit', { resourceVersion: '0' }, 'any'],
  ['n, no limit', { resourceVersion: '7' }, 'notOlderThan:7'],
  ['unset, limit', { limit: 5 }, 'latest'],
  ['0, limit', { resourceVersion: '0', limit: 5 }, 'any'],
  ['n, limit', { resourceVersion: '7', limit: 5 }, 'exact:7'],
  ['unset, continue', { limit: 5, continue: token }, 'continue:42'],
  ['0, continue', { resourceVersion: '0', limit: 5, continue: token }, 'continue:42'],
  ['n, continue', { resourceVersion: '7', limit: 5, continue: token }, 400],
  ['Exact, unset', { resourceVersionMatch: 'Exact' }, 400],
  ['Exact, 0', { resourceVersionMatch: 'Exact', resourceVersion: '0' }, 400],
  ['Exact, n', { resourceVersionMatch: 'Exact', resourceVersion: '7' }, 'exact:7'],
  ['Exact, n, limit', { resourceVersionMatch: 'Exact', resourceVersion: '7', limit: 5 }, 'exact:7'],
  ['NotOlderThan, unset', { resourceVersionMatch: 'NotOlderThan' }, 400],
  ['NotOlderThan, 0', { resourceVersionMatch: 'NotOlderThan', resourceVersion: '0' }, 'any'],
  ['NotOlderThan, n', { resourceVersionMatch: 'NotOlderThan', resourceVersion: '7' }, 'notOlderThan:7'],
  [
    'NotOlderThan, n, limit',
    { resourceVersionMatch: 'NotOlderThan', resourceVersion: '7', limit: 5 },
    'notOlderThan:7',
  ],
  ['match with continue', { resourceVersionMatch: 'Exact', resourceVersion: '7', continue: token }, 400],
  ['unknown match', { resourceVersionMatch: 'Newest', resourceVersion: '7' }, 400],
  ['non-numeric rv', { resourceVersion: 'abc' }, 400],
  ['bad continue token', { continue: 'garbage' }, 400],
];

describe('listSemantics', () => {
  for (const [name, opts, want] of rows) {
    it(name, () => {
      if (typeof want === 'number') {
        assert.throws(
          () => listSemantics(opts),
          (e) => e instanceof StatusError && e.code === want,
        );
        return;
      }
      const s = listSemantics(opts);
      const got = 'revision' in s ? `${s.kind}:${s.revision}` : s.kind;
      assert.equal(got, want);
    });
  }
});
