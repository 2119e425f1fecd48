import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { eventually } from '../support/eventually.js';

type Creds = { ca: string; cert: string; key: string };

function pod(name: string, nodeName: string, volumes: object[], extra: object = {}): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }], volumes, ...extra },
  };
}

const secretVolume = (secret: string) => ({ name: `v-${secret}`, secret: { secretName: secret } });

describe('Node authorizer (default --authorization-mode=Node,RBAC)', () => {
  let s: InProcessServer;
  let n1: Creds;
  let n2: Creds;
  const status = async (creds: Creds, method: string, path: string, body?: object) =>
    (await s.api.admin(method, path, { as: creds, ...(body ? { body } : {}) })).status;
  const create = async (path: string, body: object) => {
    const r = await s.api.admin('POST', path, { body });
    assert.equal(r.status, 201, r.text);
  };

  before(async () => {
    s = await startInProcess({ runControllers: false });
    n1 = await s.userCredentials('system:node:n1', ['system:nodes']);
    n2 = await s.userCredentials('system:node:n2', ['system:nodes']);
    await create('/api/v1/namespaces', { metadata: { name: 'app' } });
    for (const name of ['a-secret', 'b-secret', 'moving-secret', 'csi-key']) {
      await create('/api/v1/namespaces/app/secrets', { metadata: { name }, stringData: { k: 'v' } });
    }
  });
  after(() => s.stop());

  it('lets a node read the secrets of its own pods only, in kube’s words', async () => {
    await create('/api/v1/namespaces/app/pods', pod('a', 'n1', [secretVolume('a-secret')]));
    await create('/api/v1/namespaces/app/pods', pod('b', 'n2', [secretVolume('b-secret')]));
    await eventually(
      async () => (await status(n1, 'GET', '/api/v1/namespaces/app/secrets/a-secret')) === 200,
      'n1 reads the secret of its pod',
    );
    assert.equal(await status(n2, 'GET', '/api/v1/namespaces/app/secrets/b-secret'), 200);
    const denied = await s.api.admin('GET', '/api/v1/namespaces/app/secrets/b-secret', { as: n1 });
    assert.equal(denied.status, 403);
    assert.equal(
      denied.json().message,
      'secrets "b-secret" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "app": no relationship found between node \'n1\' and this object',
    );
    // One object through a metadata.name field selector is a read of that object.
    assert.equal(await status(n1, 'GET', '/api/v1/namespaces/app/secrets?fieldSelector=metadata.name%3Da-secret'), 200);
    const list = await s.api.admin('GET', '/api/v1/namespaces/app/secrets', { as: n1 });
    assert.equal(list.status, 403);
    assert.match(list.json().message, /: No Object name found$/);
    assert.equal(await status(n1, 'DELETE', '/api/v1/namespaces/app/secrets/a-secret'), 403);
  });

  it('follows a pod that moves to another node, and its deletion', async () => {
    const path = '/api/v1/namespaces/app/secrets/moving-secret';
    await create('/api/v1/namespaces/app/pods', pod('mover', 'n1', [secretVolume('moving-secret')]));
    await eventually(async () => (await status(n1, 'GET', path)) === 200, 'n1 reads the secret');
    assert.equal(await status(n2, 'GET', path), 403);

    assert.equal(await status(s.admin, 'DELETE', '/api/v1/namespaces/app/pods/mover?gracePeriodSeconds=0'), 200);
    await create('/api/v1/namespaces/app/pods', pod('mover', 'n2', [secretVolume('moving-secret')]));
    await eventually(async () => (await status(n2, 'GET', path)) === 200, 'n2 reads the secret');
    assert.equal(await status(n1, 'GET', path), 403);

    assert.equal(await status(s.admin, 'DELETE', '/api/v1/namespaces/app/pods/mover?gracePeriodSeconds=0'), 200);
    await eventually(async () => (await status(n2, 'GET', path)) === 403, 'the deletion revokes the secret');
  });

  it('relates a PV (and its secrets) through the claim a pod uses; ephemeral claims by name', async () => {
    await create('/api/v1/persistentvolumes', {
      metadata: { name: 'pv-data' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        claimRef: { namespace: 'app', name: 'data' },
        csi: {
          driver: 'csi.example.com',
          volumeHandle: 'h1',
          nodeStageSecretRef: { name: 'csi-key', namespace: 'app' },
        },
      },
    });
    await create(
      '/api/v1/namespaces/app/pods',
      pod('db', 'n1', [
        { name: 'd', persistentVolumeClaim: { claimName: 'data' } },
        {
          name: 'scratch',
          ephemeral: {
            volumeClaimTemplate: {
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
            },
          },
        },
      ]),
    );
    await eventually(
      async () => (await status(n1, 'GET', '/api/v1/persistentvolumes/pv-data')) === 200,
      'n1 reads the PV of its claim',
    );
    assert.equal(await status(n1, 'GET', '/api/v1/namespaces/app/secrets/csi-key'), 200);
    // The claims are not stored: authorized, then not found.
    assert.equal(await status(n1, 'GET', '/api/v1/namespaces/app/persistentvolumeclaims/data'), 404);
    assert.equal(await status(n1, 'GET', '/api/v1/namespaces/app/persistentvolumeclaims/db-scratch'), 404);
    assert.equal(await status(n2, 'GET', '/api/v1/namespaces/app/persistentvolumeclaims/data'), 403);
    assert.equal(await status(n2, 'GET', '/api/v1/persistentvolumes/pv-data'), 403);
    assert.equal(await status(n2, 'GET', '/api/v1/namespaces/app/secrets/csi-key'), 403);
    assert.equal(await status(n1, 'GET', '/api/v1/persistentvolumes'), 403);
  });

  it('limits node and pod reads by field selector (AuthorizeNodeWithSelectors)', async () => {
    // Its own Node may be read before it exists: authorized, not found.
    assert.equal(await status(n1, 'GET', '/api/v1/nodes/n1'), 404);
    const other = await s.api.admin('GET', '/api/v1/nodes/n2', { as: n1 });
    assert.equal(other.status, 403);
    assert.match(other.json().message, /: node 'n1' cannot read 'n2', only its own Node object$/);
    assert.equal(await status(n1, 'GET', '/api/v1/nodes?fieldSelector=metadata.name%3Dn1'), 200);
    assert.equal(await status(n1, 'GET', '/api/v1/nodes'), 403);

    const own = await s.api.admin('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1', { as: n1 });
    assert.equal(own.status, 200);
    assert.ok(own.json().items.every((p: { spec: { nodeName: string } }) => p.spec.nodeName === 'n1'));
    assert.ok(own.json().items.length >= 2);
    const all = await s.api.admin('GET', '/api/v1/pods', { as: n1 });
    assert.equal(all.status, 403);
    assert.match(all.json().message, /: can only list\/watch pods with spec\.nodeName field selector$/);
    assert.equal(await status(n1, 'GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn2'), 403);
    assert.equal(await status(n1, 'GET', '/api/v1/namespaces/app/pods/a'), 200);
    assert.equal(await status(n1, 'GET', '/api/v1/namespaces/app/pods/b'), 403);
  });

  it('grants token requests for its pods’ service accounts and its own lease', async () => {
    await create('/api/v1/namespaces/app/serviceaccounts', { metadata: { name: 'runner' } });
    await create('/api/v1/namespaces/app/serviceaccounts', { metadata: { name: 'idle' } });
    await create('/api/v1/namespaces/app/pods', pod('worker', 'n1', [], { serviceAccountName: 'runner' }));
    const token = (sa: string, creds: Creds) =>
      status(creds, 'POST', `/api/v1/namespaces/app/serviceaccounts/${sa}/token`, {
        apiVersion: 'authentication.orch.io/v1',
        kind: 'TokenRequest',
        spec: { audiences: ['api'] },
      });
    await eventually(async () => (await token('runner', n1)) === 201, 'n1 gets a token for runner');
    assert.equal(await token('runner', n2), 403);
    assert.equal(await token('idle', n1), 403);

    const lease = (name: string) => ({
      apiVersion: 'coordination.orch.io/v1',
      kind: 'Lease',
      metadata: { name },
      spec: { holderIdentity: name },
    });
    const leases = '/apis/coordination.orch.io/v1/namespaces/orch-node-lease/leases';
    assert.equal(await status(n1, 'POST', leases, lease('n1')), 201);
    assert.equal(await status(n1, 'GET', `${leases}/n1`), 200);
    const foreign = await s.api.admin('GET', `${leases}/n2`, { as: n1 });
    assert.equal(foreign.status, 403);
    assert.match(foreign.json().message, /: can only access node lease with the same name as the requesting node$/);
  });

  it('decides nothing for users who are not nodes', async () => {
    const alice = await s.userCredentials('alice', ['system:nodes']);
    const r = await s.api.admin('GET', '/api/v1/namespaces/app/secrets/a-secret', { as: alice });
    assert.equal(r.status, 403);
    assert.equal(
      r.json().message,
      'secrets "a-secret" is forbidden: User "alice" cannot get resource "secrets" in API group "" in the namespace "app"',
    );
    const nameless = await s.userCredentials('system:node:', ['system:nodes']);
    const u = await s.api.admin('GET', '/api/v1/nodes/x', { as: nameless });
    assert.equal(u.status, 403);
    assert.match(u.json().message, /: unknown node for user "system:node:"$/);
  });

  it('SelfSubjectRulesReview of a node is incomplete, with kube’s error', async () => {
    const r = await s.api.admin('POST', '/apis/authorization.orch.io/v1/selfsubjectrulesreviews', {
      as: n1,
      body: { apiVersion: 'authorization.orch.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'app' } },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().status.incomplete, true);
    assert.match(r.json().status.evaluationError, /node authorizer does not support user rule resolution/);
  });
});

describe('Node authorizer without AuthorizeNodeWithSelectors', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false, featureGates: { AuthorizeNodeWithSelectors: false } });
  });
  after(() => s.stop());

  it('lets nodes list all pods and nodes (kube’s static node rules)', async () => {
    const n1 = await s.userCredentials('system:node:n1', ['system:nodes']);
    assert.equal((await s.api.admin('GET', '/api/v1/pods', { as: n1 })).status, 200);
    assert.equal((await s.api.admin('GET', '/api/v1/nodes', { as: n1 })).status, 200);
    // Secrets stay subdivided by the graph.
    assert.equal((await s.api.admin('GET', '/api/v1/namespaces/default/secrets/x', { as: n1 })).status, 403);
  });
});
