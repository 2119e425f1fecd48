import assert from 'node:assert/strict';
import { PerformanceObserver } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import type { RoleBinding } from '../../apis/rbac/rbac-types.js';
import { type Attributes, resourceAttributes } from '../../apis/request/authorization-attributes.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import { buildAuthorizer } from '../authorization-modes.js';
import { RbacAuthorizer } from './rbac-authorizer.js';
import { RbacIndex } from './rbac-index.js';

const GROUP = 'rbac.authorization.orch.io';

function binding(name: string, namespace: string, role: [string, string], subject: [string, string]): RoleBinding {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: namespace ? 'RoleBinding' : 'ClusterRoleBinding',
    metadata: namespace ? { name, namespace } : { name },
    roleRef: { apiGroup: GROUP, kind: role[0], name: role[1] },
    subjects: [{ kind: subject[0], name: subject[1], apiGroup: GROUP }],
  };
}

/** Runs `work` and counts the garbage collections it caused (each needs allocation to happen). */
async function collectionsDuring(work: () => void): Promise<number> {
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    count += list.getEntries().length;
  });
  observer.observe({ entryTypes: ['gc'] });
  // Entries of earlier collections are delivered before the work starts.
  await new Promise((r) => setTimeout(r, 20));
  count = 0;
  work();
  await new Promise((r) => setTimeout(r, 20));
  observer.disconnect();
  return count;
}

describe('RBAC decisions allocate nothing', () => {
  const index = new RbacIndex();
  index.putClusterRole('reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps', 'pods/log'] }]);
  index.putClusterRole('health', [{ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }]);
  index.putRole('ns', 'secret-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]);
  index.putBinding(binding('readers', '', ['ClusterRole', 'reader'], ['Group', 'dev']));
  index.putBinding(binding('health', '', ['ClusterRole', 'health'], ['Group', 'dev']));
  index.putBinding(binding('secrets', 'ns', ['Role', 'secret-reader'], ['User', 'alice']));
  const chain = buildAuthorizer(['RBAC'], { rbac: new RbacAuthorizer(index) });
  const decide = chain.decide as (a: Attributes) => ReturnType<NonNullable<typeof chain.decide>>;
  // Authenticators hand out frozen users; so do the in-process controllers.
  const alice: UserInfo = Object.freeze({ name: 'alice', groups: Object.freeze(['dev', 'system:authenticated']) });
  const cases: [string, Attributes, string][] = [
    [
      'allowed by a ClusterRoleBinding',
      resourceAttributes(alice, 'list', { resource: 'configmaps', namespace: 'ns' }),
      'allow',
    ],
    [
      'allowed on a sub-resource',
      resourceAttributes(alice, 'get', { resource: 'pods', subresource: 'log', namespace: 'ns', name: 'p' }),
      'allow',
    ],
    [
      'allowed by a RoleBinding of a Role',
      resourceAttributes(alice, 'get', { resource: 'secrets', namespace: 'ns', name: 's' }),
      'allow',
    ],
    ['refused', resourceAttributes(alice, 'delete', { resource: 'secrets', namespace: 'ns', name: 's' }), 'no-opinion'],
    [
      'a non-resource path under a wildcard',
      { ...resourceAttributes(alice, 'get', { resource: '' }), isResourceRequest: false, path: '/healthz/etcd' },
      'allow',
    ],
  ];
  for (const [name, a, want] of cases) {
    it(name, async () => {
      assert.equal(decide(a).decision, want);
      // Warm up (optimized code, cached results), then decide often enough that any allocation
      // per decision (tens of bytes) would fill the young generation many times over.
      for (let i = 0; i < 50_000; i++) decide(a);
      const collections = await collectionsDuring(() => {
        for (let i = 0; i < 1_000_000; i++) decide(a);
      });
      assert.ok(collections <= 1, `${collections} garbage collections during 1,000,000 decisions`);
    });
  }
});
