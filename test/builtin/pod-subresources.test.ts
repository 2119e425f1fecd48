import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';

// Pod sub-resources that reach other objects, against a real server: binding (and the legacy
// `bindings` resource), eviction honouring disruption budgets, and the node-agent sub-resources
// that have no node agent to reach.

const NS = 'subs';
const pods = `/api/v1/namespaces/${NS}/pods`;
const budgets = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;
const merge = { 'content-type': 'application/merge-patch+json' };

describe('pod binding, eviction and node-agent sub-resources', () => {
  let s: InProcessServer;
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    s.api.admin(method, path, { body: body as object, headers });

  const createPod = async (name: string, extra: { labels?: Record<string, string>; spec?: object } = {}) => {
    const r = await api('POST', pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels: extra.labels },
      spec: { containers: [{ name: 'c', image: 'nginx' }], ...(extra.spec ?? {}) },
    });
    assert.equal(r.status, 201, r.text);
  };
  const setPodStatus = async (name: string, status: object) => {
    const r = await api('PATCH', `${pods}/${name}/status`, { status }, merge);
    assert.equal(r.status, 200, r.text);
  };
  const runningReady = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  const createBudget = async (name: string, app: string) => {
    const r = await api('POST', budgets, {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name },
      spec: { minAvailable: 1, selector: { matchLabels: { app } } },
    });
    assert.equal(r.status, 201, r.text);
  };
  const setBudgetStatus = async (name: string, status: object) => {
    const r = await api('PATCH', `${budgets}/${name}/status`, { status: { observedGeneration: 1, ...status } }, merge);
    assert.equal(r.status, 200, r.text);
  };
  const evict = (name: string, extra: object = {}) =>
    api('POST', `${pods}/${name}/eviction`, {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name, namespace: NS },
      ...extra,
    });

  before(async () => {
    s = await startInProcess({ runControllers: false });
    const r = await api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    assert.equal(r.status, 201, r.text);
  });
  after(() => s.stop());

  it('lists the sub-resources in discovery with kube kinds and verbs', async () => {
    const list = (await api('GET', '/api/v1')).json();
    const find = (name: string) => list.resources.find((r: { name: string }) => r.name === name);
    assert.deepEqual(find('pods/binding'), {
      name: 'pods/binding',
      singularName: '',
      namespaced: true,
      kind: 'Binding',
      verbs: ['create'],
    });
    assert.deepEqual(find('pods/eviction'), {
      name: 'pods/eviction',
      singularName: '',
      namespaced: true,
      group: 'policy',
      version: 'v1',
      kind: 'Eviction',
      verbs: ['create'],
    });
    assert.deepEqual(find('pods/exec').verbs, ['create', 'get']);
    assert.equal(find('pods/exec').kind, 'PodExecOptions');
    assert.deepEqual(find('pods/log').verbs, ['get']);
    assert.deepEqual(find('pods/proxy').verbs, ['create', 'delete', 'get', 'patch', 'update']);
    assert.deepEqual(find('pods/status').verbs, ['get', 'patch', 'update']);
    assert.deepEqual(find('pods/ephemeralcontainers').verbs, ['get', 'patch', 'update']);
    assert.equal(find('nodes/proxy').kind, 'NodeProxyOptions');
    assert.deepEqual(find('bindings').verbs, ['create']);
  });

  it('binds a pod once, sets PodScheduled and merges the annotations; 409 when bound', async () => {
    await createPod('b1');
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'b1', annotations: { 'scheduler/why': 'test' } },
      target: { apiVersion: 'v1', kind: 'Node', name: 'n1' },
    };
    const r = await api('POST', `${pods}/b1/binding`, binding);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const pod = (await api('GET', `${pods}/b1`)).json();
    assert.equal(pod.spec.nodeName, 'n1');
    assert.equal(pod.metadata.annotations['scheduler/why'], 'test');
    const scheduled = pod.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled');
    assert.equal(scheduled.status, 'True');
    assert.match(scheduled.lastTransitionTime, /Z$/);
    const again = await api('POST', `${pods}/b1/binding`, { ...binding, target: { name: 'n2' } });
    assert.equal(again.status, 409, again.text);
    assert.deepEqual(again.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Operation cannot be fulfilled on pods/binding "b1": pod b1 is already assigned to node "n1"',
      reason: 'Conflict',
      details: { name: 'b1', kind: 'pods/binding' },
      code: 409,
    });
  });

  it('binds through the legacy bindings resource; refuses bad targets, names and gated pods', async () => {
    await createPod('b2');
    const legacy = await api('POST', `/api/v1/namespaces/${NS}/bindings`, {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'b2' },
      target: { name: 'n2' },
    });
    assert.equal(legacy.status, 201, legacy.text);
    assert.equal((await api('GET', `${pods}/b2`)).json().spec.nodeName, 'n2');

    await createPod('b3');
    const noTarget = await api('POST', `${pods}/b3/binding`, {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'b3' },
      target: { kind: 'Pod' },
    });
    assert.equal(noTarget.status, 500, noTarget.text);
    assert.equal(
      noTarget.json().message,
      '[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]',
    );
    const mismatch = await api('POST', `${pods}/b3/binding`, {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'other' },
      target: { name: 'n1' },
    });
    assert.equal(mismatch.status, 400, mismatch.text);
    assert.equal(mismatch.json().message, 'name in URL does not match name in Binding object');

    await createPod('gated', { spec: { schedulingGates: [{ name: 'example.com/wait' }] } });
    const gatedPod = (await api('GET', `${pods}/gated`)).json();
    assert.deepEqual(
      gatedPod.status.conditions.map((c: { type: string; reason: string }) => `${c.type}/${c.reason}`),
      ['PodScheduled/SchedulingGated'],
    );
    const gated = await api('POST', `${pods}/gated/binding`, {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'gated' },
      target: { name: 'n1' },
    });
    assert.equal(gated.status, 409, gated.text);
    assert.match(gated.json().message, /pod gated has non-empty \.spec\.schedulingGates/);
  });

  it('evicts a pod no budget covers, and pending pods whatever their budgets', async () => {
    await createPod('free');
    await setPodStatus('free', runningReady);
    const r = await evict('free');
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    assert.equal((await api('GET', `${pods}/free`)).status, 404);

    await createBudget('pending-guard', 'pending');
    await createPod('pending', { labels: { app: 'pending' } });
    assert.equal((await evict('pending')).status, 201);
    assert.equal((await api('GET', `${pods}/pending`)).status, 404);
  });

  it('refuses with 429 while a budget allows no disruption, then takes one from it', async () => {
    await createBudget('guard', 'guarded');
    await createPod('guarded', { labels: { app: 'guarded' } });
    await setPodStatus('guarded', runningReady);

    // The budget's controller has not observed it yet: come back in 10 seconds.
    const early = await evict('guarded');
    assert.equal(early.status, 429, early.text);
    assert.equal(early.headers['retry-after'], '10');
    assert.deepEqual(early.json().details, {
      causes: [
        { reason: 'DisruptionBudget', message: 'The disruption budget guard is still being processed by the server.' },
      ],
      retryAfterSeconds: 10,
    });

    await setBudgetStatus('guard', { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
    const blocked = await evict('guarded');
    assert.equal(blocked.status, 429, blocked.text);
    assert.deepEqual(blocked.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget guard needs 1 healthy pods and has 1 currently',
          },
        ],
      },
      code: 429,
    });
    assert.equal((await api('GET', `${pods}/guarded`)).status, 200);

    await setBudgetStatus('guard', { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });
    const dry = await api('POST', `${pods}/guarded/eviction?dryRun=All`, {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'guarded' },
    });
    assert.equal(dry.status, 201, dry.text);
    assert.equal((await api('GET', `${pods}/guarded`)).status, 200);
    assert.equal((await api('GET', `${budgets}/guard`)).json().status.disruptionsAllowed, 1);

    const evicted = await evict('guarded');
    assert.equal(evicted.status, 201, evicted.text);
    assert.equal((await api('GET', `${pods}/guarded`)).status, 404);
    const budget = (await api('GET', `${budgets}/guard`)).json();
    assert.equal(budget.status.disruptionsAllowed, 0);
    assert.deepEqual(Object.keys(budget.status.disruptedPods), ['guarded']);
    assert.deepEqual(
      budget.status.conditions.map((c: { type: string; status: string; reason: string }) => [
        c.type,
        c.status,
        c.reason,
      ]),
      [['DisruptionAllowed', 'False', 'InsufficientPods']],
    );
  });

  it('answers a failure Status for a pod covered by two budgets, and 400 for a mismatched name', async () => {
    await createBudget('twin-a', 'twin');
    await createBudget('twin-b', 'twin');
    await createPod('twin', { labels: { app: 'twin' } });
    await setPodStatus('twin', runningReady);
    const r = await evict('twin');
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      code: 500,
    });
    assert.equal((await api('GET', `${pods}/twin`)).status, 200);
    const mismatch = await api('POST', `${pods}/twin/eviction`, {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'other' },
    });
    assert.equal(mismatch.status, 400, mismatch.text);
    assert.equal(mismatch.json().message, 'name in URL does not match name in Eviction object');
    assert.equal((await evict('missing')).status, 404);
  });

  it('answers the node-agent sub-resources with a Status: no host, no node, no node agent', async () => {
    await createPod('unbound');
    const noHost = await api('GET', `${pods}/unbound/log`);
    assert.equal(noHost.status, 400, noHost.text);
    assert.equal(noHost.json().message, 'pod unbound does not have a host assigned');
    const noContainer = await api('GET', `${pods}/unbound/exec?container=nope&command=ls`);
    assert.equal(noContainer.status, 400, noContainer.text);
    assert.equal(noContainer.json().message, 'container nope is not valid for pod unbound');
    // b1 is bound to n1, which does not exist yet.
    const noNode = await api('GET', `${pods}/b1/log`);
    assert.equal(noNode.status, 404, noNode.text);
    assert.equal(noNode.json().message, 'nodes "n1" not found');
    const node = await api('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    assert.equal(node.status, 201, node.text);
    for (const [method, sub] of [
      ['GET', 'log'],
      ['POST', 'exec?command=ls'],
      ['POST', 'attach'],
      ['POST', 'portforward'],
      ['GET', 'proxy/healthz'],
    ]) {
      const r = await api(method, `${pods}/b1/${sub}`);
      assert.equal(r.status, 503, `${sub}: ${r.text}`);
      assert.equal(r.json().reason, 'ServiceUnavailable');
      assert.match(r.json().message, /^no node agent \(kubelet\) serves node "n1": pods\/\w+ is not available$/);
    }
    assert.equal((await api('DELETE', `${pods}/b1/log`)).status, 405);
    assert.equal((await api('GET', `${pods}/missing/exec`)).status, 404);
    assert.equal((await api('GET', '/api/v1/nodes/n1/proxy/metrics')).status, 503);
    assert.equal((await api('GET', '/api/v1/nodes/n0/proxy')).status, 404);
  });
});
