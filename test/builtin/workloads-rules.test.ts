import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';

// kube's rules on the workload kinds through a real server: 422s listing every problem with
// kube's messages and paths, the scale and status sub-resources, one HorizontalPodAutoscaler
// seen as v2 and as v1, field selectors and Table columns.

const NS = 'default';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const HPA_V1 = `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`;
const HPA_V2 = `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`;
const JOBS = `/apis/batch/v1/namespaces/${NS}/jobs`;
const RCS = `/api/v1/namespaces/${NS}/replicationcontrollers`;
const TABLE = 'application/json;as=Table;v=v1;g=meta.orch.io';
const MERGE = { 'content-type': 'application/merge-patch+json' };

const containers = [{ name: 'web', image: 'nginx:1.27' }];
const deployment = (name: string, replicas = 2) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers } },
  },
});

describe('workload rules through the API', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false });
  });
  after(() => s.stop());

  it('answers 422 with every problem of a Deployment, each as a cause', async () => {
    const bad = deployment('bad');
    Object.assign(bad.spec, {
      replicas: -1,
      selector: { matchLabels: { app: 'other' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } },
    });
    (bad.spec.template.spec as Record<string, unknown>).restartPolicy = 'Never';
    const r = await s.api.admin('POST', DEPLOYMENTS, { body: bad });
    assert.equal(r.status, 422, r.text);
    const status = r.json();
    assert.equal(status.reason, 'Invalid');
    assert.deepEqual(status.details.causes, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: -1: must be greater than or equal to 0',
        field: 'spec.replicas',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: map[string]string{"app":"bad"}: `selector` does not match template `labels`',
        field: 'spec.template.metadata.labels',
      },
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Never": supported values: "Always"',
        field: 'spec.template.spec.restartPolicy',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
        field: 'spec.strategy.rollingUpdate.maxUnavailable',
      },
    ]);
    assert.match(status.message, /^Deployment\.apps "bad" is invalid: \[spec\.replicas: Invalid value: -1/);
  });

  it('keeps a Deployment selector immutable and counts spec and annotation changes in the generation', async () => {
    const created = (await s.api.admin('POST', DEPLOYMENTS, { body: deployment('immutable') })).json();
    const moved = structuredClone(created);
    moved.spec.selector.matchLabels.tier = 'x';
    moved.spec.template.metadata.labels.tier = 'x';
    const r = await s.api.admin('PUT', `${DEPLOYMENTS}/immutable`, { body: moved });
    assert.equal(r.status, 422);
    assert.deepEqual(
      r.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"immutable", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
      ],
    );
    const annotated = await s.api.admin('PATCH', `${DEPLOYMENTS}/immutable`, {
      body: { metadata: { annotations: { note: 'rolled' } } },
      headers: MERGE,
    });
    assert.equal(annotated.json().metadata.generation, 2);
    const status = await s.api.admin('PATCH', `${DEPLOYMENTS}/immutable/status`, {
      body: {
        metadata: { labels: { stolen: 'yes' } },
        spec: { replicas: 9 },
        status: { replicas: 2, readyReplicas: 1 },
      },
      headers: MERGE,
    });
    assert.equal(status.status, 200, status.text);
    const after = status.json();
    assert.deepEqual(after.status, { replicas: 2, readyReplicas: 1 });
    assert.equal(after.spec.replicas, 2);
    assert.equal(after.metadata.labels, undefined);
    assert.equal(after.metadata.generation, 2);
    const badStatus = await s.api.admin('PATCH', `${DEPLOYMENTS}/immutable/status`, {
      body: { status: { readyReplicas: 5 } },
      headers: MERGE,
    });
    assert.equal(badStatus.status, 422);
    assert.equal(
      badStatus.json().details.causes[0].message,
      'Invalid value: 5: cannot be greater than status.replicas',
    );
  });

  it('scales through PUT and PATCH on /scale, with the selector string in the Scale status', async () => {
    await s.api.admin('POST', DEPLOYMENTS, { body: deployment('scaled', 1) });
    const scale = await s.api.admin('GET', `${DEPLOYMENTS}/scaled/scale`);
    assert.equal(scale.status, 200);
    assert.deepEqual(
      {
        kind: scale.json().kind,
        apiVersion: scale.json().apiVersion,
        spec: scale.json().spec,
        status: scale.json().status,
      },
      {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        spec: { replicas: 1 },
        status: { replicas: 0, selector: 'app=scaled' },
      },
    );
    const put = await s.api.admin('PUT', `${DEPLOYMENTS}/scaled/scale`, {
      body: { ...scale.json(), spec: { replicas: 4 } },
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.json().spec.replicas, 4);
    const patch = await s.api.admin('PATCH', `${DEPLOYMENTS}/scaled/scale`, {
      body: { spec: { replicas: 6 } },
      headers: MERGE,
    });
    assert.equal(patch.json().spec.replicas, 6);
    const parent = (await s.api.admin('GET', `${DEPLOYMENTS}/scaled`)).json();
    assert.equal(parent.spec.replicas, 6);
    // kube's Scale printer: a Name column without the name format, Desired, Available, Age.
    const table = (await s.api.admin('GET', `${DEPLOYMENTS}/scaled/scale`, { headers: { accept: TABLE } })).json();
    assert.deepEqual(
      table.columnDefinitions.map((c: { name: string; type: string; format: string }) => [c.name, c.type, c.format]),
      [
        ['Name', 'string', ''],
        ['Desired', 'integer', ''],
        ['Available', 'integer', ''],
        ['Age', 'string', ''],
      ],
    );
    assert.deepEqual(table.rows[0].cells.slice(0, 3), ['scaled', 6, 0]);
    assert.equal(parent.metadata.generation, 3);
    const negative = await s.api.admin('PATCH', `${DEPLOYMENTS}/scaled/scale`, {
      body: { spec: { replicas: -1 } },
      headers: MERGE,
    });
    assert.equal(negative.status, 422);
    assert.equal(
      negative.json().message,
      'Scale.autoscaling "scaled" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );

    const rc = await s.api.admin('POST', RCS, {
      body: {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'rc' },
        spec: { template: { metadata: { labels: { b: '2', a: '1' } }, spec: { containers } } },
      },
    });
    assert.equal(rc.status, 201, rc.text);
    const rcScale = await s.api.admin('PATCH', `${RCS}/rc/scale`, { body: { spec: { replicas: 3 } }, headers: MERGE });
    assert.deepEqual(rcScale.json().status, { replicas: 0, selector: 'a=1,b=2' });
    assert.equal((await s.api.admin('GET', `${RCS}/rc`)).json().spec.replicas, 3);
  });

  it('keeps one HorizontalPodAutoscaler: written as v2, read as v1, written as v1, read as v2', async () => {
    const v2 = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 2,
        maxReplicas: 10,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } },
        ],
        behavior: { scaleDown: { stabilizationWindowSeconds: 120 } },
      },
    };
    const created = await s.api.admin('POST', HPA_V2, { body: v2 });
    assert.equal(created.status, 201, created.text);
    const behavior = created.json().spec.behavior;
    assert.equal(behavior.scaleDown.stabilizationWindowSeconds, 120);
    assert.equal(behavior.scaleUp.selectPolicy, 'Max');

    const asV1 = (await s.api.admin('GET', `${HPA_V1}/web`)).json();
    assert.equal(asV1.apiVersion, 'autoscaling/v1');
    assert.equal(asV1.spec.targetCPUUtilizationPercentage, 70);
    assert.deepEqual(JSON.parse(asV1.metadata.annotations['autoscaling.alpha.orch.io/metrics']), [
      { type: 'Resource', resource: { name: 'memory', targetAverageValue: '512Mi' } },
    ]);
    assert.equal(
      JSON.parse(asV1.metadata.annotations['autoscaling.alpha.orch.io/behavior']).ScaleDown.StabilizationWindowSeconds,
      120,
    );

    // A v1 client changes the CPU target and writes back what it read: v2's other parts survive.
    const put = await s.api.admin('PUT', `${HPA_V1}/web`, {
      body: { ...asV1, spec: { ...asV1.spec, targetCPUUtilizationPercentage: 55 } },
    });
    assert.equal(put.status, 200, put.text);
    const back = (await s.api.admin('GET', `${HPA_V2}/web`)).json();
    assert.deepEqual(back.spec.metrics, [
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 55 } } },
    ]);
    assert.deepEqual(back.spec.behavior, behavior);
    assert.equal(back.metadata.annotations, undefined);

    // v2 status, written through v2's status, shows in v1 as the CPU figure and annotations.
    const status = await s.api.admin('PUT', `${HPA_V2}/web/status`, {
      body: {
        ...back,
        status: {
          currentReplicas: 3,
          desiredReplicas: 4,
          currentMetrics: [
            { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 61, averageValue: '300m' } } },
          ],
          conditions: [
            {
              type: 'AbleToScale',
              status: 'True',
              lastTransitionTime: '2026-01-01T00:00:00Z',
              reason: 'ReadyForNewScale',
            },
          ],
        },
      },
    });
    assert.equal(status.status, 200, status.text);
    const v1Status = (await s.api.admin('GET', `${HPA_V1}/web`)).json();
    assert.deepEqual(v1Status.status, { currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 61 });
    assert.ok(v1Status.metadata.annotations['autoscaling.alpha.orch.io/conditions'].includes('ReadyForNewScale'));

    // A v1 error is reported on the v2 field, as kube validates the internal form.
    const bad = await s.api.admin('PUT', `${HPA_V1}/web`, {
      body: { ...v1Status, spec: { ...v1Status.spec, targetCPUUtilizationPercentage: 0 } },
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.json().details.causes[0].field, 'spec.metrics[1].resource.target.averageUtilization');

    const table = (await s.api.admin('GET', HPA_V1, { headers: { accept: TABLE } })).json();
    assert.deepEqual(
      table.columnDefinitions.map((c: { name: string }) => c.name),
      ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
    );
    // kube pairs metrics and their statuses by position.
    assert.deepEqual(table.rows[0].cells.slice(0, 6), [
      'web',
      'Deployment/web',
      'memory: 300m/512Mi, cpu: <unknown>/55%',
      '2',
      10,
      3,
    ]);
    assert.equal((await s.api.admin('DELETE', `${HPA_V1}/web`)).status, 200);
    assert.equal((await s.api.admin('GET', `${HPA_V2}/web`)).status, 404);
  });

  it('generates a Job selector, refuses template changes, and selects Jobs on status.successful', async () => {
    const job = await s.api.admin('POST', JOBS, {
      body: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'pi' },
        spec: { template: { spec: { restartPolicy: 'Never', containers } } },
      },
    });
    assert.equal(job.status, 201, job.text);
    const j = job.json();
    assert.deepEqual(j.spec.selector, { matchLabels: { 'batch.orch.io/controller-uid': j.metadata.uid } });
    assert.equal(j.spec.template.metadata.labels['job-name'], 'pi');
    assert.equal(j.metadata.labels['controller-uid'], j.metadata.uid);
    const changed = structuredClone(j);
    changed.spec.template.spec.containers[0].image = 'other';
    const r = await s.api.admin('PUT', `${JOBS}/pi`, { body: changed });
    assert.equal(r.status, 422);
    assert.equal(r.json().details.causes[0].field, 'spec.template');
    const done = await s.api.admin('PATCH', `${JOBS}/pi/status`, {
      body: { status: { succeeded: 1 } },
      headers: MERGE,
    });
    assert.equal(done.status, 200, done.text);
    const selected = (await s.api.admin('GET', `${JOBS}?fieldSelector=status.successful=1`)).json();
    assert.deepEqual(
      selected.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ['pi'],
    );
    const unknown = await s.api.admin('GET', `${JOBS}?fieldSelector=spec.parallelism=1`);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json().message, 'field label "spec.parallelism" not supported for batchv1.Job');
    const rcs = await s.api.admin('GET', `${RCS}?fieldSelector=status.replicas=0`);
    assert.equal(rcs.status, 200, rcs.text);
  });

  it('refuses a bad CronJob schedule and time zone, and prints kube columns', async () => {
    const bad = await s.api.admin('POST', `/apis/batch/v1/namespaces/${NS}/cronjobs`, {
      body: {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'nightly' },
        spec: {
          schedule: '61 * * * *',
          timeZone: 'Mars/Base',
          jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers } } } },
        },
      },
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(
      bad.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
      [
        'spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
        'spec.timeZone: Invalid value: "Mars/Base": unknown time zone Mars/Base',
      ],
    );
    const table = (await s.api.admin('GET', DEPLOYMENTS, { headers: { accept: TABLE } })).json();
    assert.deepEqual(
      table.columnDefinitions.map((c: { name: string; priority: number }) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Ready', 0],
        ['Up-to-date', 0],
        ['Available', 0],
        ['Age', 0],
        ['Containers', 1],
        ['Images', 1],
        ['Selector', 1],
      ],
    );
    const row = table.rows.find((r: { cells: unknown[] }) => r.cells[0] === 'scaled');
    assert.deepEqual(
      [row.cells[1], row.cells[5], row.cells[6], row.cells[7]],
      ['0/6', 'web', 'nginx:1.27', 'app=scaled'],
    );
  });
});
