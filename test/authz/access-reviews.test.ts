import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { kubectl } from '../support/kubectl.js';

const GROUP = '/apis/authorization.orch.io/v1';
const V1 = 'authorization.orch.io/v1';

const sar = (spec: object, metadata?: object) => ({
  body: { apiVersion: V1, kind: 'SubjectAccessReview', ...(metadata ? { metadata } : {}), spec },
});
const listConfigMaps = { resourceAttributes: { verb: 'list', resource: 'configmaps', namespace: 'team' } };

describe('access reviews answered by AlwaysDeny (members of system:masters pass)', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false, authorizationModes: ['AlwaysDeny'] });
  });
  after(() => s.stop());

  it('subjectaccessreviews: a denial has allowed false, denied true and the reason', async () => {
    const r = await s.api.admin('POST', `${GROUP}/subjectaccessreviews`, sar({ ...listConfigMaps, user: 'bob' }));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json().status, { allowed: false, denied: true, reason: 'Everything is forbidden.' });
  });

  it('subjectaccessreviews: a member of system:masters is allowed', async () => {
    const r = await s.api.admin(
      'POST',
      `${GROUP}/subjectaccessreviews`,
      sar({ nonResourceAttributes: { path: '/healthz', verb: 'get' }, groups: ['system:masters'] }),
    );
    assert.deepEqual(r.json().status, { allowed: true });
  });

  it('validates as kube-apiserver does, every problem in one 422', async () => {
    const r = await s.api.admin(
      'POST',
      `${GROUP}/subjectaccessreviews`,
      sar({ ...listConfigMaps, nonResourceAttributes: { path: '/x', verb: 'get' } }, { name: 'x' }),
    );
    assert.equal(r.status, 422);
    const body = r.json();
    assert.equal(body.reason, 'Invalid');
    assert.match(body.message, /^SubjectAccessReview\.authorization\.orch\.io "" is invalid: \[/);
    assert.deepEqual(
      body.details.causes.map((c: { field: string }) => c.field),
      ['spec.nonResourceAttributes', 'spec.user', 'metadata'],
    );
    const none = await s.api.admin('POST', `${GROUP}/subjectaccessreviews`, sar({ user: 'bob' }));
    assert.equal(
      none.json().message,
      'SubjectAccessReview.authorization.orch.io "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
  });

  it('localsubjectaccessreviews: the namespace must match; non-resource attributes are refused', async () => {
    const path = `${GROUP}/namespaces/team/localsubjectaccessreviews`;
    const ok = await s.api.admin('POST', path, {
      body: {
        apiVersion: V1,
        kind: 'LocalSubjectAccessReview',
        metadata: { namespace: 'team' },
        spec: { ...listConfigMaps, user: 'bob' },
      },
    });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.json().status.allowed, false);
    const other = await s.api.admin('POST', `${GROUP}/namespaces/default/localsubjectaccessreviews`, {
      body: { apiVersion: V1, kind: 'LocalSubjectAccessReview', spec: { ...listConfigMaps, user: 'bob' } },
    });
    assert.equal(other.status, 400);
    assert.equal(other.json().message, 'spec.resourceAttributes.namespace must match namespace: default');
    const nonResource = await s.api.admin('POST', path, {
      body: {
        apiVersion: V1,
        kind: 'LocalSubjectAccessReview',
        spec: { nonResourceAttributes: { path: '/x', verb: 'get' }, user: 'bob' },
      },
    });
    assert.equal(nonResource.status, 422);
    assert.match(
      nonResource.json().message,
      /spec\.nonResourceAttributes: Invalid value: .*: disallowed on this kind of request/,
    );
  });

  it('selfsubjectaccessreviews asks about the requester', async () => {
    const r = await s.api.admin('POST', `${GROUP}/selfsubjectaccessreviews`, {
      body: { apiVersion: V1, kind: 'SelfSubjectAccessReview', spec: listConfigMaps },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().status.allowed, true);
  });

  it('selfsubjectrulesreviews: AlwaysDeny lists nothing; a namespace is required', async () => {
    const r = await s.api.admin('POST', `${GROUP}/selfsubjectrulesreviews`, {
      body: { apiVersion: V1, kind: 'SelfSubjectRulesReview', spec: { namespace: 'team' } },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json().status, { resourceRules: [], nonResourceRules: [], incomplete: false });
    const none = await s.api.admin('POST', `${GROUP}/selfsubjectrulesreviews`, {
      body: { apiVersion: V1, kind: 'SelfSubjectRulesReview', spec: {} },
    });
    assert.equal(none.status, 400);
    assert.equal(none.json().message, 'no namespace on request');
  });
});

describe('access reviews under AlwaysAllow', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false, authorizationModes: ['AlwaysAllow'] });
  });
  after(() => s.stop());

  it('allows anyone anything and lists the wildcard rules', async () => {
    const alice = await s.userCredentials('alice');
    const r = await s.api.admin('POST', `${GROUP}/subjectaccessreviews`, sar({ ...listConfigMaps, user: 'bob' }));
    assert.deepEqual(r.json().status, { allowed: true });
    const rules = await s.api.admin('POST', `${GROUP}/selfsubjectrulesreviews`, {
      as: alice,
      body: { apiVersion: V1, kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } },
    });
    assert.deepEqual(rules.json().status, {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
  });
});

describe('kubectl auth can-i (k8s.io profile)', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false, apiDomain: 'k8s.io', authorizationModes: ['AlwaysDeny'] });
  });
  after(() => s.stop());

  it('answers yes for the admin and lists rules with --list', async () => {
    const kubeconfig = s.server.kubeconfigPath ?? '';
    const yes = await kubectl(kubeconfig, ['auth', 'can-i', 'create', 'configmaps', '-n', 'default']);
    assert.equal(yes.code, 0, yes.stderr);
    assert.equal(yes.stdout.trim(), 'yes');
    const list = await kubectl(kubeconfig, ['auth', 'can-i', '--list', '-n', 'default']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs/);
  });
});
