import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from './server-fixture.js';

describe('authorization filter (AlwaysDeny)', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ authorizationModes: ['AlwaysDeny'], runControllers: false });
  });
  after(() => s.stop());

  it('lets system:masters through', async () => {
    const r = await s.api.admin('GET', '/api/v1/namespaces/default/configmaps');
    assert.equal(r.status, 200);
  });

  it('denies a resource request with kube wording and details', async () => {
    const r = await s.api.anonymous('GET', '/api/v1/namespaces/default/configmaps/x');
    assert.equal(r.status, 403);
    const st = r.json();
    assert.equal(st.kind, 'Status');
    assert.equal(st.reason, 'Forbidden');
    assert.equal(
      st.message,
      'configmaps "x" is forbidden: User "system:anonymous" cannot get resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.',
    );
    assert.deepEqual(st.details, { name: 'x', kind: 'configmaps' });
  });

  it('denies a collection and a cluster-scoped request', async () => {
    const list = await s.api.anonymous('GET', '/apis/coordination.orch.io/v1/leases');
    assert.equal(list.status, 403);
    assert.equal(
      list.json().message,
      'leases.coordination.orch.io is forbidden: User "system:anonymous" cannot list resource "leases" in API group "coordination.orch.io" at the cluster scope: Everything is forbidden.',
    );
  });

  it('denies a non-resource request', async () => {
    const r = await s.api.anonymous('GET', '/version');
    assert.equal(r.status, 403);
    assert.equal(
      r.json().message,
      'forbidden: User "system:anonymous" cannot get path "/version": Everything is forbidden.',
    );
  });

  it('decides before reading the body', async () => {
    const r = await s.api.anonymous('POST', '/api/v1/namespaces/default/configmaps', { body: '{not json' });
    assert.equal(r.status, 403);
  });
});

describe('authorization modes in order', () => {
  it('AlwaysAllow before AlwaysDeny allows; AlwaysDeny before AlwaysAllow denies', async () => {
    for (const [modes, status] of [
      [['AlwaysAllow', 'AlwaysDeny'], 200],
      [['AlwaysDeny', 'AlwaysAllow'], 403],
    ] as const) {
      const s = await startInProcess({ authorizationModes: modes, runControllers: false });
      try {
        const alice = await s.userCredentials('alice', ['dev']);
        assert.equal((await s.api.admin('GET', '/api/v1/namespaces', { as: alice })).status, status, modes.join(','));
      } finally {
        await s.stop();
      }
    }
  });

  it('turns anonymous requests off, as kube-apiserver does, whenever AlwaysAllow is a mode', async () => {
    const s = await startInProcess({ authorizationModes: ['AlwaysDeny', 'AlwaysAllow'], runControllers: false });
    try {
      const r = await s.api.anonymous('GET', '/api/v1/namespaces');
      assert.equal(r.status, 401);
      assert.equal(r.json().reason, 'Unauthorized');
    } finally {
      await s.stop();
    }
  });

  it('refuses to start with an unknown mode', async () => {
    await assert.rejects(
      startInProcess({ authorizationModes: ['Magic'] }),
      /authorization-mode "Magic" is not a valid mode/,
    );
  });
});
