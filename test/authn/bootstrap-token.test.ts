// Bootstrap tokens end to end: Secrets created through the API with the admin certificate.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import type { InProcessServer } from '../pipeline/server-fixture.js';
import { kubectl } from '../support/kubectl.js';
import { startDenyingServer, tokenReview, whoAmI } from './authn-fixture.js';

const NS = ORCH_DOMAIN.systemNamespace;
const TYPE = ORCH_DOMAIN.key('bootstrap', 'token');

/** Creates `bootstrap-token-<id>` with `stringData` (the API folds it into `data`). */
async function createToken(server: InProcessServer, id: string, secret: string, extra: Record<string, string> = {}) {
  const r = await server.api.admin('POST', `/api/v1/namespaces/${NS}/secrets`, {
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `bootstrap-token-${id}` },
      type: TYPE,
      stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true', ...extra },
    },
  });
  assert.equal(r.status, 201, r.text);
}

/** Who `token` is, once the watch cache has caught up with the Secret (at most a few seconds). */
async function settle(server: InProcessServer, token: string, want: string): Promise<string> {
  let got = '';
  for (let i = 0; i < 50; i++) {
    got = await whoAmI(server, { token });
    if (got === want) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
  return got;
}

describe('bootstrap tokens', () => {
  let server: InProcessServer;
  before(async () => {
    server = await startDenyingServer({ authentication: { enableBootstrapTokenAuth: true } });
    await createToken(server, 'abcdef', '0123456789abcdef', {
      'auth-extra-groups': 'system:bootstrappers:worker',
      expiration: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await createToken(server, 'expird', '0123456789abcdef', { expiration: '2020-01-01T00:00:00Z' });
    await createToken(server, 'nouse0', '0123456789abcdef', { 'usage-bootstrap-authentication': 'false' });
    await createToken(server, 'badgrp', '0123456789abcdef', { 'auth-extra-groups': 'system:masters' });
    // A control token, so the failures below are not just a watch cache that has not caught up.
    await createToken(server, 'zzzzzz', '0123456789abcdef');
    assert.equal(await settle(server, 'zzzzzz.0123456789abcdef', 'system:bootstrap:zzzzzz'), 'system:bootstrap:zzzzzz');
  });
  after(() => server?.stop());

  it('authenticates a valid token as system:bootstrap:<id>', async () => {
    assert.equal(await settle(server, 'abcdef.0123456789abcdef', 'system:bootstrap:abcdef'), 'system:bootstrap:abcdef');
  });

  it('reports system:bootstrappers and the extra groups in a TokenReview', async () => {
    const status = await tokenReview(server, 'abcdef.0123456789abcdef');
    assert.equal(status.authenticated, true);
    assert.equal(status.user.username, 'system:bootstrap:abcdef');
    assert.deepEqual(status.user.groups.slice(0, 2), ['system:bootstrappers', 'system:bootstrappers:worker']);
  });

  it('accepts a Secret made with the README’s kubectl command', async () => {
    const kubeconfig = server.server.kubeconfigPath as string;
    const r = await kubectl(kubeconfig, [
      '-n',
      NS,
      'create',
      'secret',
      'generic',
      'bootstrap-token-kubect',
      `--type=${TYPE}`,
      '--from-literal=token-id=kubect',
      '--from-literal=token-secret=0123456789abcdef',
      '--from-literal=usage-bootstrap-authentication=true',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await settle(server, 'kubect.0123456789abcdef', 'system:bootstrap:kubect'), 'system:bootstrap:kubect');
  });

  const rejected: { name: string; token: string }[] = [
    { name: 'an expired token', token: 'expird.0123456789abcdef' },
    { name: 'a token without usage-bootstrap-authentication=true', token: 'nouse0.0123456789abcdef' },
    { name: 'a token with an invalid extra group', token: 'badgrp.0123456789abcdef' },
    { name: 'a wrong secret', token: 'abcdef.0123456789abcdee' },
    { name: 'a malformed token', token: 'abcdef.0123456789abcdef0' },
    { name: 'an unknown token id', token: 'qqqqqq.0123456789abcdef' },
  ];
  for (const c of rejected) {
    it(`rejects ${c.name} with 401`, async () => {
      assert.equal(await whoAmI(server, { token: c.token }), '401');
    });
  }

  it('rejects the token of a Secret being deleted', async () => {
    const r = await server.api.admin('POST', `/api/v1/namespaces/${NS}/secrets`, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'bootstrap-token-going0', finalizers: ['example.com/hold'] },
        type: TYPE,
        stringData: {
          'token-id': 'going0',
          'token-secret': '0123456789abcdef',
          'usage-bootstrap-authentication': 'true',
        },
      },
    });
    assert.equal(r.status, 201, r.text);
    const del = await server.api.admin('DELETE', `/api/v1/namespaces/${NS}/secrets/bootstrap-token-going0`);
    assert.equal(del.status, 200, del.text);
    assert.ok(del.json().metadata.deletionTimestamp, 'the finalizer keeps the Secret, marked for deletion');
    // A control Secret written after the deletion: once it authenticates, the cache has seen the deletion too.
    await createToken(server, 'after0', '0123456789abcdef');
    assert.equal(await settle(server, 'after0.0123456789abcdef', 'system:bootstrap:after0'), 'system:bootstrap:after0');
    assert.equal(await whoAmI(server, { token: 'going0.0123456789abcdef' }), '401');
    const release = await server.api.admin('PATCH', `/api/v1/namespaces/${NS}/secrets/bootstrap-token-going0`, {
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { metadata: { finalizers: null } },
    });
    assert.equal(release.status, 200, release.text);
  });
});

describe('bootstrap tokens disabled', () => {
  let server: InProcessServer;
  before(async () => {
    server = await startDenyingServer();
    await createToken(server, 'abcdef', '0123456789abcdef');
  });
  after(() => server?.stop());

  it('ignores bootstrap-token Secrets without --enable-bootstrap-token-auth', async () => {
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await whoAmI(server, { token: 'abcdef.0123456789abcdef' }), '401');
  });
});
