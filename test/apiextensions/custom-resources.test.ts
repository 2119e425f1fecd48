import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeCbor, encodeCbor } from '../../src/encoding/index.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { openWatch } from '../support/watch-client.js';
import { crdManifest, createEstablished, eventually, WIDGET_SCHEMA } from './crd-fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

const TABLE = 'application/json;as=Table;v=v1;g=meta.orch.io';
const PARTIAL = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.orch.io';
const MERGE = { 'content-type': 'application/merge-patch+json' };

/** The two custom resources every verb is exercised on. */
const KINDS = [
  {
    name: 'namespaced with status and scale sub-resources',
    base: '/apis/example.com/v1/namespaces/default/widgets',
    all: '/apis/example.com/v1/widgets',
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    statusSubresource: true,
  },
  {
    name: 'cluster-scoped without sub-resources',
    base: '/apis/cluster.example.com/v1/gadgets',
    all: '/apis/cluster.example.com/v1/gadgets',
    apiVersion: 'cluster.example.com/v1',
    kind: 'Gadget',
    statusSubresource: false,
  },
];

describe('custom resources over HTTP', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: true, featureGates: { CBORServingAndStorage: true } });
    await createEstablished(s.api.admin, crdManifest());
    await createEstablished(
      s.api.admin,
      crdManifest({
        group: 'cluster.example.com',
        plural: 'gadgets',
        kind: 'Gadget',
        scope: 'Cluster',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: WIDGET_SCHEMA } }],
      }),
    );
  });
  after(() => s.stop());

  for (const k of KINDS) {
    describe(k.name, () => {
      const obj = (name: string, spec: Json = {}, extra: Json = {}) => ({
        apiVersion: k.apiVersion,
        kind: k.kind,
        metadata: { name, labels: { app: 'demo' } },
        spec,
        ...extra,
      });

      it('creates with defaults, prunes unknown fields with a warning, and refuses them when strict', async () => {
        // A name every JavaScript object inherits is no declared field either.
        const r = await s.api.admin('POST', k.base, {
          body: obj('a', { color: 'red', bogus: 1, toString: 'x' }, { junk: true }),
        });
        assert.equal(r.status, 201, r.text);
        const created = r.json();
        assert.deepEqual(created.spec, { color: 'red', replicas: 1 });
        // Defaulted on decode, as kube does: the creator owns the default it got.
        assert.deepEqual(created.metadata.managedFields[0].fieldsV1['f:spec'], {
          '.': {},
          'f:color': {},
          'f:replicas': {},
        });
        assert.equal(created.junk, undefined);
        assert.equal(created.metadata.generation, 1);
        assert.deepEqual(String(r.headers.warning).split(/,\s*(?=299)/), [
          '299 - "unknown field \\"junk\\""',
          '299 - "unknown field \\"spec.bogus\\""',
          '299 - "unknown field \\"spec.toString\\""',
        ]);
        const strict = await s.api.admin('POST', `${k.base}?fieldValidation=Strict`, { body: obj('b', { bogus: 1 }) });
        assert.equal(strict.status, 400);
        assert.equal(
          strict.json().message,
          `${k.kind} in version "v1" cannot be handled as a ${k.kind}: strict decoding error: unknown field "spec.bogus"`,
        );
      });

      it('reports schema violations as kube does', async () => {
        const r = await s.api.admin('POST', k.base, {
          body: obj('bad', { color: 'pink', size: 'enormous', replicas: -1 }),
        });
        assert.equal(r.status, 422, r.text);
        const causes = r.json().details.causes.map((c: Json) => `${c.field}: ${c.message}`);
        assert.deepEqual(causes, [
          'spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0',
          'spec.color: Unsupported value: "pink": supported values: "red", "green", "blue"',
          'spec.size: Too long: may not be more than 5 bytes',
          // kube checks the scale paths of every write too (the cluster-scoped kind has none).
          ...(k.statusSubresource ? ['.spec.replicas: Invalid value: -1: should be a non-negative integer'] : []),
        ]);
        assert.equal(r.json().details.group, k.apiVersion.split('/')[0]);
        assert.equal(r.json().details.kind, k.kind);
      });

      it('gets, lists with selectors, and watches', async () => {
        const g = await s.api.admin('GET', `${k.base}/a`);
        assert.equal(g.status, 200);
        assert.equal(g.json().kind, k.kind);
        const list = (await s.api.admin('GET', `${k.all}?labelSelector=app%3Ddemo`)).json();
        assert.equal(list.kind, `${k.kind}List`);
        assert.deepEqual(
          list.items.map((i: Json) => i.metadata.name),
          ['a'],
        );
        const w = await openWatch(
          s.url,
          `${k.base}?watch=true&resourceVersion=${list.metadata.resourceVersion}`,
          s.admin,
        );
        await s.api.admin('PATCH', `${k.base}/a`, {
          body: { metadata: { labels: { touched: 'yes' } } },
          headers: MERGE,
        });
        const events = await w.waitFor(1);
        w.close();
        assert.equal(events[0].type, 'MODIFIED');
        assert.equal(events[0].object.metadata.labels.touched, 'yes');
      });

      it('updates and patches (JSON and merge patch; strategic merge is 415), bumping generation as kube does', async () => {
        const live = (await s.api.admin('GET', `${k.base}/a`)).json();
        live.spec.size = 'small';
        const put = await s.api.admin('PUT', `${k.base}/a`, { body: live });
        assert.equal(put.status, 200, put.text);
        assert.equal(put.json().metadata.generation, 2);
        const json = await s.api.admin('PATCH', `${k.base}/a`, {
          body: [{ op: 'replace', path: '/spec/replicas', value: 3 }],
          headers: { 'content-type': 'application/json-patch+json' },
        });
        assert.equal(json.status, 200, json.text);
        assert.equal(json.json().spec.replicas, 3);
        assert.equal(json.json().metadata.generation, 3);
        const labels = await s.api.admin('PATCH', `${k.base}/a`, {
          body: { metadata: { labels: { x: 'y' } } },
          headers: MERGE,
        });
        assert.equal(labels.json().metadata.generation, 3, 'metadata changes keep the generation');
        const status = await s.api.admin('PATCH', `${k.base}/a`, { body: { status: { phase: 'Up' } }, headers: MERGE });
        assert.equal(status.status, 200, status.text);
        if (k.statusSubresource) {
          assert.equal(status.json().status, undefined, 'the main resource does not write status');
          assert.equal(status.json().metadata.generation, 3);
        } else {
          assert.equal(status.json().status.phase, 'Up');
          assert.equal(status.json().metadata.generation, 4, 'without a status sub-resource status counts');
        }
        const smp = await s.api.admin('PATCH', `${k.base}/a`, {
          body: { spec: { replicas: 2 } },
          headers: { 'content-type': 'application/strategic-merge-patch+json' },
        });
        assert.equal(smp.status, 415);
        assert.equal(
          smp.json().message,
          'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/apply-patch+cbor',
        );
      });

      it('applies server-side and dry-runs without storing', async () => {
        const applied = await s.api.admin('PATCH', `${k.base}/applied?fieldManager=tester`, {
          body: JSON.stringify(obj('applied', { color: 'green' })),
          headers: { 'content-type': 'application/apply-patch+yaml' },
        });
        assert.equal(applied.status, 201, applied.text);
        assert.equal(applied.json().metadata.managedFields[0].manager, 'tester');
        assert.equal(applied.json().metadata.managedFields[0].operation, 'Apply');
        const dry = await s.api.admin('POST', `${k.base}?dryRun=All`, { body: obj('dry', { color: 'blue' }) });
        assert.equal(dry.status, 201, dry.text);
        assert.equal(dry.json().spec.replicas, 1);
        assert.equal((await s.api.admin('GET', `${k.base}/dry`)).status, 404);
      });

      it('serves Table, PartialObjectMetadata, YAML and CBOR, and never Protobuf', async () => {
        const table = (await s.api.admin('GET', k.all, { headers: { accept: TABLE } })).json();
        assert.equal(table.kind, 'Table');
        const names = table.columnDefinitions.map((c: Json) => c.name);
        if (k.statusSubresource) {
          assert.deepEqual(names, ['Name', 'Replicas', 'Color', 'Phase', 'Age']);
          assert.equal(table.columnDefinitions[2].description, 'The color');
          assert.equal(table.columnDefinitions[3].priority, 1);
          const row = table.rows.find((r: Json) => r.cells[0] === 'a');
          assert.deepEqual(row.cells.slice(0, 4), ['a', 3, 'red', null]);
          assert.match(row.cells[4], /^\d+s$/);
        } else {
          assert.deepEqual(names, ['Name', 'Age']);
        }
        const partial = (await s.api.admin('GET', k.all, { headers: { accept: PARTIAL } })).json();
        assert.equal(partial.kind, 'PartialObjectMetadataList');
        assert.equal(partial.items[0].kind, 'PartialObjectMetadata');
        const yaml = await s.api.admin('GET', `${k.base}/a`, { headers: { accept: 'application/yaml' } });
        assert.equal(yaml.headers['content-type'], 'application/yaml');
        assert.match(yaml.text, new RegExp(`^apiVersion: ${k.apiVersion}\nkind: ${k.kind}\n`));
        const cbor = await s.api.admin('POST', k.base, {
          body: Buffer.from(encodeCbor(obj('cbor', { color: 'blue' }))),
          headers: { 'content-type': 'application/cbor', accept: 'application/cbor' },
        });
        assert.equal(cbor.status, 201, cbor.text);
        assert.equal((decodeCbor(cbor.body) as Json).spec.color, 'blue');
        const pb = await s.api.admin('GET', `${k.base}/a`, { headers: { accept: 'application/vnd.orch.protobuf' } });
        assert.equal(pb.status, 406);
        const pbBody = await s.api.admin('POST', k.base, {
          body: Buffer.from([0x6b, 0x38, 0x73, 0x00]),
          headers: { 'content-type': 'application/vnd.orch.protobuf' },
        });
        assert.equal(pbBody.status, 415);
      });

      it('selects by the selectable field (namespaced kind only declares one)', async () => {
        const r = await s.api.admin('GET', `${k.all}?fieldSelector=spec.color%3Dred`);
        if (k.statusSubresource) {
          assert.equal(r.status, 200, r.text);
          assert.deepEqual(
            r.json().items.map((i: Json) => i.metadata.name),
            ['a'],
          );
        } else {
          assert.equal(r.status, 400);
          assert.equal(r.json().message, 'field label not supported: spec.color');
        }
        const ns = await s.api.admin('GET', `${k.all}?fieldSelector=metadata.namespace%3Ddefault`);
        if (k.statusSubresource) assert.equal(ns.status, 200);
        else assert.equal(ns.json().message, 'field label not supported: metadata.namespace');
      });

      it('deletes one object and a collection', async () => {
        const del = await s.api.admin('DELETE', `${k.base}/cbor`);
        assert.equal(del.status, 200, del.text);
        assert.equal(del.json().kind, 'Status');
        assert.equal(del.json().details.name, 'cbor');
        const coll = await s.api.admin('DELETE', `${k.base}?labelSelector=app%3Ddemo`);
        assert.equal(coll.status, 200, coll.text);
        assert.equal(coll.json().kind, `${k.kind}List`);
        assert.deepEqual((await s.api.admin('GET', k.all)).json().items, []);
      });
    });
  }

  describe('status and scale sub-resources', () => {
    const base = '/apis/example.com/v1/namespaces/default/widgets';
    it('writes status through status only, without bumping generation', async () => {
      const c = await s.api.admin('POST', base, {
        body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 's' }, spec: { replicas: 2 } },
      });
      assert.equal(c.status, 201, c.text);
      const put = await s.api.admin('PUT', `${base}/s/status`, {
        body: {
          ...c.json(),
          spec: { replicas: 9 },
          metadata: { ...c.json().metadata, labels: { ignored: 'x' } },
          status: { replicas: 2, phase: 'Up', selector: 'app=s' },
        },
      });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.json().status, { replicas: 2, phase: 'Up', selector: 'app=s' });
      assert.equal(put.json().spec.replicas, 2, 'status writes keep spec');
      assert.equal(put.json().metadata.labels, undefined, 'status writes keep metadata');
      assert.equal(put.json().metadata.generation, 1);
      const bad = await s.api.admin('PATCH', `${base}/s/status`, {
        body: { status: { replicas: 'many' } },
        headers: MERGE,
      });
      assert.equal(bad.status, 422);
      assert.deepEqual(
        bad.json().details.causes.map((x: Json) => `${x.field}: ${x.message}`),
        [
          'status.replicas: Invalid value: "string": replicas in body must be of type integer: "string"',
          '.status.replicas: Invalid value: 0: .status.replicas accessor error: many is of the type string, expected int64',
        ],
      );
    });

    it('reads and writes the Scale, validating the replicas', async () => {
      const scale = await s.api.admin('GET', `${base}/s/scale`);
      assert.equal(scale.status, 200, scale.text);
      assert.deepEqual(
        { spec: scale.json().spec, status: scale.json().status, kind: scale.json().kind },
        { spec: { replicas: 2 }, status: { replicas: 2, selector: 'app=s' }, kind: 'Scale' },
      );
      const patched = await s.api.admin('PATCH', `${base}/s/scale`, {
        body: { spec: { replicas: 5 } },
        headers: MERGE,
      });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.json().spec.replicas, 5);
      const parent = (await s.api.admin('GET', `${base}/s`)).json();
      assert.equal(parent.spec.replicas, 5);
      assert.equal(parent.metadata.generation, 2);
      const negative = await s.api.admin('PATCH', `${base}/s/scale`, {
        body: { spec: { replicas: -3 } },
        headers: MERGE,
      });
      assert.equal(negative.status, 422, negative.text);
      assert.deepEqual(
        negative.json().details.causes.map((x: Json) => `${x.field}: ${x.message}`),
        [
          'spec.replicas: Invalid value: -3: spec.replicas in body should be greater than or equal to 0',
          '.spec.replicas: Invalid value: -3: should be a non-negative integer',
        ],
      );
    });

    it('answers the Scale as a Table with the columns kube gives a custom resource’s Scale', async () => {
      const r = await s.api.admin('GET', `${base}/s/scale`, { headers: { accept: TABLE } });
      assert.equal(r.status, 200, r.text);
      const table = r.json();
      assert.deepEqual(
        table.columnDefinitions.map((c: Json) => [c.name, c.type, c.format, c.priority]),
        [
          ['Name', 'string', 'name', 0],
          ['Desired', 'integer', '', 0],
          ['Available', 'integer', '', 0],
          ['Age', 'date', '', 0],
        ],
      );
      assert.deepEqual(
        table.columnDefinitions.slice(1, 3).map((c: Json) => c.description),
        ['Number of desired replicas', 'Number of actual replicas'],
      );
      assert.deepEqual(table.rows[0].cells.slice(0, 3), ['s', 5, 2]);
      assert.match(table.rows[0].cells[3], /^\d+s$/);
      // A Scale of zero replicas omits spec.replicas: its cell is empty, as kube's convertor leaves it.
      await s.api.admin('PATCH', `${base}/s/scale`, { body: { spec: { replicas: 0 } }, headers: MERGE });
      const zero = (await s.api.admin('GET', `${base}/s/scale`, { headers: { accept: TABLE } })).json();
      assert.deepEqual(zero.rows[0].cells.slice(0, 3), ['s', null, 2]);
    });
  });

  describe('the in-process controllers see custom resources', () => {
    it('collects objects whose owner is gone and empties deleted namespaces', async () => {
      assert.equal(
        (await s.api.admin('POST', '/api/v1/namespaces', { body: { metadata: { name: 'gc' } } })).status,
        201,
      );
      const owner = await s.api.admin('POST', '/api/v1/namespaces/gc/configmaps', {
        body: { metadata: { name: 'owner' } },
      });
      assert.equal(owner.status, 201, owner.text);
      const ownerRef = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.json().metadata.uid };
      const base = '/apis/example.com/v1/namespaces/gc/widgets';
      const owned = await s.api.admin('POST', base, {
        body: {
          apiVersion: 'example.com/v1',
          kind: 'Widget',
          metadata: { name: 'owned', ownerReferences: [ownerRef] },
        },
      });
      assert.equal(owned.status, 201, owned.text);
      const kept = await s.api.admin('POST', base, {
        body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'kept' } },
      });
      assert.equal(kept.status, 201, kept.text);
      assert.equal((await s.api.admin('DELETE', '/api/v1/namespaces/gc/configmaps/owner')).status, 200);
      await eventually(
        'the owned object collected',
        async () => ((await s.api.admin('GET', `${base}/owned`)).status === 404 ? true : undefined),
        10000,
      );
      assert.equal((await s.api.admin('GET', `${base}/kept`)).status, 200);
      assert.equal((await s.api.admin('DELETE', '/api/v1/namespaces/gc')).status, 200);
      await eventually(
        'the namespace emptied and removed',
        async () => ((await s.api.admin('GET', '/api/v1/namespaces/gc')).status === 404 ? true : undefined),
        15000,
      );
      assert.deepEqual((await s.api.admin('GET', base)).json().items, []);
    });
  });
});
