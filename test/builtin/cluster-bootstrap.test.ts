import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import type { Json } from './cluster-kind-cases.js';

// The bootstrap objects across restarts: kube's system priority classes and API Priority and
// Fairness configuration exist after start; deleted mandatory objects come back, changed
// mandatory specs are restored, suggested objects follow their autoupdate-spec annotation.

const FC = '/apis/flowcontrol.apiserver.orch.io/v1';
const SCHED = '/apis/scheduling.orch.io/v1/priorityclasses';
const ANNOTATION = 'apf.orch.io/autoupdate-spec';
const MERGE = { 'content-type': 'application/merge-patch+json' };

const MANDATORY_LEVELS = ['catch-all', 'exempt'];
const SUGGESTED_LEVELS = ['system', 'node-high', 'leader-election', 'workload-high', 'workload-low', 'global-default'];
const FLOW_SCHEMAS = [
  'exempt',
  'catch-all',
  'system-nodes',
  'system-node-high',
  'probes',
  'system-leader-election',
  'workload-leader-election',
  'endpoint-controller',
  'orch-controller-manager',
  'orch-scheduler',
  'orch-system-service-accounts',
  'service-accounts',
  'global-default',
];

let dataDir: string;
let s: InProcessServer | undefined;
const start = async () => {
  s = await startInProcess({ dataDir, runControllers: false });
  return s;
};
const restart = async () => {
  await s?.server.close();
  return start();
};
const names = async (path: string) =>
  ((await s!.api.admin('GET', path)).json().items as Json[]).map((i) => i.metadata.name).sort();

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'orch-cluster-bootstrap-'));
  await start();
});
after(async () => {
  await s?.server.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('bootstrap objects', () => {
  it('exist after the first start', async () => {
    assert.deepEqual(
      await names(`${FC}/prioritylevelconfigurations`),
      [...MANDATORY_LEVELS, ...SUGGESTED_LEVELS].sort(),
    );
    assert.deepEqual(await names(`${FC}/flowschemas`), [...FLOW_SCHEMAS].sort());
    const catchAll = (await s!.api.admin('GET', `${FC}/flowschemas/catch-all`)).json();
    assert.equal(catchAll.metadata.annotations[ANNOTATION], 'true');
    assert.equal(catchAll.spec.matchingPrecedence, 10000);
    assert.deepEqual(
      (await names(SCHED)).filter((n) => n.startsWith('system-')),
      ['system-cluster-critical', 'system-node-critical'],
    );
    const leader = (await s!.api.admin('GET', `${FC}/flowschemas/system-leader-election`)).json();
    assert.deepEqual(
      leader.spec.rules[0].subjects.map(
        (x: Json) => x.user?.name ?? `${x.serviceAccount.namespace}/${x.serviceAccount.name}`,
      ),
      ['system:orch-controller-manager', 'system:orch-scheduler', 'orch-system/*'],
    );
  });

  it('are restored, kept or left per their kind across a restart', async () => {
    const api = s!.api;
    assert.equal((await api.admin('DELETE', `${FC}/prioritylevelconfigurations/catch-all`)).status, 200);
    assert.equal((await api.admin('DELETE', `${FC}/flowschemas/exempt`)).status, 200);
    // A suggested level the administrator owns (annotation false) keeps its change...
    const owned = await api.admin('PATCH', `${FC}/prioritylevelconfigurations/workload-low`, {
      body: {
        metadata: { annotations: { [ANNOTATION]: 'false' } },
        spec: { limited: { nominalConcurrencyShares: 7 } },
      },
      headers: MERGE,
    });
    assert.equal(owned.status, 200, owned.text);
    // ...one still auto-updated gets its spec back.
    const drifted = await api.admin('PATCH', `${FC}/prioritylevelconfigurations/global-default`, {
      body: { spec: { limited: { nominalConcurrencyShares: 9 } } },
      headers: MERGE,
    });
    assert.equal(drifted.status, 200, drifted.text);
    assert.equal((await api.admin('DELETE', `${FC}/flowschemas/probes`)).status, 200);
    // An object of an older bootstrap configuration is removed; one of the user stays.
    const stale = await api.admin('POST', `${FC}/flowschemas`, {
      body: {
        apiVersion: 'flowcontrol.apiserver.orch.io/v1',
        kind: 'FlowSchema',
        metadata: { name: 'retired-default', annotations: { [ANNOTATION]: 'true' } },
        spec: { priorityLevelConfiguration: { name: 'global-default' }, rules: [] },
      },
    });
    assert.equal(stale.status, 201, stale.text);
    const mine = await api.admin('POST', `${FC}/flowschemas`, {
      body: {
        apiVersion: 'flowcontrol.apiserver.orch.io/v1',
        kind: 'FlowSchema',
        metadata: { name: 'mine' },
        spec: { priorityLevelConfiguration: { name: 'system' } },
      },
    });
    assert.equal(mine.status, 201, mine.text);

    await restart();
    const get = async (path: string) => (await s!.api.admin('GET', path)).json();
    const catchAll = await get(`${FC}/prioritylevelconfigurations/catch-all`);
    assert.deepEqual(catchAll.spec, {
      type: 'Limited',
      limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } },
    });
    assert.equal((await get(`${FC}/flowschemas/exempt`)).spec.matchingPrecedence, 1);
    assert.equal((await get(`${FC}/flowschemas/probes`)).spec.matchingPrecedence, 2);
    const workloadLow = await get(`${FC}/prioritylevelconfigurations/workload-low`);
    assert.equal(workloadLow.spec.limited.nominalConcurrencyShares, 7);
    assert.equal(workloadLow.metadata.annotations[ANNOTATION], 'false');
    assert.equal(
      (await get(`${FC}/prioritylevelconfigurations/global-default`)).spec.limited.nominalConcurrencyShares,
      20,
    );
    const schemas = await names(`${FC}/flowschemas`);
    assert.ok(!schemas.includes('retired-default'));
    assert.ok(schemas.includes('mine'));
  });
});
