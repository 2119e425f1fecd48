import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicyRule, RoleBinding } from '../../apis/rbac/rbac-types.js';
import { resourceAttributes } from '../../apis/request/authorization-attributes.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import type { Attributes } from '../authorizer.js';
import { RbacAuthorizer } from './rbac-authorizer.js';
import { RbacIndex } from './rbac-index.js';

const RBAC = 'rbac.authorization.orch.io';

function binding(
  name: string,
  namespace: string,
  role: [kind: string, name: string],
  subjects: RoleBinding['subjects'],
): RoleBinding {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: namespace ? 'RoleBinding' : 'ClusterRoleBinding',
    metadata: namespace ? { name, namespace } : { name },
    roleRef: { apiGroup: RBAC, kind: role[0], name: role[1] },
    subjects,
  };
}

function resource(
  user: UserInfo,
  verb: string,
  r: { group?: string; resource: string; sub?: string; ns?: string; name?: string },
): Attributes {
  return resourceAttributes(user, verb, {
    apiGroup: r.group,
    resource: r.resource,
    subresource: r.sub,
    namespace: r.ns,
    name: r.name,
  });
}

function nonResource(user: UserInfo, verb: string, path: string): Attributes {
  return { ...resource(user, verb, { resource: '' }), isResourceRequest: false, path, resource: '' };
}

const alice: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };
const bob: UserInfo = { name: 'bob', groups: ['system:authenticated'] };
const robot: UserInfo = {
  name: 'system:serviceaccount:apps:robot',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:apps', 'system:authenticated'],
};

function fixture() {
  const index = new RbacIndex();
  const rules = (...r: PolicyRule[]) => r;
  index.putClusterRole(
    'reader',
    rules({ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps', 'pods', 'pods/log'] }),
  );
  index.putClusterRole('scaler', rules({ verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }));
  index.putClusterRole('health', rules({ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz/*'] }));
  index.putRole(
    'team',
    'one-map',
    rules({
      verbs: ['get', 'update', 'list', 'create'],
      apiGroups: [''],
      resources: ['configmaps'],
      resourceNames: ['settings'],
    }),
  );
  index.putBinding(
    binding('read-all', '', ['ClusterRole', 'reader'], [{ kind: 'User', name: 'alice', apiGroup: RBAC }]),
  );
  index.putBinding(
    binding('scale-team', 'team', ['ClusterRole', 'scaler'], [{ kind: 'Group', name: 'dev', apiGroup: RBAC }]),
  );
  index.putBinding(
    binding('health', '', ['ClusterRole', 'health'], [{ kind: 'Group', name: 'system:authenticated', apiGroup: RBAC }]),
  );
  index.putBinding(
    binding(
      'settings',
      'team',
      ['Role', 'one-map'],
      [
        { kind: 'ServiceAccount', name: 'robot', namespace: 'apps' },
        { kind: 'User', name: 'bob', apiGroup: RBAC },
      ],
    ),
  );
  index.putBinding(binding('local-sa', 'apps', ['ClusterRole', 'reader'], [{ kind: 'ServiceAccount', name: 'robot' }]));
  return { index, authz: new RbacAuthorizer(index) };
}

describe('RbacAuthorizer decision table', () => {
  const { authz } = fixture();
  const cases: [string, Attributes, 'allow' | 'no-opinion'][] = [
    ['cluster binding: any namespace', resource(alice, 'list', { resource: 'configmaps', ns: 'x' }), 'allow'],
    ['cluster binding: cluster scope', resource(alice, 'watch', { resource: 'pods' }), 'allow'],
    ['verb not granted', resource(alice, 'delete', { resource: 'configmaps', ns: 'x', name: 'a' }), 'no-opinion'],
    [
      'other group',
      resource(alice, 'get', { group: 'apps', resource: 'configmaps', ns: 'x', name: 'a' }),
      'no-opinion',
    ],
    ['listed sub-resource', resource(alice, 'get', { resource: 'pods', sub: 'log', ns: 'x', name: 'p' }), 'allow'],
    [
      'the resource does not cover its sub-resources',
      resource(alice, 'get', { resource: 'pods', sub: 'exec', ns: 'x', name: 'p' }),
      'no-opinion',
    ],
    [
      '*/scale via a group, only in the binding namespace',
      resource(alice, 'update', { group: 'apps', resource: 'deployments', sub: 'scale', ns: 'team', name: 'd' }),
      'allow',
    ],
    [
      'RoleBinding to a ClusterRole grants nothing elsewhere',
      resource(alice, 'update', { group: 'apps', resource: 'deployments', sub: 'scale', ns: 'other', name: 'd' }),
      'no-opinion',
    ],
    [
      '*/scale does not cover the resource',
      resource(alice, 'update', { group: 'apps', resource: 'deployments', ns: 'team', name: 'd' }),
      'no-opinion',
    ],
    ['non-resource URL exact', nonResource(bob, 'get', '/healthz'), 'allow'],
    ['non-resource URL prefix', nonResource(bob, 'get', '/readyz/etcd'), 'allow'],
    ['non-resource URL prefix needs the prefix', nonResource(bob, 'get', '/readyz'), 'no-opinion'],
    ['non-resource verb', nonResource(bob, 'post', '/healthz'), 'no-opinion'],
    [
      'resourceNames: the named object',
      resource(bob, 'get', { resource: 'configmaps', ns: 'team', name: 'settings' }),
      'allow',
    ],
    [
      'resourceNames: another object',
      resource(bob, 'get', { resource: 'configmaps', ns: 'team', name: 'other' }),
      'no-opinion',
    ],
    ['resourceNames never allow create', resource(bob, 'create', { resource: 'configmaps', ns: 'team' }), 'no-opinion'],
    ['resourceNames: list of all objects', resource(bob, 'list', { resource: 'configmaps', ns: 'team' }), 'no-opinion'],
    [
      'resourceNames: list narrowed to the name',
      resource(bob, 'list', { resource: 'configmaps', ns: 'team', name: 'settings' }),
      'allow',
    ],
    [
      'Role grants only in its namespace',
      resource(bob, 'get', { resource: 'configmaps', ns: 'apps', name: 'settings' }),
      'no-opinion',
    ],
    [
      'service account with an explicit namespace',
      resource(robot, 'update', { resource: 'configmaps', ns: 'team', name: 'settings' }),
      'allow',
    ],
    [
      'service account defaulting to the binding namespace',
      resource(robot, 'list', { resource: 'pods', ns: 'apps' }),
      'allow',
    ],
    ['service account elsewhere', resource(robot, 'list', { resource: 'pods', ns: 'team' }), 'no-opinion'],
    [
      'nobody',
      resource({ name: 'mallory', groups: [] }, 'get', { resource: 'configmaps', ns: 'x', name: 'a' }),
      'no-opinion',
    ],
  ];
  for (const [name, attrs, want] of cases) {
    it(name, async () => assert.equal((await authz.authorize(attrs)).decision, want));
  }

  it("gives kube-apiserver's reason for an allow", () => {
    assert.equal(
      authz.decide(resource(alice, 'list', { resource: 'configmaps', ns: 'x' })).reason,
      'RBAC: allowed by ClusterRoleBinding "read-all" of ClusterRole "reader" to User "alice"',
    );
    assert.equal(
      authz.decide(resource(robot, 'list', { resource: 'pods', ns: 'apps' })).reason,
      'RBAC: allowed by RoleBinding "local-sa/apps" of ClusterRole "reader" to ServiceAccount "robot/apps"',
    );
  });
});

describe('RbacIndex follows changes', () => {
  it('a binding to a role that does not exist yet grants once the role appears, and stops when removed', () => {
    const index = new RbacIndex();
    const authz = new RbacAuthorizer(index);
    const get = resource(bob, 'get', { resource: 'secrets', ns: 'a', name: 's' });
    index.putBinding(binding('b', 'a', ['Role', 'secret-reader'], [{ kind: 'User', name: 'bob', apiGroup: RBAC }]));
    assert.equal(authz.decide(get).decision, 'no-opinion');
    index.putRole('a', 'secret-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]);
    assert.equal(authz.decide(get).decision, 'allow');
    index.putBinding(binding('b', 'a', ['Role', 'secret-reader'], [{ kind: 'User', name: 'carol', apiGroup: RBAC }]));
    assert.equal(authz.decide(get).decision, 'no-opinion', 'an update replaces the subjects');
    index.putBinding(binding('b', 'a', ['Role', 'secret-reader'], [{ kind: 'User', name: 'bob', apiGroup: RBAC }]));
    index.deleteBinding('a', 'b');
    assert.equal(authz.decide(get).decision, 'no-opinion');
  });

  it('a ClusterRoleBinding cannot grant a Role; unknown subject kinds grant nothing', () => {
    const index = new RbacIndex();
    const authz = new RbacAuthorizer(index);
    index.putRole('a', 'r', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    index.putBinding(binding('c', '', ['Role', 'r'], [{ kind: 'User', name: 'bob', apiGroup: RBAC }]));
    index.putClusterRole('all', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    index.putBinding(binding('d', '', ['ClusterRole', 'all'], [{ kind: 'Robot', name: 'bob' }]));
    assert.equal(authz.decide(resource(bob, 'get', { resource: 'x', ns: 'a', name: 'y' })).decision, 'no-opinion');
  });
});
