import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { kubectl } from '../support/kubectl.js';

const GROUP = '/apis/authentication.orch.io/v1';

describe('authentication review APIs', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false });
  });
  after(() => s.stop());

  it('selfsubjectreviews answers 201 with the requester as the server sees it', async () => {
    const alice = await s.userCredentials('alice', ['dev', 'qa']);
    const r = await s.api.admin('POST', `${GROUP}/selfsubjectreviews`, {
      as: alice,
      body: { apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' },
    });
    assert.equal(r.status, 201, r.text);
    const body = r.json();
    assert.equal(body.kind, 'SelfSubjectReview');
    assert.equal(body.apiVersion, 'authentication.orch.io/v1');
    assert.equal(body.status.userInfo.username, 'alice');
    assert.deepEqual(body.status.userInfo.groups, ['dev', 'qa', 'system:authenticated']);
    assert.match(body.status.userInfo.extra['authentication.orch.io/credential-id'][0], /^X509SHA256=[0-9a-f]{64}$/);
  });

  it('tokenreviews needs a token (400 with kube-apiserver’s message)', async () => {
    const r = await s.api.admin('POST', `${GROUP}/tokenreviews`, {
      body: { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', spec: {} },
    });
    assert.equal(r.status, 400);
    assert.equal(r.json().reason, 'BadRequest');
    assert.equal(r.json().message, 'token is required for TokenReview in authentication');
  });

  it('tokenreviews of a token nobody accepts: not authenticated, with the reason, never anonymous', async () => {
    const r = await s.api.admin('POST', `${GROUP}/tokenreviews`, {
      body: { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', spec: { token: 'not-a-token' } },
    });
    assert.equal(r.status, 201, r.text);
    const status = r.json().status;
    assert.equal(status.authenticated, undefined);
    assert.deepEqual(status.user, {});
    assert.equal(status.error, 'invalid bearer token');
    assert.doesNotMatch(JSON.stringify(status), /not-a-token/);
  });

  it('a bearer token nobody accepts is a 401 on any request', async () => {
    const r = await s.api.anonymous('GET', '/api/v1/namespaces', { headers: { authorization: 'Bearer nope' } });
    assert.equal(r.status, 401);
  });

  it('serves create only: other verbs are 405', async () => {
    for (const [method, path] of [
      ['GET', `${GROUP}/tokenreviews`],
      ['GET', `${GROUP}/selfsubjectreviews/x`],
      ['DELETE', `${GROUP}/tokenreviews/x`],
    ] as const) {
      const r = await s.api.admin(method, path);
      assert.equal(r.status, 405, `${method} ${path}`);
      assert.equal(r.json().reason, 'MethodNotAllowed');
    }
  });

  it('lists both in discovery with the create verb, and in OpenAPI', async () => {
    const d = (await s.api.admin('GET', GROUP)).json();
    const byName = Object.fromEntries(d.resources.map((x: { name: string }) => [x.name, x]));
    assert.deepEqual(byName.tokenreviews.verbs, ['create']);
    assert.deepEqual(byName.selfsubjectreviews.verbs, ['create']);
    assert.equal(byName.tokenreviews.namespaced, false);
    const v3 = (await s.api.admin('GET', `/openapi/v3/apis/authentication.orch.io/v1`)).json();
    assert.ok(v3.paths['/apis/authentication.orch.io/v1/tokenreviews'].post);
    assert.ok(v3.paths['/apis/authentication.orch.io/v1/selfsubjectreviews'].post);
  });

  it('--runtime-config can turn the group off', async () => {
    const off = await startInProcess({ runControllers: false, runtimeConfig: 'authentication.orch.io/v1=false' });
    try {
      assert.equal((await off.api.admin('GET', GROUP)).status, 404);
    } finally {
      await off.stop();
    }
  });
});

describe('kubectl auth whoami (k8s.io profile)', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false, apiDomain: 'k8s.io' });
  });
  after(() => s.stop());

  it('prints the user and groups from selfsubjectreviews', async () => {
    const kubeconfig = join(s.server.kubeconfigPath ? s.server.kubeconfigPath : '', '');
    const r = await kubectl(kubeconfig, ['auth', 'whoami']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Username\s+orch-admin/);
    assert.match(r.stdout, /Groups\s+\[system:masters system:authenticated\]/);
  });
});
