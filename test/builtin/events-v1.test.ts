import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventSchema as coreEventSchema } from '../../src/apis/core/core-v1-schemas.js';
import { eventSchema as v1EventSchema } from '../../src/apis/events/events-v1-schemas.js';
import { decodeList, decodeObject, encodeObject } from '../../src/encoding/protobuf/index.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { eventually } from '../support/eventually.js';
import { openWatch, type WatchClient } from '../support/watch-client.js';
import { coreEvent as coreSample, v1Event as v1Sample } from './event-samples.js';

// events.k8s.io/v1 Event as a second view of the core/v1 Events (kube-apiserver v1.32): one
// stored object, readable, writable and watchable through both, under --api-domain=k8s.io.

const NS = 'ev';
const CORE = `/api/v1/namespaces/${NS}/events`;
const V1 = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

let s: InProcessServer;
before(async () => {
  s = await startInProcess({ apiDomain: 'k8s.io', runControllers: false });
  const ns = await s.api.admin('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
  });
  assert.equal(ns.status, 201, ns.text);
});
after(async () => {
  await s?.stop();
});

const coreEvent = (name: string, extra?: Record<string, unknown>) => coreSample(NS, name, extra);
const v1Event = (name: string, extra?: Record<string, unknown>) => v1Sample(NS, name, extra);

const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  s.api.admin(method, path, { body: body as object | undefined, headers });

async function created(path: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await api('POST', path, body);
  assert.equal(r.status, 201, r.text);
  return r.json();
}

describe('events.k8s.io/v1 and core/v1 events: one stored object', () => {
  it('reads a core/v1 create through events/v1 with the fields mapped', async () => {
    const core = await created(CORE, coreEvent('core-made'));
    const r = await api('GET', `${V1}/core-made`);
    assert.equal(r.status, 200, r.text);
    const { metadata, ...fields } = r.json();
    assert.deepEqual(fields, {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      reason: 'Pulled',
      regarding: { kind: 'Pod', namespace: NS, name: 'web-0', uid: 'pod-uid', apiVersion: 'v1' },
      note: 'Pulled image',
      type: 'Normal',
      deprecatedSource: { component: 'node-agent', host: 'node-1' },
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:01:00Z',
      deprecatedCount: 2,
    });
    const coreMeta = core.metadata as Record<string, unknown>;
    assert.equal(metadata.uid, coreMeta.uid);
    assert.equal(metadata.resourceVersion, coreMeta.resourceVersion);
  });

  it('reads an events/v1 create through core/v1 with the fields mapped', async () => {
    const v1 = await created(V1, v1Event('v1-made'));
    const r = await api('GET', `${CORE}/v1-made`);
    assert.equal(r.status, 200, r.text);
    const { metadata, ...fields } = r.json();
    assert.deepEqual(fields, {
      apiVersion: 'v1',
      kind: 'Event',
      involvedObject: { kind: 'Pod', namespace: NS, name: 'web-1', uid: 'pod-uid-1', apiVersion: 'v1' },
      reason: 'Scheduled',
      message: 'Assigned to node-1',
      source: {},
      type: 'Normal',
      eventTime: '2026-01-01T00:00:00.123456Z',
      action: 'Binding',
      reportingComponent: 'example.com/scheduler',
      reportingInstance: 'scheduler-1',
    });
    assert.equal(metadata.resourceVersion, (v1.metadata as Record<string, unknown>).resourceVersion);
    // Both views list the same objects.
    const names = async (path: string) =>
      ((await api('GET', path)).json().items as { metadata: { name: string } }[]).map((i) => i.metadata.name).sort();
    assert.deepEqual(await names(V1), await names(CORE));
  });

  it('lets each view watch the writes made through the other', async () => {
    const list = await api('GET', V1);
    const rv = list.json().metadata.resourceVersion as string;
    const creds = s.admin;
    const watches: WatchClient[] = [
      await openWatch(s.url, `${V1}?watch=true&resourceVersion=${rv}`, creds),
      await openWatch(s.url, `${CORE}?watch=true&resourceVersion=${rv}`, creds),
    ];
    try {
      await created(CORE, coreEvent('watched-core'));
      await created(V1, v1Event('watched-v1'));
      const [onV1, onCore] = await Promise.all(watches.map((w) => w.waitFor(2)));
      assert.deepEqual(
        onV1?.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name]),
        [
          ['ADDED', 'events.k8s.io/v1', 'watched-core'],
          ['ADDED', 'events.k8s.io/v1', 'watched-v1'],
        ],
      );
      assert.equal(onV1?.[0]?.object.note, 'Pulled image');
      assert.deepEqual(
        onCore?.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name]),
        [
          ['ADDED', 'v1', 'watched-core'],
          ['ADDED', 'v1', 'watched-v1'],
        ],
      );
      assert.equal(onCore?.[1]?.object.message, 'Assigned to node-1');
      assert.equal(onCore?.[1]?.object.reportingComponent, 'example.com/scheduler');
    } finally {
      for (const w of watches) w.close();
    }
  });

  it('updates and patches through events/v1, seen through core/v1', async () => {
    const ev = await created(V1, v1Event('updated'));
    const series = { count: 2, lastObservedTime: '2026-01-01T00:02:00.000000Z' };
    const put = await api('PUT', `${V1}/updated`, { ...ev, series });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.json().series, series);
    const merge = await api(
      'PATCH',
      `${V1}/updated`,
      { series: { count: 3, lastObservedTime: '2026-01-01T00:03:00.000000Z' } },
      { 'content-type': 'application/merge-patch+json' },
    );
    assert.equal(merge.status, 200, merge.text);
    const strategic = await api(
      'PATCH',
      `${V1}/updated`,
      { metadata: { labels: { seen: 'yes' } } },
      { 'content-type': 'application/strategic-merge-patch+json' },
    );
    assert.equal(strategic.status, 200, strategic.text);
    const core = (await api('GET', `${CORE}/updated`)).json();
    assert.deepEqual(core.series, { count: 3, lastObservedTime: '2026-01-01T00:03:00.000000Z' });
    assert.deepEqual(core.metadata.labels, { seen: 'yes' });
    assert.equal(core.message, 'Assigned to node-1');
    // A core/v1 update of what events/v1 keeps immutable is allowed (legacy rules only).
    const coreUpdate = await api('PUT', `${CORE}/updated`, { ...core, message: 'changed through core' });
    assert.equal(coreUpdate.status, 200, coreUpdate.text);
    assert.equal((await api('GET', `${V1}/updated`)).json().note, 'changed through core');
  });

  // kube names its internal kind in these 422s, core's Event, whichever view was written.
  it('refuses changes of immutable fields through events/v1 with kube causes', async () => {
    const ev = await created(V1, v1Event('immutable'));
    const r = await api('PUT', `${V1}/immutable`, { ...ev, note: 'rewritten', type: 'Warning' });
    assert.equal(r.status, 422, r.text);
    const status = r.json();
    assert.equal(
      status.message,
      'Event "immutable" is invalid: [message: Invalid value: "rewritten": field is immutable, type: Invalid value: "Warning": field is immutable]',
    );
    assert.deepEqual(status.details, {
      name: 'immutable',
      kind: 'Event',
      causes: [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "rewritten": field is immutable', field: 'message' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "Warning": field is immutable', field: 'type' },
      ],
    });
  });

  it('requires the new fields on create, with kube messages', async () => {
    const bare = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'bare' },
      regarding: { kind: 'Pod', name: 'web-0', namespace: NS },
      type: 'Error',
    };
    const r = await api('POST', V1, bare);
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(
      r.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
      ['eventTime: Required value', 'type: Invalid value: "": has invalid value: Error'],
    );
    const partial = await api('POST', V1, v1Event('partial', { action: undefined, reportingInstance: '' }));
    assert.equal(partial.status, 422, partial.text);
    assert.equal(
      partial.json().message,
      'Event "partial" is invalid: [reportingInstance: Required value, action: Required value]',
    );
  });

  it('refuses the deprecated fields on new events/v1 objects', async () => {
    const r = await api(
      'POST',
      V1,
      v1Event('deprecated', {
        deprecatedSource: { component: 'node-agent' },
        deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
        deprecatedLastTimestamp: '2026-01-01T00:00:00Z',
        deprecatedCount: 1,
      }),
    );
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.json().message,
      'Event "deprecated" is invalid: [firstTimestamp: Invalid value: "": needs to be unset, lastTimestamp: Invalid value: "": needs to be unset, count: Invalid value: "": needs to be unset, source: Invalid value: "": needs to be unset]',
    );
    assert.equal((await api('GET', `${CORE}/deprecated`)).status, 404);
  });

  it("selects events/v1 objects by kube's events/v1 field labels", async () => {
    await created(V1, v1Event('selected', { regarding: { kind: 'Node', name: 'node-9', namespace: NS } }));
    const names = async (selector: string) => {
      const r = await api('GET', `/apis/events.k8s.io/v1/events?fieldSelector=${encodeURIComponent(selector)}`);
      assert.equal(r.status, 200, r.text);
      return (r.json().items as { metadata: { name: string } }[]).map((i) => i.metadata.name);
    };
    assert.deepEqual(await names('regarding.name=node-9'), ['selected']);
    assert.deepEqual(await names('regarding.kind=Node,reportingController=example.com/scheduler'), ['selected']);
    assert.ok((await names('source=node-agent')).includes('core-made'));
    const refused = await api('GET', `${V1}?fieldSelector=involvedObject.name%3Dweb-0`);
    assert.equal(refused.status, 400);
    assert.equal(refused.json().message, 'field label not supported: involvedObject.name');
    const coreRefused = await api('GET', `${CORE}?fieldSelector=regarding.name%3Dweb-0`);
    assert.equal(coreRefused.status, 400);
    assert.equal(coreRefused.json().message, 'field label not supported: regarding.name');
  });

  it('serves events/v1 in Protobuf, written and read', async () => {
    const json = await created(V1, v1Event('protobuf'));
    const pb = await api('GET', `${V1}/protobuf`, undefined, { accept: PROTOBUF });
    assert.equal(pb.headers['content-type'], PROTOBUF);
    assert.deepEqual(decodeObject(v1EventSchema, pb.body), json);
    const put = await s.api.admin('PUT', `${V1}/protobuf`, {
      body: Buffer.from(
        encodeObject(v1EventSchema, { ...json, series: { count: 2, lastObservedTime: '2026-01-01T00:09:00.000000Z' } }),
      ),
      headers: { 'content-type': PROTOBUF, accept: PROTOBUF },
    });
    assert.equal(put.status, 200, put.text);
    const back = decodeObject(v1EventSchema, put.body) as Record<string, unknown>;
    assert.deepEqual(back.series, { count: 2, lastObservedTime: '2026-01-01T00:09:00.000000Z' });
    const core = await api('GET', `${CORE}/protobuf`, undefined, { accept: PROTOBUF });
    const coreObj = decodeObject(coreEventSchema, core.body) as Record<string, unknown>;
    assert.deepEqual(coreObj.series, back.series);
    assert.equal(coreObj.reportingComponent, 'example.com/scheduler');
    const list = await api('GET', V1, undefined, { accept: PROTOBUF });
    const items = decodeList(v1EventSchema, list.body).items as { metadata: { name: string }; note?: string }[];
    assert.equal(items.find((i) => i.metadata.name === 'core-made')?.note, 'Pulled image');
  });
});

describe('events.k8s.io/v1 discovery', () => {
  it('is a group of /apis with short name ev, in aggregated discovery and OpenAPI', async () => {
    const groups = (await api('GET', '/apis')).json().groups as { name: string; preferredVersion: unknown }[];
    const events = groups.find((g) => g.name === 'events.k8s.io');
    assert.deepEqual(events?.preferredVersion, { groupVersion: 'events.k8s.io/v1', version: 'v1' });
    const list = (await api('GET', '/apis/events.k8s.io/v1')).json();
    assert.deepEqual(list.resources, [
      {
        name: 'events',
        singularName: 'event',
        namespaced: true,
        kind: 'Event',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['ev'],
      },
    ]);
    const aggregated = await api('GET', '/apis', undefined, {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    });
    const item = aggregated
      .json()
      .items.find((i: { metadata: { name: string } }) => i.metadata.name === 'events.k8s.io');
    assert.equal(item?.versions[0]?.version, 'v1');
    assert.deepEqual(
      item?.versions[0]?.resources.map((r: { resource: string; shortNames: string[] }) => [r.resource, r.shortNames]),
      [['events', ['ev']]],
    );
    const openapi = await api('GET', '/openapi/v3/apis/events.k8s.io/v1');
    assert.equal(openapi.status, 200);
    const schemas = openapi.json().components.schemas;
    assert.deepEqual(Object.keys(schemas['io.k8s.api.events.v1.Event'].properties), [
      'action',
      'apiVersion',
      'deprecatedCount',
      'deprecatedFirstTimestamp',
      'deprecatedLastTimestamp',
      'deprecatedSource',
      'eventTime',
      'kind',
      'metadata',
      'note',
      'reason',
      'regarding',
      'related',
      'reportingController',
      'reportingInstance',
      'series',
      'type',
    ]);
  });
});

describe('events.k8s.io/v1 in the metrics', () => {
  it('counts the stored events once, as core events (kube: one store named events)', async () => {
    const list = (await api('GET', '/api/v1/events')).json();
    const text = (await api('GET', '/metrics')).text;
    const series = text.split('\n').filter((l) => l.startsWith('apiserver_storage_objects{') && l.includes('events'));
    assert.deepEqual(series, [`apiserver_storage_objects{resource="events"} ${list.items.length}`]);
  });
});

describe('events.k8s.io/v1 and namespace deletion', () => {
  it('removes the events written through either view with the namespace', async () => {
    const c = await startInProcess({ apiDomain: 'k8s.io' });
    try {
      const post = async (path: string, body: unknown) => {
        const r = await c.api.admin('POST', path, { body: body as object });
        assert.equal(r.status, 201, r.text);
      };
      await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gone' } });
      await post('/api/v1/namespaces/gone/events', coreSample('gone', 'a'));
      await post('/apis/events.k8s.io/v1/namespaces/gone/events', v1Sample('gone', 'b'));
      assert.equal((await c.api.admin('DELETE', '/api/v1/namespaces/gone')).status, 200);
      await eventually(
        async () => (await c.api.admin('GET', '/api/v1/namespaces/gone')).status === 404,
        'the namespace is gone',
        30000,
      );
      const left = (await c.api.admin('GET', '/apis/events.k8s.io/v1/namespaces/gone/events')).json();
      assert.deepEqual(left.items, []);
    } finally {
      await c.stop();
    }
  });
});

describe('events.k8s.io/v1 under --runtime-config', () => {
  it('is not served when switched off; core/v1 events still are', async () => {
    const off = await startInProcess({
      apiDomain: 'k8s.io',
      runControllers: false,
      runtimeConfig: 'events.k8s.io/v1=false',
    });
    try {
      const r = await off.api.admin('GET', '/apis/events.k8s.io/v1/events');
      assert.equal(r.status, 404);
      const groups = (await off.api.admin('GET', '/apis')).json().groups as { name: string }[];
      assert.ok(!groups.some((g) => g.name === 'events.k8s.io'));
      assert.equal((await off.api.admin('GET', '/api/v1/events')).status, 200);
    } finally {
      await off.stop();
    }
  });
});
