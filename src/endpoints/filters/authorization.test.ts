import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Attributes } from '../../apis/request/authorization-attributes.js';
import { ALLOW_RESULT, type Authorizer } from '../../authz/authorizer.js';
import type { ApiRequest, ApiResponse } from '../handler.js';
import { parseRequestInfo } from '../request/request-info.js';
import { authorization } from './authorization.js';

const OK: ApiResponse = { kind: 'body', status: 200, headers: {}, body: '' };
const alice = { name: 'alice', groups: ['system:authenticated'] };

/** An authorizer that allows everything and remembers what it was asked (with and without `decide`). */
function recording(synchronous: boolean): { authorizer: Authorizer; asked: Attributes[] } {
  const asked: Attributes[] = [];
  const authorizer: Authorizer = {
    async authorize(a) {
      asked.push(a);
      return ALLOW_RESULT;
    },
  };
  if (synchronous) {
    authorizer.decide = (a) => {
      asked.push(a);
      return ALLOW_RESULT;
    };
  }
  return { authorizer, asked };
}

async function ask(url: string, method: string, withSelectors: boolean, synchronous = true): Promise<Attributes> {
  const { authorizer, asked } = recording(synchronous);
  const u = new URL(url, 'https://orch.test');
  // The filter reads nothing else of an allowed request.
  const req = { info: parseRequestInfo(method, u.pathname, u.searchParams), user: alice } as unknown as ApiRequest;
  const res = await authorization(authorizer, { withSelectors })(async () => OK)(req);
  assert.equal(res, OK);
  assert.equal(asked.length, 1);
  return asked[0];
}

type Picked = Partial<Pick<Attributes, 'verb' | 'fieldSelector' | 'labelSelector'>> & {
  field?: Attributes['fieldSelectorRequirements'];
  label?: Attributes['labelSelectorRequirements'];
};

describe('authorization filter: selectors (AuthorizeWithSelectors)', () => {
  const cases: [name: string, method: string, url: string, withSelectors: boolean, want: Picked][] = [
    [
      'a list carries both selectors, parsed',
      'GET',
      '/api/v1/namespaces/ns/pods?fieldSelector=spec.nodeName%3Dn1&labelSelector=app%3Dweb',
      true,
      {
        verb: 'list',
        fieldSelector: 'spec.nodeName=n1',
        labelSelector: 'app=web',
        field: [{ field: 'spec.nodeName', operator: '=', value: 'n1' }],
        label: [{ key: 'app', operator: '=', values: ['web'] }],
      },
    ],
    [
      'a watch carries them',
      'GET',
      '/api/v1/pods?watch=true&labelSelector=tier+notin+(db)',
      true,
      { verb: 'watch', labelSelector: 'tier notin (db)', label: [{ key: 'tier', operator: 'notin', values: ['db'] }] },
    ],
    [
      'a deletecollection carries them',
      'DELETE',
      '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name!%3Dkeep',
      true,
      { verb: 'deletecollection', field: [{ field: 'metadata.name', operator: '!=', value: 'keep' }] },
    ],
    [
      'a get does not',
      'GET',
      '/api/v1/namespaces/ns/pods/p?labelSelector=app%3Dweb',
      true,
      { verb: 'get', labelSelector: '', label: undefined },
    ],
    [
      'nothing without the gate',
      'GET',
      '/api/v1/namespaces/ns/pods?fieldSelector=spec.nodeName%3Dn1&labelSelector=app%3Dweb',
      false,
      { verb: 'list', fieldSelector: '', labelSelector: '', field: undefined, label: undefined },
    ],
  ];
  for (const [name, method, url, withSelectors, want] of cases) {
    for (const synchronous of [true, false]) {
      it(`${name} (${synchronous ? 'decide' : 'authorize'})`, async () => {
        const a = await ask(url, method, withSelectors, synchronous);
        const got: Picked = {
          verb: a.verb,
          fieldSelector: a.fieldSelector,
          labelSelector: a.labelSelector,
          field: a.fieldSelectorRequirements,
          label: a.labelSelectorRequirements,
        };
        for (const k of Object.keys(want) as (keyof Picked)[]) assert.deepEqual(got[k], want[k], k);
      });
    }
  }
});
