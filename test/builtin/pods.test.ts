import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinResources } from '../../src/apis/builtin.js';
import type { ApiObject } from '../../src/apis/object.js';
import { applyDefaults } from '../../src/apis/schema/defaults.js';
import type { Schema } from '../../src/apis/schema/schema.js';
import { decodeList, decodeObject, encodeObject } from '../../src/encoding/protobuf/index.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { openWatch } from '../support/watch-client.js';

// The pods helper's kinds against a real server (orch.io profile): a full round trip of each kind
// in JSON and Protobuf, kube's defaults and validation, and the pod status and ephemeral
// containers sub-resources.

const PROTOBUF = 'application/vnd.orch.protobuf';
const NS = 'kinds';

interface KindCase {
  readonly kind: string;
  readonly resource: string;
  readonly group: string;
  readonly namespaced: boolean;
  readonly body: Record<string, unknown>;
}

const cases: KindCase[] = [
  {
    kind: 'Pod',
    resource: 'pods',
    group: '',
    namespaced: true,
    body: { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
  },
  {
    kind: 'PodTemplate',
    resource: 'podtemplates',
    group: '',
    namespaced: true,
    body: {
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
    },
  },
  { kind: 'Node', resource: 'nodes', group: '', namespaced: false, body: { spec: { podCIDR: '10.244.0.0/24' } } },
  {
    kind: 'PersistentVolume',
    resource: 'persistentvolumes',
    group: '',
    namespaced: false,
    body: { spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } },
  },
  {
    kind: 'PersistentVolumeClaim',
    resource: 'persistentvolumeclaims',
    group: '',
    namespaced: true,
    body: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: 1073741824 } } } },
  },
  {
    kind: 'LimitRange',
    resource: 'limitranges',
    group: '',
    namespaced: true,
    body: { spec: { limits: [{ type: 'Container', max: { cpu: '2', memory: '1024Mi' } }] } },
  },
  {
    kind: 'ResourceQuota',
    resource: 'resourcequotas',
    group: '',
    namespaced: true,
    body: { spec: { hard: { pods: '10', 'requests.cpu': '0.5' } } },
  },
  {
    kind: 'PodDisruptionBudget',
    resource: 'poddisruptionbudgets',
    group: 'policy',
    namespaced: true,
    body: { spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
  },
];

const base = (c: KindCase) =>
  `${c.group ? `/apis/${c.group}/v1` : '/api/v1'}${c.namespaced ? `/namespaces/${NS}` : ''}/${c.resource}`;
const apiVersion = (c: KindCase) => (c.group ? `${c.group}/v1` : 'v1');
/**
 * Protobuf leaves out zero scalars; a Go client decodes them back into its structs and writes
 * them in JSON (`disruptionsAllowed: 0`), which applying the schema's defaults reproduces.
 */
function goDecode(schema: Schema, body: Buffer): unknown {
  const obj = decodeObject(schema, body) as ApiObject;
  applyDefaults(schema, obj);
  return obj;
}

const schemaOf = (resource: string) => {
  const def = builtinResources().find((d) => d.resource === resource);
  assert.ok(def, resource);
  return def.schema;
};

describe('pods, nodes, volumes, quotas and disruption budgets', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false });
    const ns = await s.api.admin('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
    });
    assert.equal(ns.status, 201, ns.text);
  });
  after(() => s.stop());

  for (const c of cases) {
    it(`${c.kind}: create, get, list, watch, update, strategic merge patch, apply and delete in JSON and Protobuf`, async () => {
      const api = s.api.admin;
      const schema = schemaOf(c.resource);
      const name = `${c.resource.slice(0, 5)}-a`;
      const watch = await openWatch(s.url, `${base(c)}?watch=true`, s.admin);
      const created = await api('POST', base(c), {
        body: { apiVersion: apiVersion(c), kind: c.kind, metadata: { name }, ...c.body },
      });
      assert.equal(created.status, 201, created.text);
      const item = `${base(c)}/${name}`;

      const json = (await api('GET', item)).json();
      assert.equal(json.kind, c.kind);
      const pb = await api('GET', item, { headers: { accept: PROTOBUF } });
      assert.equal(pb.headers['content-type'], PROTOBUF);
      assert.deepEqual(goDecode(schema, pb.body), json, `${c.kind} Protobuf GET`);
      const list = await api('GET', base(c), { headers: { accept: PROTOBUF } });
      assert.deepEqual(
        decodeList(schema, list.body).items.map((o) => (o as { metadata: { name: string } }).metadata.name),
        [name],
      );

      json.metadata.labels = { ...(json.metadata.labels ?? {}), updated: 'pb' };
      const put = await api('PUT', item, {
        body: Buffer.from(encodeObject(schema, json)),
        headers: { 'content-type': PROTOBUF, accept: PROTOBUF },
      });
      assert.equal(put.status, 200, put.text);
      assert.equal(
        (goDecode(schema, put.body) as { metadata: { labels: Record<string, string> } }).metadata.labels.updated,
        'pb',
      );

      const smp = await api('PATCH', item, {
        body: { metadata: { labels: { patched: 'smp' } } },
        headers: { 'content-type': 'application/strategic-merge-patch+json' },
      });
      assert.equal(smp.status, 200, smp.text);
      assert.equal(smp.json().metadata.labels.patched, 'smp');

      const apply = await api('PATCH', `${item}?fieldManager=tester`, {
        body: JSON.stringify({
          apiVersion: apiVersion(c),
          kind: c.kind,
          metadata: { name, labels: { applied: 'ssa' } },
        }),
        headers: { 'content-type': 'application/apply-patch+yaml' },
      });
      assert.equal(apply.status, 200, apply.text);
      const applied = apply.json();
      assert.equal(applied.metadata.labels.applied, 'ssa');
      assert.ok(applied.metadata.managedFields.some((m: { manager: string }) => m.manager === 'tester'));

      const del = await api('DELETE', item);
      assert.equal(del.status, 200, del.text);
      assert.equal((await api('GET', item)).status, 404);

      const events = await watch.waitFor(5);
      watch.close();
      assert.deepEqual(
        events.map((e) => e.type),
        ['ADDED', 'MODIFIED', 'MODIFIED', 'MODIFIED', 'DELETED'],
      );
    });
  }

  it('defaults a pod as kube v1.32 does, its quantities canonical', async () => {
    const r = await s.api.admin('POST', `/api/v1/namespaces/${NS}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'defaulted' },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'registry.local/app:v1',
              ports: [{ containerPort: 8080 }],
              resources: { limits: { cpu: 0.5, memory: '1024Mi' } },
              readinessProbe: { httpGet: { port: 8080 } },
            },
          ],
        },
      },
    });
    assert.equal(r.status, 201, r.text);
    const pod = r.json();
    assert.deepEqual(pod.spec, {
      containers: [
        {
          name: 'app',
          image: 'registry.local/app:v1',
          ports: [{ containerPort: 8080, protocol: 'TCP' }],
          resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } },
          readinessProbe: {
            httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
            timeoutSeconds: 1,
            periodSeconds: 10,
            successThreshold: 1,
            failureThreshold: 3,
          },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
      // The Priority admission plugin's, with no default PriorityClass.
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
      // The DefaultTolerationSeconds admission plugin's.
      tolerations: [
        { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.orch.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    });
    assert.deepEqual(pod.status, { phase: 'Pending', qosClass: 'Guaranteed' });
  });

  it('records the defaults a create got as its writer’s fields, as kube’s managedFields show them', async () => {
    const created = await s.api.admin('POST', `/api/v1/namespaces/${NS}/pods?fieldManager=kubectl-run`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'nginx', labels: { run: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
      },
    });
    assert.equal(created.status, 201, created.text);
    const [entry] = created.json().metadata.managedFields;
    assert.equal(entry.manager, 'kubectl-run');
    // kube-apiserver v1.32's entry for `kubectl run nginx --image=nginx`, byte for byte.
    assert.equal(
      JSON.stringify(entry.fieldsV1),
      '{"f:metadata":{"f:labels":{".":{},"f:run":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}',
    );
    // So an apply that sets a defaulted field to another value conflicts with the creator.
    const apply = await s.api.admin('PATCH', `/api/v1/namespaces/${NS}/pods/nginx?fieldManager=other`, {
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'nginx' },
        spec: { containers: [{ name: 'nginx', image: 'nginx' }], terminationGracePeriodSeconds: 5 },
      }),
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    assert.equal(apply.status, 409, apply.text);
    assert.equal(
      apply.json().message,
      'Apply failed with 1 conflict: conflict with "kubectl-run" using v1: .spec.terminationGracePeriodSeconds',
    );
  });

  it('records a Secret’s stringData as the data keys it became, as kube’s decoder folds it', async () => {
    const created = await s.api.admin('POST', `/api/v1/namespaces/${NS}/secrets?fieldManager=writer`, {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'folded' }, stringData: { user: 'admin' } },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json().metadata.managedFields[0].fieldsV1, {
      'f:data': { '.': {}, 'f:user': {} },
      'f:type': {},
    });
  });

  it('resolves pod priorities from PriorityClasses (the Priority admission plugin)', async () => {
    const podWith = (name: string, spec: Record<string, unknown>) =>
      s.api.admin('POST', `/api/v1/namespaces/${NS}/pods`, {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name },
          spec: { containers: [{ name: 'app', image: 'app' }], ...spec },
        },
      });
    const critical = await podWith('critical', { priorityClassName: 'system-cluster-critical' });
    assert.equal(critical.status, 201, critical.text);
    assert.equal(critical.json().spec.priority, 2000000000);
    assert.equal(critical.json().spec.preemptionPolicy, 'PreemptLowerPriority');
    const unknown = await podWith('unknown', { priorityClassName: 'nope' });
    assert.equal(unknown.status, 403, unknown.text);
    assert.equal(unknown.json().message, 'pods "unknown" is forbidden: no PriorityClass with name nope was found');
    const given = await podWith('given', { priority: 10 });
    assert.equal(given.status, 403, given.text);
    assert.equal(
      given.json().message,
      'pods "given" is forbidden: the integer value of priority (10) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    );
    // Classes created and deleted later are seen by the next pods (the plugin reads the watch cache,
    // which follows the write shortly after it is acknowledged).
    const cls = await s.api.admin('POST', '/apis/scheduling.orch.io/v1/priorityclasses', {
      body: { apiVersion: 'scheduling.orch.io/v1', kind: 'PriorityClass', metadata: { name: 'later' }, value: 1234 },
    });
    assert.equal(cls.status, 201, cls.text);
    const untilStatus = async (name: string, status: number) => {
      for (let i = 0; ; i++) {
        const r = await podWith(`${name}-${i}`, { priorityClassName: 'later' });
        if (r.status === status || i === 50) return r;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const later = await untilStatus('later', 201);
    assert.equal(later.status, 201, later.text);
    assert.equal(later.json().spec.priority, 1234);
    const removed = await s.api.admin('DELETE', '/apis/scheduling.orch.io/v1/priorityclasses/later');
    assert.equal(removed.status, 200, removed.text);
    const refused = await untilStatus('gone', 403);
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.json().message, /no PriorityClass with name later was found$/);
    // An update that omits them keeps the priority and policy the pod was created with.
    const put = critical.json();
    delete put.spec.priority;
    delete put.spec.preemptionPolicy;
    const updated = await s.api.admin('PUT', `/api/v1/namespaces/${NS}/pods/critical`, { body: put });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.json().spec.priority, 2000000000);
  });

  it('taints new nodes not-ready and gives claims the default StorageClass (admission)', async () => {
    const node = await s.api.admin('POST', '/api/v1/nodes', {
      body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'tainted' } },
    });
    assert.equal(node.status, 201, node.text);
    assert.deepEqual(node.json().spec.taints, [{ key: 'node.orch.io/not-ready', effect: 'NoSchedule' }]);
    const claim = (name: string, spec: Record<string, unknown> = {}) =>
      s.api.admin('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
        body: {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
        },
      });
    const before = await claim('before-default');
    assert.equal(before.status, 201, before.text);
    assert.equal(before.json().spec.storageClassName, undefined);
    const sc = await s.api.admin('POST', '/apis/storage.orch.io/v1/storageclasses', {
      body: {
        apiVersion: 'storage.orch.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'standard', annotations: { 'storageclass.orch.io/is-default-class': 'true' } },
        provisioner: 'example.com/standard',
      },
    });
    assert.equal(sc.status, 201, sc.text);
    // The plugin reads the watch cache (kube's reads an informer): wait until it holds the class.
    const seen = await s.api.admin(
      'GET',
      `/apis/storage.orch.io/v1/storageclasses?resourceVersion=${sc.json().metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`,
    );
    assert.equal(seen.status, 200, seen.text);
    try {
      const defaulted = await claim('defaulted');
      assert.equal(defaulted.json().spec.storageClassName, 'standard');
      const explicit = await claim('no-class', { storageClassName: '' });
      assert.equal(explicit.json().spec.storageClassName, '');
    } finally {
      await s.api.admin('DELETE', '/apis/storage.orch.io/v1/storageclasses/standard');
    }
  });

  it('defaults and validates the pod templates of workloads with the pod rules', async () => {
    const deployment = (name: string, container: Record<string, unknown>) =>
      s.api.admin('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, {
        body: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name },
          spec: {
            selector: { matchLabels: { app: name } },
            template: { metadata: { labels: { app: name } }, spec: { containers: [container] } },
          },
        },
      });
    const ok = await deployment('templated', { name: 'web', image: 'nginx', resources: { limits: { cpu: 0.5 } } });
    assert.equal(ok.status, 201, ok.text);
    const spec = ok.json().spec.template.spec;
    assert.equal(spec.dnsPolicy, 'ClusterFirst');
    assert.equal(spec.schedulerName, 'default-scheduler');
    assert.equal(spec.containers[0].imagePullPolicy, 'Always');
    assert.equal(spec.containers[0].terminationMessagePath, '/dev/termination-log');
    // Canonical; requests are copied from limits for pods only, not for templates (as kube).
    assert.deepEqual(spec.containers[0].resources, { limits: { cpu: '500m' } });
    const malformed = await deployment('malformed', {
      name: 'web',
      image: 'nginx',
      resources: { limits: { cpu: 'lots' } },
    });
    assert.equal(malformed.status, 400, malformed.text);
    assert.match(malformed.json().message, /^quantities must match the regular expression/);
    const bad = await deployment('untemplated', { name: 'Web', ports: [{ containerPort: 70000 }] });
    assert.equal(bad.status, 422, bad.text);
    assert.deepEqual(
      bad.json().details.causes.map((c: { field: string }) => c.field),
      [
        'spec.template.spec.containers[0].name',
        'spec.template.spec.containers[0].image',
        'spec.template.spec.containers[0].ports[0].containerPort',
      ],
    );
  });

  it('refuses an invalid pod with 422 and every cause at once', async () => {
    const r = await s.api.admin('POST', `/api/v1/namespaces/${NS}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'bad' },
        spec: {
          restartPolicy: 'Sometimes',
          volumes: [{ name: 'data', emptyDir: {} }],
          containers: [
            { name: 'a', ports: [{ containerPort: 70000 }], volumeMounts: [{ name: 'logs', mountPath: '/logs' }] },
            {
              name: 'a',
              image: 'x',
              imagePullPolicy: 'Sometimes',
              resources: { requests: { cpu: '2' }, limits: { cpu: '1' } },
            },
          ],
        },
      },
    });
    assert.equal(r.status, 422, r.text);
    const status = r.json();
    assert.equal(status.reason, 'Invalid');
    assert.deepEqual(
      status.details.causes.map((c: { field: string; reason: string }) => `${c.reason} ${c.field}`),
      [
        'FieldValueRequired spec.containers[0].image',
        'FieldValueInvalid spec.containers[0].ports[0].containerPort',
        'FieldValueNotFound spec.containers[0].volumeMounts[0].name',
        'FieldValueNotSupported spec.containers[1].imagePullPolicy',
        'FieldValueInvalid spec.containers[1].resources.requests',
        'FieldValueDuplicate spec.containers[1].name',
        'FieldValueNotSupported spec.restartPolicy',
      ],
    );
    assert.match(status.message, /^Pod "bad" is invalid: \[spec\.containers\[0\]\.image: Required value, /);
    assert.match(
      status.message,
      /spec\.containers\[1\]\.resources\.requests: Invalid value: "2": must be less than or equal to cpu limit of 1/,
    );
  });

  it('answers 400 for a malformed quantity, as kube decoding does', async () => {
    const r = await s.api.admin('POST', `/api/v1/namespaces/${NS}/resourcequotas`, {
      body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: 'lots' } } },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(
      r.json().message,
      'ResourceQuota in version "v1" cannot be handled as a ResourceQuota: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
    );
  });

  it('answers 400 for a value its Go field cannot hold, as kube decoding does (never 500)', async () => {
    const post = (resource: string, body: Record<string, unknown>) =>
      s.api.admin('POST', `/api/v1/namespaces/${NS}/${resource}`, { body });
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'pods',
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad' }, spec: 'x' },
        'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec',
      ],
      [
        'pods',
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad' }, spec: { containers: 5 } },
        'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field PodSpec.spec.containers of type []v1.Container',
      ],
      [
        'persistentvolumeclaims',
        { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'bad' }, spec: 'x' },
        'PersistentVolumeClaim in version "v1" cannot be handled as a PersistentVolumeClaim: json: cannot unmarshal string into Go struct field PersistentVolumeClaim.spec of type v1.PersistentVolumeClaimSpec',
      ],
      [
        // Go keeps the first error it meets: an integer out of range before a value of the wrong kind.
        'pods',
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'bad' },
          spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 2147483648 }] }], hostname: 1 },
        },
        'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 2147483648 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
      ],
    ];
    for (const [resource, body, message] of cases) {
      const r = await post(resource, body);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json().reason, 'BadRequest');
      assert.equal(r.json().message, message);
    }
  });

  it('keeps pod specs immutable but for images, and status writes to the status sub-resource', async () => {
    const api = s.api.admin;
    const path = `/api/v1/namespaces/${NS}/pods/immutable`;
    const created = await api('POST', `/api/v1/namespaces/${NS}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'immutable' },
        spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
      },
    });
    assert.equal(created.status, 201, created.text);
    const image = await api('PATCH', path, {
      body: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } },
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    assert.equal(image.status, 200, image.text);
    assert.equal(image.json().spec.containers[0].image, 'nginx:2');
    const policy = await api('PATCH', path, {
      body: { spec: { restartPolicy: 'Never' } },
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    assert.equal(policy.status, 422, policy.text);
    assert.match(
      policy.json().message,
      /spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`,`spec\.initContainers\[\*\]\.image`,`spec\.activeDeadlineSeconds`,`spec\.tolerations` \(only additions to existing tolerations\),`spec\.terminationGracePeriodSeconds` \(allow it to be set to 1 if it was previously negative\)/,
    );
    // The main resource ignores status; the status sub-resource ignores spec.
    const viaMain = await api('PATCH', path, {
      body: { status: { phase: 'Running' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(viaMain.json().status.phase, 'Pending');
    const viaStatus = await api('PATCH', `${path}/status`, {
      body: {
        spec: { nodeName: 'n9' },
        status: { phase: 'Running', podIP: '10.1.2.3', conditions: [{ type: 'Ready', status: 'True' }] },
      },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(viaStatus.status, 200, viaStatus.text);
    const pod = viaStatus.json();
    assert.equal(pod.spec.nodeName, undefined);
    assert.equal(pod.status.phase, 'Running');
    assert.deepEqual(pod.status.podIPs, [{ ip: '10.1.2.3' }]);
    assert.equal(pod.status.qosClass, 'BestEffort');
    const qos = await api('PATCH', `${path}/status`, {
      body: { status: { qosClass: 'Guaranteed' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(qos.status, 422, qos.text);
    assert.match(qos.json().message, /status\.qosClass: Invalid value: "Guaranteed": field is immutable/);
  });

  it('adds ephemeral containers only through their sub-resource', async () => {
    const api = s.api.admin;
    const path = `/api/v1/namespaces/${NS}/pods/debuggee`;
    await api('POST', `/api/v1/namespaces/${NS}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'debuggee' },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    });
    const debug = { name: 'debug', image: 'busybox', targetContainerName: 'c', stdin: true, tty: true };
    const viaMain = await api('PATCH', path, {
      body: { spec: { ephemeralContainers: [debug] } },
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    assert.equal(viaMain.status, 422, viaMain.text);
    const r = await api('PATCH', `${path}/ephemeralcontainers`, {
      body: { spec: { ephemeralContainers: [debug] } },
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    assert.equal(r.status, 200, r.text);
    const added = r.json().spec.ephemeralContainers[0];
    assert.equal(added.name, 'debug');
    assert.equal(added.imagePullPolicy, 'Always');
    const bad = await api('PATCH', `${path}/ephemeralcontainers`, {
      body: { spec: { ephemeralContainers: [{ name: 'p', image: 'x', ports: [{ containerPort: 80 }] }] } },
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    assert.equal(bad.status, 422, bad.text);
    assert.match(
      bad.json().message,
      /spec\.ephemeralContainers\[\d\]\.ports: Forbidden: cannot be set for an Ephemeral Container/,
    );
  });

  it('defaults and validates the other kinds with kube messages', async () => {
    const api = s.api.admin;
    const pv = await api('POST', '/api/v1/persistentvolumes', {
      body: {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: 'pv-d' },
        spec: { capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOnce'], nfs: { server: 'nfs', path: '/x' } },
      },
    });
    assert.equal(pv.status, 201, pv.text);
    assert.equal(pv.json().spec.persistentVolumeReclaimPolicy, 'Retain');
    assert.equal(pv.json().spec.volumeMode, 'Filesystem');
    assert.equal(pv.json().status.phase, 'Pending');
    assert.match(pv.json().status.lastPhaseTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const pvc = await api('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
      body: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'pvc-bad' }, spec: {} },
    });
    assert.equal(pvc.status, 422, pvc.text);
    assert.deepEqual(
      pvc.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
      [
        'spec.accessModes: Required value: at least 1 access mode is required',
        'spec.resources[storage]: Required value',
      ],
    );
    const node = await api('POST', '/api/v1/nodes', {
      body: {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'n-d' },
        status: { capacity: { cpu: '4', pods: '110' } },
      },
    });
    assert.equal(node.status, 201, node.text);
    assert.deepEqual(node.json().status.allocatable, { cpu: '4', pods: '110' });
    assert.equal(node.json().status.nodeInfo.kubeletVersion, '');
    const pdb = await api('POST', `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`, {
      body: {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'both' },
        spec: { minAvailable: 1, maxUnavailable: '10%' },
      },
    });
    assert.equal(pdb.status, 422, pdb.text);
    assert.match(pdb.json().message, /minAvailable and maxUnavailable cannot be both set/);
    const lr = await api('POST', `/api/v1/namespaces/${NS}/limitranges`, {
      body: {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'lr-bad' },
        spec: { limits: [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }] },
      },
    });
    assert.equal(lr.status, 422, lr.text);
    assert.match(
      lr.json().message,
      /spec\.limits\[0\]\.min\[cpu\]: Invalid value: "2": min value 2 is greater than max value 1/,
    );
  });

  it('serves kube field selectors and Table columns', async () => {
    const api = s.api.admin;
    const mk = (name: string, nodeName?: string) =>
      api('POST', `/api/v1/namespaces/${NS}/pods`, {
        body: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name },
          spec: { nodeName, containers: [{ name: 'c', image: 'x' }] },
        },
      });
    assert.equal((await mk('on-n1', 'n1')).status, 201);
    assert.equal((await mk('unbound')).status, 201);
    const onN1 = (await api('GET', `/api/v1/namespaces/${NS}/pods?fieldSelector=spec.nodeName=n1`)).json();
    assert.deepEqual(
      onN1.items.map((p: { metadata: { name: string } }) => p.metadata.name),
      ['on-n1'],
    );
    const pending = (
      await api('GET', `/api/v1/pods?fieldSelector=status.phase=Pending,spec.restartPolicy=Always`)
    ).json();
    assert.ok(pending.items.length >= 2);
    const bad = await api('GET', `/api/v1/namespaces/${NS}/pods?fieldSelector=spec.image=x`);
    assert.equal(bad.status, 400);
    assert.equal(bad.json().message, 'field label not supported: spec.image');
    const table = (
      await api('GET', `/api/v1/namespaces/${NS}/pods?fieldSelector=metadata.name=on-n1`, {
        headers: { accept: 'application/json;as=Table;g=meta.orch.io;v=v1' },
      })
    ).json();
    assert.deepEqual(
      table.columnDefinitions.map((c: { name: string; priority: number }) => `${c.name}/${c.priority}`),
      [
        'Name/0',
        'Ready/0',
        'Status/0',
        'Restarts/0',
        'Age/0',
        'IP/1',
        'Node/1',
        'Nominated Node/1',
        'Readiness Gates/1',
      ],
    );
    assert.deepEqual(
      table.rows[0].cells.filter((_: unknown, i: number) => i !== 4),
      ['on-n1', '0/1', 'Pending', '0', '<none>', 'n1', '<none>', '<none>'],
    );
  });
});
