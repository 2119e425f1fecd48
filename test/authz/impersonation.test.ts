import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { kubectl } from '../support/kubectl.js';

const WHOAMI = '/apis/authentication.orch.io/v1/selfsubjectreviews';
const whoamiBody = { body: { apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' } };

describe('impersonation (AlwaysDeny: only system:masters may impersonate)', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false, authorizationModes: ['AlwaysDeny'] });
  });
  after(() => s.stop());

  it('replaces the identity: user, groups, extra (keys lowercased and percent-decoded) and uid', async () => {
    const r = await s.api.admin('POST', WHOAMI, {
      ...whoamiBody,
      headers: {
        'Impersonate-User': 'bob',
        'Impersonate-Group': ['dev', 'system:masters'],
        'Impersonate-Extra-Example.com%2fTeam': ['blue', 'green'],
        'Impersonate-Uid': 'u-1',
      },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json().status.userInfo, {
      username: 'bob',
      uid: 'u-1',
      groups: ['dev', 'system:masters', 'system:authenticated'],
      extra: { 'example.com/team': ['blue', 'green'] },
    });
  });

  it('authorization then runs for the impersonated user', async () => {
    const r = await s.api.admin('GET', '/api/v1/namespaces/default/configmaps', {
      headers: { 'Impersonate-User': 'bob' },
    });
    assert.equal(r.status, 403);
    assert.equal(
      r.json().message,
      'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.',
    );
  });

  it('refuses a requester without the impersonate permission, naming what was refused', async () => {
    const alice = await s.userCredentials('alice');
    const r = await s.api.admin('GET', '/version', { as: alice, headers: { 'Impersonate-User': 'bob' } });
    assert.equal(r.status, 403);
    assert.equal(
      r.json().message,
      'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope: Everything is forbidden.',
    );
    assert.deepEqual(r.json().details, { name: 'bob', kind: 'users' });
    const extra = await s.api.admin('GET', '/version', {
      as: alice,
      headers: { 'Impersonate-User': 'alice', 'Impersonate-Extra-scopes': 'x' },
    });
    assert.equal(extra.status, 403);
  });

  it("groups, extra or uid without a user are kube-apiserver's internal error", async () => {
    const r = await s.api.admin('GET', '/version', { headers: { 'Impersonate-Group': 'dev' } });
    assert.equal(r.status, 500);
    assert.equal(r.json().reason, 'InternalError');
    assert.match(
      r.json().message,
      /^Internal error occurred: requested \[\{Group\s+dev\s*\}\] without impersonating a user$/,
    );
  });
});

describe('kubectl --as (k8s.io profile)', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false, apiDomain: 'k8s.io' });
  });
  after(() => s.stop());

  it('(AlwaysAllow) a service account without groups gets its own two groups', async () => {
    const r = await s.api.admin('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      headers: { 'Impersonate-User': 'system:serviceaccount:apps:robot' },
    });
    assert.deepEqual(r.json().status.userInfo, {
      username: 'system:serviceaccount:apps:robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:apps', 'system:authenticated'],
    });
  });

  it('auth whoami shows the impersonated user and groups', async () => {
    const r = await kubectl(s.server.kubeconfigPath ?? '', ['auth', 'whoami', '--as=bob', '--as-group=dev']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Username\s+bob/);
    assert.match(r.stdout, /Groups\s+\[dev system:authenticated\]/);
  });
});
