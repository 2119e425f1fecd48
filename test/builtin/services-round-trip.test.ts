import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiDomain } from '../../src/apis/api-domain.js';
import { builtinResources } from '../../src/apis/builtin.js';
import type { Schema } from '../../src/apis/schema/schema.js';
import { decodeList, decodeObject, encodeObject } from '../../src/encoding/protobuf/index.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { openWatch } from '../support/watch-client.js';

// Every kind of the Service area through the HTTP API of a real server: create, get, list (JSON,
// Table, Protobuf), watch, update, strategic merge patch, server-side apply and delete; then a
// create and read in Protobuf.

const NS = 'default';
const domain = apiDomain('orch.io');
const NET = domain.group('networking');
const DISC = domain.group('discovery');
const PROTOBUF = domain.protobufMediaType;
const APPLY = 'application/apply-patch+yaml';
const SMP = 'application/strategic-merge-patch+json';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Obj = Record<string, any>;

interface KindCase {
  readonly kind: string;
  readonly base: string;
  readonly namespaced: boolean;
  /** A valid object named `name`. */
  manifest(name: string): Obj;
  /** A change made by PUT (mutates a copy of the stored object). */
  change(obj: Obj): void;
  /** Checks the change is stored. */
  changed(obj: Obj): boolean;
  /** A strategic merge patch and how to see it applied. */
  readonly patch: Obj;
  patched(obj: Obj): boolean;
  /** The Table header kube prints (`kubectl get`). */
  readonly columns: readonly string[];
}

const KINDS: readonly KindCase[] = [
  {
    kind: 'Service',
    base: `/api/v1/namespaces/${NS}/services`,
    namespaced: true,
    manifest: (name) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, labels: { app: 'rt' } },
      spec: { selector: { app: 'rt' }, ports: [{ name: 'http', port: 80 }] },
    }),
    change: (o) => {
      o.spec.ports.push({ name: 'https', port: 443, targetPort: 8443 });
    },
    changed: (o) => o.spec.ports.length === 2 && o.spec.ports[1].targetPort === 8443,
    patch: { spec: { ports: [{ name: 'metrics', port: 9090 }] } },
    patched: (o) => o.spec.ports.some((p: Obj) => p.port === 9090 && p.protocol === 'TCP'),
    columns: ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector'],
  },
  {
    kind: 'Endpoints',
    base: `/api/v1/namespaces/${NS}/endpoints`,
    namespaced: true,
    manifest: (name) => ({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name, labels: { app: 'rt' } },
      subsets: [{ addresses: [{ ip: '10.244.0.5' }], ports: [{ name: 'http', port: 8080 }] }],
    }),
    change: (o) => {
      o.subsets[0].addresses.push({ ip: '10.244.0.6' });
    },
    changed: (o) => o.subsets[0].addresses.length === 2,
    patch: { metadata: { annotations: { patched: 'yes' } } },
    patched: (o) => o.metadata.annotations?.patched === 'yes',
    columns: ['Name', 'Endpoints', 'Age'],
  },
  {
    kind: 'EndpointSlice',
    base: `/apis/${DISC}/v1/namespaces/${NS}/endpointslices`,
    namespaced: true,
    manifest: (name) => ({
      apiVersion: `${DISC}/v1`,
      kind: 'EndpointSlice',
      metadata: { name, labels: { app: 'rt' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.244.0.5'], conditions: { ready: true } }],
      ports: [{ name: 'http', port: 8080 }],
    }),
    change: (o) => {
      o.endpoints.push({ addresses: ['10.244.0.6'] });
    },
    changed: (o) => o.endpoints.length === 2 && o.metadata.generation === 2,
    patch: { metadata: { labels: { patched: 'yes' } } },
    patched: (o) => o.metadata.labels?.patched === 'yes',
    columns: ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'],
  },
  {
    kind: 'Ingress',
    base: `/apis/${NET}/v1/namespaces/${NS}/ingresses`,
    namespaced: true,
    manifest: (name) => ({
      apiVersion: `${NET}/v1`,
      kind: 'Ingress',
      metadata: { name, labels: { app: 'rt' } },
      spec: {
        rules: [
          {
            host: 'rt.example.com',
            http: {
              paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }],
            },
          },
        ],
      },
    }),
    change: (o) => {
      o.spec.ingressClassName = 'nginx';
    },
    changed: (o) => o.spec.ingressClassName === 'nginx' && o.metadata.generation === 2,
    patch: { spec: { tls: [{ hosts: ['rt.example.com'], secretName: 'rt-tls' }] } },
    patched: (o) => o.spec.tls?.[0]?.secretName === 'rt-tls',
    columns: ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age'],
  },
  {
    kind: 'IngressClass',
    base: `/apis/${NET}/v1/ingressclasses`,
    namespaced: false,
    manifest: (name) => ({
      apiVersion: `${NET}/v1`,
      kind: 'IngressClass',
      metadata: { name, labels: { app: 'rt' } },
      spec: { controller: 'example.com/ingress-controller', parameters: { kind: 'Config', name: 'p' } },
    }),
    change: (o) => {
      o.spec.parameters.name = 'q';
    },
    changed: (o) => o.spec.parameters.name === 'q' && o.spec.parameters.scope === 'Cluster',
    patch: { metadata: { annotations: { patched: 'yes' } } },
    patched: (o) => o.metadata.annotations?.patched === 'yes',
    columns: ['Name', 'Controller', 'Parameters', 'Age'],
  },
  {
    kind: 'NetworkPolicy',
    base: `/apis/${NET}/v1/namespaces/${NS}/networkpolicies`,
    namespaced: true,
    manifest: (name) => ({
      apiVersion: `${NET}/v1`,
      kind: 'NetworkPolicy',
      metadata: { name, labels: { app: 'rt' } },
      spec: { podSelector: { matchLabels: { app: 'rt' } }, ingress: [{ ports: [{ port: 80 }] }] },
    }),
    change: (o) => {
      o.spec.egress = [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }];
      o.spec.policyTypes = ['Ingress', 'Egress'];
    },
    changed: (o) => o.spec.egress.length === 1 && o.spec.policyTypes.length === 2,
    patch: { spec: { podSelector: { matchLabels: { tier: 'web' } } } },
    patched: (o) => o.spec.podSelector.matchLabels.tier === 'web' && o.spec.podSelector.matchLabels.app === 'rt',
    columns: ['Name', 'Pod-Selector', 'Age'],
  },
];

const schemaOf = (kind: string): Schema => builtinResources({ domain }).find((d) => d.kind === kind)!.schema;

describe('Service-area kinds over HTTP', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ advertiseAddress: '192.0.2.10' });
  });
  after(() => s?.stop());

  for (const k of KINDS) {
    describe(k.kind, () => {
      const name = `rt-${k.kind.toLowerCase()}`;
      const item = () => `${k.base}/${name}`;

      it('create, get, list and watch (JSON)', async () => {
        const watch = await openWatch(s.url, `${k.base}?watch=true&labelSelector=app%3Drt`, s.admin);
        try {
          const created = await s.api.admin('POST', k.base, { body: k.manifest(name) });
          assert.equal(created.status, 201, created.text);
          const got = await s.api.admin('GET', item());
          assert.equal(got.status, 200);
          assert.equal(got.json().metadata.uid, created.json().metadata.uid);
          const list = await s.api.admin('GET', `${k.base}?labelSelector=app%3Drt`);
          assert.deepEqual(
            list.json().items.map((i: Obj) => i.metadata.name),
            [name],
          );
          const events = await watch.waitFor(1);
          assert.equal(events[0].type, 'ADDED');
          assert.equal(events[0].object.metadata.name, name);
        } finally {
          watch.close();
        }
      });

      it('lists as a Table with kube’s columns', async () => {
        const r = await s.api.admin('GET', k.base, {
          headers: { accept: `application/json;as=Table;v=v1;g=${domain.metaGroup}` },
        });
        assert.equal(r.status, 200, r.text);
        const table = r.json();
        assert.deepEqual(
          table.columnDefinitions.map((c: Obj) => c.name),
          k.columns,
        );
        const row = table.rows.find((rw: Obj) => rw.cells[0] === name);
        assert.ok(row, JSON.stringify(table.rows));
        assert.equal(row.cells.length, k.columns.length);
      });

      it('update (PUT) and strategic merge patch', async () => {
        const live = (await s.api.admin('GET', item())).json();
        k.change(live);
        const put = await s.api.admin('PUT', item(), { body: live });
        assert.equal(put.status, 200, put.text);
        assert.ok(k.changed(put.json()), put.text);
        const patched = await s.api.admin('PATCH', item(), {
          body: JSON.stringify(k.patch),
          headers: { 'content-type': SMP },
        });
        assert.equal(patched.status, 200, patched.text);
        assert.ok(k.patched(patched.json()), patched.text);
      });

      it('server-side apply', async () => {
        const applied = `${k.base}/${name}-applied?fieldManager=rt-test`;
        const manifest = k.manifest(`${name}-applied`);
        const r = await s.api.admin('PATCH', applied, {
          body: JSON.stringify(manifest),
          headers: { 'content-type': APPLY },
        });
        assert.equal(r.status, 201, r.text);
        assert.ok(r.json().metadata.managedFields.some((m: Obj) => m.manager === 'rt-test' && m.operation === 'Apply'));
        // Applying the same manifest again keeps what the server set (allocated values included).
        const again = await s.api.admin('PATCH', applied, {
          body: JSON.stringify(manifest),
          headers: { 'content-type': APPLY },
        });
        assert.equal(again.status, 200, again.text);
        const { metadata: _a, ...first } = r.json();
        const { metadata: _b, ...second } = again.json();
        assert.deepEqual(second, first);
      });

      it('create and read in Protobuf', async () => {
        const schema = schemaOf(k.kind);
        const obj = k.manifest(`${name}-pb`);
        const created = await s.api.admin('POST', k.base, {
          body: Buffer.from(encodeObject(schema, obj)),
          headers: { 'content-type': PROTOBUF, accept: PROTOBUF },
        });
        assert.equal(created.status, 201, created.text);
        assert.equal(created.headers['content-type'], PROTOBUF);
        const decoded = decodeObject(schema, created.body);
        assert.equal(decoded.metadata.name, `${name}-pb`);
        const json = (await s.api.admin('GET', `${k.base}/${name}-pb`)).json();
        assert.equal(json.metadata.uid, decoded.metadata.uid);
        const list = await s.api.admin('GET', k.base, { headers: { accept: PROTOBUF } });
        assert.equal(list.status, 200);
        const names = decodeList(schema, list.body).items.map((i) => i.metadata.name);
        assert.ok(names.includes(`${name}-pb`), String(names));
      });

      it('delete', async () => {
        for (const n of [name, `${name}-applied`, `${name}-pb`]) {
          const r = await s.api.admin('DELETE', `${k.base}/${n}`);
          assert.equal(r.status, 200, r.text);
          assert.equal(r.json().status, 'Success');
          assert.equal((await s.api.admin('GET', `${k.base}/${n}`)).status, 404);
        }
      });
    });
  }
});
