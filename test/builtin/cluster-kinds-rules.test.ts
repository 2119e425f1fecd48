import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { csrRequestField } from '../../src/apis/certificates/testing/csr-fixtures.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import type { Json } from './cluster-kind-cases.js';

// Defaults, validation (422 with every cause), the protected system priority classes, the one
// global default, CertificateSigningRequest approval and selection, and the kinds' Table columns.

const SCHED = '/apis/scheduling.orch.io/v1/priorityclasses';
const STORAGE = '/apis/storage.orch.io/v1';
const CERTS = '/apis/certificates.orch.io/v1/certificatesigningrequests';
const FC = '/apis/flowcontrol.apiserver.orch.io/v1';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';

let s: InProcessServer;
before(async () => {
  s = await startInProcess({ runControllers: false });
});
after(async () => {
  await s?.stop();
});

const post = async (path: string, body: Json) => s.api.admin('POST', path, { body });
const causes = (res: { json(): Json }) =>
  (res.json().details?.causes ?? []).map((c: Json) => `${c.field}: ${c.message}`) as string[];

describe('defaults', () => {
  it('PriorityClass, StorageClass and CSIDriver', async () => {
    const pc = await post(SCHED, {
      apiVersion: 'scheduling.orch.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'd-pc' },
      value: 5,
    });
    assert.equal(pc.status, 201, pc.text);
    assert.equal(pc.json().preemptionPolicy, 'PreemptLowerPriority');
    const sc = await post(`${STORAGE}/storageclasses`, {
      apiVersion: 'storage.orch.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'd-sc' },
      provisioner: 'csi.example.com',
    });
    assert.equal(sc.status, 201, sc.text);
    assert.deepEqual([sc.json().reclaimPolicy, sc.json().volumeBindingMode], ['Delete', 'Immediate']);
    const d = await post(`${STORAGE}/csidrivers`, {
      apiVersion: 'storage.orch.io/v1',
      kind: 'CSIDriver',
      metadata: { name: 'd.csi.io' },
      spec: {},
    });
    assert.equal(d.status, 201, d.text);
    assert.deepEqual(
      [d.json().spec.attachRequired, d.json().spec.fsGroupPolicy, d.json().spec.volumeLifecycleModes],
      [true, 'ReadWriteOnceWithFSType', ['Persistent']],
    );
  });

  it('flow control: 30 shares only when unset, an explicit 0 stays, queuing and precedence defaults', async () => {
    const level = (name: string, limited: Json) =>
      post(`${FC}/prioritylevelconfigurations`, {
        apiVersion: 'flowcontrol.apiserver.orch.io/v1',
        kind: 'PriorityLevelConfiguration',
        metadata: { name },
        spec: { type: 'Limited', limited },
      });
    const unset = await level('d-unset', { limitResponse: { type: 'Queue', queuing: {} } });
    assert.equal(unset.status, 201, unset.text);
    assert.deepEqual(unset.json().spec.limited, {
      nominalConcurrencyShares: 30,
      lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
    });
    assert.equal(unset.json().metadata.generation, 1);
    const zero = await level('d-zero', { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } });
    assert.equal(zero.status, 201, zero.text);
    assert.equal(zero.json().spec.limited.nominalConcurrencyShares, 0);
    const fs = await post(`${FC}/flowschemas`, {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1',
      kind: 'FlowSchema',
      metadata: { name: 'd-fs' },
      spec: { priorityLevelConfiguration: { name: 'd-zero' } },
    });
    assert.equal(fs.status, 201, fs.text);
    assert.equal(fs.json().spec.matchingPrecedence, 1000);
  });
});

describe('validation', () => {
  it('reports every problem of a CertificateSigningRequest at once', async () => {
    const res = await post(CERTS, {
      apiVersion: 'certificates.orch.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'bad-csr' },
      spec: {
        request: Buffer.from('-').toString('base64'),
        signerName: 'orch.io/legacy-unknown',
        usages: ['client auth', 'client auth'],
        expirationSeconds: 60,
      },
    });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.json().reason, 'Invalid');
    assert.deepEqual(causes(res), [
      'spec.request: Invalid value: []byte{0x2d}: PEM block type must be CERTIFICATE REQUEST',
      'spec.usages[1]: Duplicate value: "client auth"',
      'spec.signerName: Invalid value: "orch.io/legacy-unknown": the legacy signerName is not allowed via this API version',
      'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
    assert.match(res.json().message, /^CertificateSigningRequest\.certificates\.orch\.io "bad-csr" is invalid: \[/);
  });

  it('keeps system- names for the system classes and values immutable', async () => {
    const res = await post(SCHED, {
      apiVersion: 'scheduling.orch.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'system-mine' },
      value: 2_000_000_000,
    });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(causes(res), [
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
    ]);
    const ok = await post(SCHED, {
      apiVersion: 'scheduling.orch.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'v-pc' },
      value: 10,
    });
    assert.equal(ok.status, 201);
    const patched = await s.api.admin('PATCH', `${SCHED}/v-pc`, {
      body: { value: 11, preemptionPolicy: 'Never' },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 422, patched.text);
    assert.deepEqual(causes(patched), [
      'value: Forbidden: may not be changed in an update.',
      'preemptionPolicy: Invalid value: "Never": field is immutable',
    ]);
  });

  it('keeps a StorageClass provisioner and parameters', async () => {
    const sc = await post(`${STORAGE}/storageclasses`, {
      apiVersion: 'storage.orch.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'v-sc' },
      provisioner: 'a.example.com',
      parameters: { type: 'ssd' },
    });
    assert.equal(sc.status, 201, sc.text);
    const patched = await s.api.admin('PATCH', `${STORAGE}/storageclasses/v-sc`, {
      body: { provisioner: 'b.example.com', parameters: { type: 'hdd' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 422, patched.text);
    assert.deepEqual(causes(patched), [
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
    ]);
  });

  it('keeps the mandatory flow-control objects fixed', async () => {
    const patched = await s.api.admin('PATCH', `${FC}/prioritylevelconfigurations/catch-all`, {
      body: { spec: { limited: { nominalConcurrencyShares: 50 } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 422, patched.text);
    assert.equal(patched.json().details.causes[0].field, 'spec');
    assert.match(patched.json().details.causes[0].message, /spec of 'catch-all' must equal the fixed value$/);
    const exempt = await s.api.admin('PATCH', `${FC}/prioritylevelconfigurations/exempt`, {
      body: { spec: { exempt: { nominalConcurrencyShares: 5 } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(exempt.status, 200, exempt.text);
    assert.equal(exempt.json().spec.exempt.nominalConcurrencyShares, 5);
  });
});

describe('system priority classes', () => {
  it('exist after start, with their values', async () => {
    const list = (await s.api.admin('GET', SCHED)).json();
    const values = Object.fromEntries(list.items.map((i: Json) => [i.metadata.name, i.value]));
    assert.equal(values['system-node-critical'], 2000001000);
    assert.equal(values['system-cluster-critical'], 2000000000);
  });

  it('cannot be deleted', async () => {
    const res = await s.api.admin('DELETE', `${SCHED}/system-node-critical`);
    assert.equal(res.status, 403, res.text);
    assert.equal(
      res.json().message,
      'priorityclasses.scheduling.orch.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
    );
    assert.equal((await s.api.admin('GET', `${SCHED}/system-node-critical`)).status, 200);
  });

  it('allow only one global default', async () => {
    const mk = (name: string, value: number) =>
      post(SCHED, {
        apiVersion: 'scheduling.orch.io/v1',
        kind: 'PriorityClass',
        metadata: { name },
        value,
        globalDefault: true,
      });
    assert.equal((await mk('g-first', 100)).status, 201);
    const second = await mk('g-second', 200);
    assert.equal(second.status, 403, second.text);
    assert.equal(
      second.json().message,
      'priorityclasses.scheduling.orch.io "g-second" is forbidden: PriorityClass g-first is already marked as default. Only one default can exist',
    );
  });
});

describe('CertificateSigningRequest approval', () => {
  const csrPath = `${CERTS}/approve-me`;
  before(async () => {
    const res = await post(CERTS, {
      apiVersion: 'certificates.orch.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'approve-me' },
      spec: {
        request: await csrRequestField('approve-me'),
        signerName: 'example.com/signer',
        usages: ['client auth', 'digital signature'],
        username: 'mallory',
        groups: ['system:masters'],
      },
      status: { conditions: [{ type: 'Approved', status: 'True' }] },
    });
    assert.equal(res.status, 201, res.text);
  });

  it('records the requester, not what was sent, and no status', async () => {
    const csr = (await s.api.admin('GET', csrPath)).json();
    assert.notEqual(csr.spec.username, 'mallory');
    assert.ok(csr.spec.groups.includes('system:masters'), 'the admin is in system:masters');
    assert.ok(!csr.status?.conditions);
  });

  it('refuses approval through status and ignores it through the main resource', async () => {
    const csr = (await s.api.admin('GET', csrPath)).json();
    csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Sneaky' }] };
    const viaStatus = await s.api.admin('PUT', `${csrPath}/status`, { body: csr });
    assert.equal(viaStatus.status, 422, viaStatus.text);
    assert.deepEqual(causes(viaStatus), [
      'status.conditions: Forbidden: updates may not add a condition of type "Approved"',
    ]);
    const viaMain = await s.api.admin('PUT', csrPath, { body: csr });
    assert.equal(viaMain.status, 200, viaMain.text);
    assert.ok(!viaMain.json().status?.conditions);
  });

  it('approves through approval, stamping the condition, and Denied then conflicts', async () => {
    const csr = (await s.api.admin('GET', csrPath)).json();
    csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'E2E', message: 'ok' }] };
    const res = await s.api.admin('PUT', `${csrPath}/approval`, { body: csr });
    assert.equal(res.status, 200, res.text);
    const [cond] = res.json().status.conditions;
    assert.equal(cond.type, 'Approved');
    assert.match(cond.lastUpdateTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(cond.lastTransitionTime, cond.lastUpdateTime);
    const table = await s.api.admin('GET', CERTS, { headers: { accept: TABLE } });
    const row = table.json().rows.find((r: Json) => r.cells[0] === 'approve-me');
    assert.equal(row.cells[5], 'Approved');
    const both = res.json();
    both.status.conditions.push({ type: 'Denied', status: 'True' });
    const denied = await s.api.admin('PUT', `${csrPath}/approval`, { body: both });
    assert.equal(denied.status, 422, denied.text);
    assert.deepEqual(causes(denied), [
      'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
    ]);
  });

  it('selects by spec.signerName', async () => {
    const hit = await s.api.admin('GET', `${CERTS}?fieldSelector=spec.signerName%3Dexample.com%2Fsigner`);
    assert.ok(hit.json().items.some((i: Json) => i.metadata.name === 'approve-me'));
    const miss = await s.api.admin('GET', `${CERTS}?fieldSelector=spec.signerName%3Dother.com%2Fx`);
    assert.deepEqual(miss.json().items, []);
    const bad = await s.api.admin('GET', `${CERTS}?fieldSelector=spec.username%3Dx`);
    assert.equal(bad.status, 400);
    assert.match(bad.json().message, /field label not supported: spec\.username/);
  });
});

describe('Table columns', () => {
  const columns = async (path: string) => {
    const res = await s.api.admin('GET', path, { headers: { accept: TABLE } });
    assert.equal(res.status, 200, res.text);
    return res.json();
  };
  it('are kube printers', async () => {
    const pc = await columns(SCHED);
    assert.deepEqual(
      pc.columnDefinitions.map((c: Json) => c.name),
      ['Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy'],
    );
    const row = pc.rows.find((r: Json) => r.cells[0] === 'system-cluster-critical');
    assert.deepEqual([row.cells[1], row.cells[2], row.cells[4]], [2000000000, false, 'PreemptLowerPriority']);
    const fs = await columns(`${FC}/flowschemas`);
    assert.deepEqual(
      fs.columnDefinitions.map((c: Json) => c.name),
      ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL'],
    );
    const pl = await columns(`${FC}/prioritylevelconfigurations`);
    const system = pl.rows.find((r: Json) => r.cells[0] === 'system');
    assert.deepEqual(
      [system.cells[1], system.cells[2], system.cells[3], system.cells[4], system.cells[5]],
      ['Limited', 30, 64, 6, 50],
    );
    const sc = await columns(`${STORAGE}/storageclasses`);
    assert.deepEqual(
      sc.columnDefinitions.map((c: Json) => c.name),
      ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age'],
    );
    const csr = await columns(CERTS);
    assert.deepEqual(
      csr.columnDefinitions.map((c: Json) => c.name),
      ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition'],
    );
  });
});
