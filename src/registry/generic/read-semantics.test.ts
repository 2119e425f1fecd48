import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../apis/meta/status.js';
import type { ListOptions } from '../types.js';
import { encodeContinue, listSemantics } from './read-semantics.js';

const META = 'meta.orch.io';

const token = encodeContinue({ rv: '42', start: 'ns/name' }, META);

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
  ['Exact, unset', { resourceVersionMatch: 'Exact' }, 422],
  ['Exact, 0', { resourceVersionMatch: 'Exact', resourceVersion: '0' }, 422],
  ['Exact, n', { resourceVersionMatch: 'Exact', resourceVersion: '7' }, 'exact:7'],
  ['Exact, n, limit', { resourceVersionMatch: 'Exact', resourceVersion: '7', limit: 5 }, 'exact:7'],
  ['NotOlderThan, unset', { resourceVersionMatch: 'NotOlderThan' }, 422],
  ['NotOlderThan, 0', { resourceVersionMatch: 'NotOlderThan', resourceVersion: '0' }, 'any'],
  ['NotOlderThan, n', { resourceVersionMatch: 'NotOlderThan', resourceVersion: '7' }, 'notOlderThan:7'],
  [
    'NotOlderThan, n, limit',
    { resourceVersionMatch: 'NotOlderThan', resourceVersion: '7', limit: 5 },
    'notOlderThan:7',
  ],
  ['match with continue', { resourceVersionMatch: 'Exact', resourceVersion: '7', continue: token }, 422],
  ['unknown match', { resourceVersionMatch: 'Newest', resourceVersion: '7' }, 422],
  ['non-numeric rv', { resourceVersion: 'abc' }, 400],
  ['bad continue token', { continue: 'garbage' }, 400],
];

describe('listSemantics', () => {
  for (const [name, opts, want] of rows) {
    it(name, () => {
      if (typeof want === 'number') {
        assert.throws(
          () => listSemantics(opts, META),
          (e) => e instanceof StatusError && e.code === want,
        );
        return;
      }
      const s = listSemantics(opts, META);
      const got = 'revision' in s ? `${s.kind}:${s.revision}` : s.kind;
      assert.equal(got, want);
    });
  }
});

describe('list option errors', () => {
  const fail = (opts: ListOptions): StatusError => {
    try {
      listSemantics(opts, META);
    } catch (e) {
      if (e instanceof StatusError) return e;
      throw e;
    }
    assert.fail('expected an error');
  };

  it('reports every invalid combination at once, as kube ValidateListOptions does (422)', () => {
    const e = fail({ resourceVersionMatch: 'x', continue: token });
    assert.equal(e.code, 422);
    assert.equal(e.reason, 'Invalid');
    assert.equal(
      e.message,
      'ListOptions.meta.orch.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided, resourceVersionMatch: Unsupported value: "x": supported values: "Exact", "NotOlderThan", ""]',
    );
    assert.deepEqual(e.details, {
      name: undefined,
      group: 'meta.orch.io',
      kind: 'ListOptions',
      causes: [
        {
          reason: 'FieldValueForbidden',
          message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
          field: 'resourceVersionMatch',
        },
        {
          reason: 'FieldValueForbidden',
          message: 'Forbidden: resourceVersionMatch is forbidden when continue is provided',
          field: 'resourceVersionMatch',
        },
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "x": supported values: "Exact", "NotOlderThan", ""',
          field: 'resourceVersionMatch',
        },
      ],
    });
  });

  it('decodes the continue token before looking at the resourceVersion given with it', () => {
    const e = fail({ continue: 'garbage!', resourceVersion: '7' });
    assert.equal(e.code, 400);
    assert.equal(e.message, 'invalid continue token: continue key is not valid: illegal base64 data at input byte 7');
    assert.equal(
      fail({ continue: token, resourceVersion: '7' }).message,
      'specifying resource version is not allowed when using continue',
    );
  });

  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const tokenCases: Array<[string, string]> = [
    [b64({ v: 'other/v1', rv: '5', start: 'a' }), 'server does not recognize this encoded version other/v1'],
    [
      b64({ v: 'meta.orch.io/v1', rv: '0', start: 'a' }),
      'incorrect encoded start resourceVersion (version meta.orch.io/v1)',
    ],
    [b64({ v: 'meta.orch.io/v1', rv: '5', start: '' }), 'encoded start key empty (version meta.orch.io/v1)'],
    [b64({ v: 'meta.orch.io/v1', rv: '5', start: 'a/../../b' }), 'a/../../b'],
  ];
  for (const [t, want] of tokenCases) {
    it(`rejects a continue token: ${want}`, () => {
      assert.equal(fail({ continue: t }).message, `invalid continue token: continue key is not valid: ${want}`);
    });
  }
});
