import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { eventually } from '../support/eventually.js';

// NodeRestriction against a real server: nodes authenticate with client certificates
// (CN=system:node:<name>, O=system:nodes) and RBAC grants them every write below, so what is
// refused is refused by admission, with kube-apiserver's messages.

const RBAC = '/apis/rbac.authorization.orch.io/v1';
const NS = 'work';
const pods = `/api/v1/namespaces/${NS}/pods`;
const LEASES = '/apis/coordination.orch.io/v1/namespaces';
const CSINODES = '/apis/storage.orch.io/v1/csinodes';
const merge = { 'content-type': 'application/merge-patch+json' };
type Creds = { ca: string; cert: string; key: string };

describe('NodeRestriction admission', () => {
  let s: InProcessServer;
  let n1: Creds;
  let plain: Creds;
  let n1Uid = '';
  const as = (who: Creds | undefined, method: string, path: string, body?: object, headers?: Record<string, string>) =>
    s.api.admin(method, path, { ...(who ? { as: who } : {}), ...(body ? { body } : {}), headers });
  const expectForbidden = async (
    r: Promise<{ status: number; json(): { message: string; reason: string } }>,
    msg: string,
  ) => {
    const res = await r;
    assert.equal(res.status, 403, JSON.stringify(res.json()));
    assert.equal(res.json().reason, 'Forbidden');
    assert.equal(res.json().message, msg);
  };
  const pod = (name: string, nodeName: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { nodeName, serviceAccountName: 'runner', containers: [{ name: 'c', image: 'nginx' }], ...extra },
  });

  before(async () => {
    s = await startInProcess({
      runControllers: false,
      authorizationModes: ['RBAC'],
      enableAdmissionPlugins: ['NodeRestriction'],
    });
    n1 = await s.userCredentials('system:node:n1', ['system:nodes']);
    plain = await s.userCredentials('builder', ['builders']);
    const rules = [
      { apiGroups: [''], resources: ['nodes', 'pods', 'persistentvolumeclaims'], verbs: ['*'] },
      { apiGroups: [''], resources: ['pods/status', 'pods/eviction', 'pods/binding', 'nodes/status'], verbs: ['*'] },
      { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
      { apiGroups: ['coordination.orch.io'], resources: ['leases'], verbs: ['*'] },
      { apiGroups: ['storage.orch.io'], resources: ['csinodes'], verbs: ['*'] },
    ];
    const role = await as(undefined, 'POST', `${RBAC}/clusterroles`, { metadata: { name: 'node-writes' }, rules });
    assert.equal(role.status, 201, role.text);
    const binding = await as(undefined, 'POST', `${RBAC}/clusterrolebindings`, {
      metadata: { name: 'node-writes' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'node-writes' },
      subjects: [
        { kind: 'Group', name: 'system:nodes', apiGroup: 'rbac.authorization.orch.io' },
        { kind: 'Group', name: 'builders', apiGroup: 'rbac.authorization.orch.io' },
      ],
    });
    assert.equal(binding.status, 201, binding.text);
    await eventually(async () => (await as(n1, 'GET', '/api/v1/nodes')).status === 200, 'the grant reaches RBAC');
    for (const [path, body] of [
      ['/api/v1/namespaces', { metadata: { name: NS } }],
      [`/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'runner' } }],
      ['/api/v1/nodes', { metadata: { name: 'n2' } }],
      [pods, pod('on-n1', 'n1')],
      [pods, pod('on-n1-b', 'n1')],
      [pods, pod('on-n2', 'n2')],
    ] as const) {
      const r = await as(undefined, 'POST', path, body);
      assert.equal(r.status, 201, r.text);
    }
  });
  after(() => s.stop());

  it('a node registers its own Node only, without reserved labels', async () => {
    await expectForbidden(
      as(n1, 'POST', '/api/v1/nodes', { metadata: { name: 'n3' } }),
      'nodes "n3" is forbidden: node "n1" is not allowed to modify node "n3"',
    );
    await expectForbidden(
      as(n1, 'POST', '/api/v1/nodes', {
        metadata: {
          name: 'n1',
          labels: { 'node-role.orch.io/control-plane': '', 'node-restriction.orch.io/pool': 'a' },
        },
      }),
      'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.orch.io/pool, node-role.orch.io/control-plane',
    );
    const r = await as(n1, 'POST', '/api/v1/nodes', {
      metadata: { name: 'n1', labels: { 'orch.io/hostname': 'n1', 'node.orch.io/instance-type': 'big', rack: '7' } },
    });
    assert.equal(r.status, 201, r.text);
    n1Uid = r.json().metadata.uid;
  });

  it('a node may update its Node but not its taints, owners or reserved labels, nor another Node', async () => {
    const ok = await as(n1, 'PATCH', '/api/v1/nodes/n1', { metadata: { labels: { rack: '8' } } }, merge);
    assert.equal(ok.status, 200, ok.text);
    const status = await as(n1, 'PATCH', '/api/v1/nodes/n1/status', { status: { phase: 'Running' } }, merge);
    assert.equal(status.status, 200, status.text);
    await expectForbidden(
      as(n1, 'PATCH', '/api/v1/nodes/n1', { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }, merge),
      'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
    );
    await expectForbidden(
      as(n1, 'PATCH', '/api/v1/nodes/n1', { metadata: { labels: { 'node-restriction.orch.io/pool': 'b' } } }, merge),
      'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.orch.io/pool',
    );
    await expectForbidden(
      as(
        n1,
        'PATCH',
        '/api/v1/nodes/n1',
        { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: NS, uid: 'x' }] } },
        merge,
      ),
      'nodes "n1" is forbidden: node "n1" is not allowed to modify ownerReferences',
    );
    await expectForbidden(
      as(n1, 'PATCH', '/api/v1/nodes/n2', { metadata: { labels: { rack: '1' } } }, merge),
      'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
    );
    // The admin still changes taints: only nodes are restricted.
    const admin = await as(undefined, 'PATCH', '/api/v1/nodes/n1', { spec: { unschedulable: true } }, merge);
    assert.equal(admin.status, 200, admin.text);
  });

  it('a node creates only mirror pods bound to and owned by itself', async () => {
    const owner = { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: n1Uid, controller: true };
    const mirror = (name: string, meta: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, annotations: { 'kubernetes.io/config.mirror': 'hash' }, ownerReferences: [owner], ...meta },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }], ...spec },
    });
    const created = await as(n1, 'POST', pods, mirror('static-web'));
    assert.equal(created.status, 201, created.text);
    await expectForbidden(
      as(n1, 'POST', pods, pod('plain', 'n1')),
      'pods "plain" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods',
    );
    await expectForbidden(
      as(n1, 'POST', pods, mirror('elsewhere', {}, { nodeName: 'n2' })),
      'pods "elsewhere" is forbidden: node "n1" can only create pods with spec.nodeName set to itself',
    );
    await expectForbidden(
      as(n1, 'POST', pods, mirror('stale', { ownerReferences: [{ ...owner, uid: 'old-uid' }] })),
      `pods "stale" is forbidden: node n1 UID mismatch: expected old-uid got ${n1Uid}`,
    );
    await expectForbidden(
      as(n1, 'POST', pods, mirror('secretive', {}, { volumes: [{ name: 'v', secret: { secretName: 's' } }] })),
      'pods "secretive" is forbidden: node "n1" can not create pods that reference secrets',
    );
    // Someone else with the same grants creates any pod.
    const other = await as(plain, 'POST', pods, pod('by-builder', 'n1'));
    assert.equal(other.status, 201, other.text);
  });

  it('a node updates the status of, evicts and deletes only pods bound to itself', async () => {
    const own = await as(n1, 'PATCH', `${pods}/on-n1/status`, { status: { phase: 'Running' } }, merge);
    assert.equal(own.status, 200, own.text);
    await expectForbidden(
      as(n1, 'PATCH', `${pods}/on-n2/status`, { status: { phase: 'Running' } }, merge),
      'pods "on-n2" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
    );
    await expectForbidden(
      as(n1, 'PATCH', `${pods}/on-n1/status`, { metadata: { labels: { sneaky: 'yes' } } }, merge),
      'pods "on-n1" is forbidden: node "n1" cannot update labels through pod status',
    );
    await expectForbidden(
      as(n1, 'PATCH', `${pods}/on-n1`, { metadata: { labels: { a: 'b' } } }, merge),
      'pods "on-n1" is forbidden: unexpected operation "UPDATE", node "n1" can only create and delete mirror pods',
    );
    const eviction = (name: string) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } });
    await expectForbidden(
      as(n1, 'POST', `${pods}/on-n2/eviction`, eviction('on-n2')),
      'pods "on-n2" is forbidden: node n1 can only evict pods with spec.nodeName set to itself',
    );
    const evicted = await as(n1, 'POST', `${pods}/on-n1-b/eviction`, eviction('on-n1-b'));
    assert.equal(evicted.status, 201, evicted.text);
    await expectForbidden(
      as(n1, 'DELETE', `${pods}/on-n2`),
      'pods "on-n2" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
    );
    await expectForbidden(
      as(n1, 'POST', `${pods}/on-n1/binding`, {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: 'on-n1' },
        target: { kind: 'Node', name: 'n1' },
      }),
      `pods "on-n1" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`,
    );
    assert.equal((await as(undefined, 'GET', `${pods}/on-n2`)).status, 200);
    const deleted = await as(n1, 'DELETE', `${pods}/on-n1`);
    assert.equal(deleted.status, 200, deleted.text);
  });

  it('a node gets service-account tokens only bound to pods on itself', async () => {
    const uidOf = async (name: string) => (await as(undefined, 'GET', `${pods}/${name}`)).json().metadata.uid as string;
    const tokenFor = (name: string, uid: string) =>
      as(n1, 'POST', `/api/v1/namespaces/${NS}/serviceaccounts/runner/token`, {
        apiVersion: 'authentication.orch.io/v1',
        kind: 'TokenRequest',
        spec: { audiences: ['api'], boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name, uid } },
      });
    await as(undefined, 'POST', pods, pod('token-pod', 'n1'));
    const ok = await tokenFor('token-pod', await uidOf('token-pod'));
    assert.equal(ok.status, 201, ok.text);
    assert.ok(ok.json().status.token);
    await expectForbidden(
      tokenFor('on-n2', await uidOf('on-n2')),
      'serviceaccounts "runner" is forbidden: node requested token bound to a pod scheduled on a different node',
    );
    await expectForbidden(
      as(n1, 'POST', `/api/v1/namespaces/${NS}/serviceaccounts/runner/token`, {
        apiVersion: 'authentication.orch.io/v1',
        kind: 'TokenRequest',
        spec: { audiences: ['api'] },
      }),
      'serviceaccounts "runner" is forbidden: node requested token not bound to a pod',
    );
    const missing = await tokenFor('no-such-pod', 'u');
    assert.equal(missing.status, 404, missing.text);
    assert.equal(missing.json().message, 'pod "no-such-pod" not found');
  });

  it('a node writes only its own lease in the node-lease namespace and its own CSINode', async () => {
    const lease = (name: string) => ({ metadata: { name }, spec: { holderIdentity: name } });
    const own = await as(n1, 'POST', `${LEASES}/orch-node-lease/leases`, lease('n1'));
    assert.equal(own.status, 201, own.text);
    await expectForbidden(
      as(n1, 'POST', `${LEASES}/orch-node-lease/leases`, lease('n2')),
      'leases.coordination.orch.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
    );
    await expectForbidden(
      as(n1, 'POST', `${LEASES}/${NS}/leases`, lease('n1')),
      'leases.coordination.orch.io "n1" is forbidden: can only access leases in the "orch-node-lease" system namespace',
    );
    const renewed = await as(
      n1,
      'PATCH',
      `${LEASES}/orch-node-lease/leases/n1`,
      { spec: { leaseDurationSeconds: 40 } },
      merge,
    );
    assert.equal(renewed.status, 200, renewed.text);
    const csi = (name: string) => ({ metadata: { name }, spec: { drivers: [] } });
    const ownCsi = await as(n1, 'POST', CSINODES, csi('n1'));
    assert.equal(ownCsi.status, 201, ownCsi.text);
    await expectForbidden(
      as(n1, 'POST', CSINODES, csi('n2')),
      'csinodes.storage.orch.io "n2" is forbidden: can only access CSINode with the same name as the requesting node',
    );
  });
});

describe('NodeRestriction is off by default', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false, authorizationModes: ['AlwaysAllow'] });
  });
  after(() => s.stop());

  it('a node may then register another Node', async () => {
    const n1 = await s.userCredentials('system:node:n1', ['system:nodes']);
    const r = await s.api.admin('POST', '/api/v1/nodes', { as: n1, body: { metadata: { name: 'n9' } } });
    assert.equal(r.status, 201, r.text);
  });
});
