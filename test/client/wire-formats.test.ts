import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import type { ApiObject } from '../../src/apis/object.js';
import type { ClientWatchEvent, ResourceClient } from '../../src/client/api/api-client.js';
import { HttpApiClient } from '../../src/client/api/http-api-client.js';
import { ResourceInformer } from '../../src/client/informer/resource-informer.js';
import { loadKubeconfig, type RestConfig } from '../../src/client/rest/kubeconfig.js';
import type { WireFormat } from '../../src/client/wire/content-types.js';
import type { WatchEventDecoder } from '../../src/client/wire/watch-decoders.js';
import { WireCodecs } from '../../src/client/wire/wire-codecs.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { silentLogger } from '../../src/util/logger.js';
import { crdManifest, eventually } from '../apiextensions/crd-fixtures.js';
import { statusOf } from '../support/status-of.js';

const D = ORCH_DOMAIN;
const PB = 'application/vnd.kubernetes.protobuf';

/** The real codecs, recording which media types they wrote and read (what went over the wire). */
class RecordingCodecs extends WireCodecs {
  readonly decoded: string[] = [];
  readonly encoded: WireFormat[] = [];
  readonly watched: string[] = [];
  override decode(contentType: string | undefined, body: Uint8Array): unknown {
    this.decoded.push(contentType ?? '');
    return super.decode(contentType, body);
  }
  override encode(format: WireFormat, obj: ApiObject): string | Uint8Array {
    this.encoded.push(format);
    return super.encode(format, obj);
  }
  override watchDecoder(contentType: string | undefined): WatchEventDecoder {
    this.watched.push(contentType ?? '');
    return super.watchDecoder(contentType);
  }
  reset(): void {
    this.decoded.length = 0;
    this.encoded.length = 0;
    this.watched.length = 0;
  }
}

const cm = (name: string, data: Record<string, string>): ApiObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { set: 'wire' } }, data }) as ApiObject;

/** Events of a watch until `until` holds for the collected events (or 15 s pass). */
async function collect(
  events: AsyncIterable<ClientWatchEvent>,
  until: (seen: ClientWatchEvent[]) => boolean,
): Promise<ClientWatchEvent[]> {
  const seen: ClientWatchEvent[] = [];
  for await (const ev of events) {
    seen.push(ev);
    if (until(seen)) break;
  }
  return seen;
}

interface Profile {
  readonly name: string;
  readonly contentType?: string;
  readonly acceptContentTypes?: string;
  /** Media type essence of object responses, of watch responses, and the body format sent. */
  readonly response: string;
  readonly watch: string;
  readonly body: WireFormat | undefined;
}

const PROFILES: Profile[] = [
  { name: 'JSON', response: 'application/json', watch: 'application/json', body: undefined },
  {
    name: 'Protobuf (client-go default Accept)',
    contentType: PB,
    response: PB,
    watch: PB,
    body: 'protobuf',
  },
  {
    name: "Protobuf in the profile's own media type, JSON accepted after it",
    contentType: D.protobufMediaType,
    acceptContentTypes: `${D.protobufMediaType},application/json`,
    response: D.protobufMediaType,
    watch: D.protobufMediaType,
    body: 'protobuf',
  },
  {
    name: 'CBOR',
    contentType: 'application/cbor',
    acceptContentTypes: 'application/cbor',
    response: 'application/cbor',
    watch: 'application/cbor-seq',
    body: 'cbor',
  },
  {
    name: 'JSON bodies, Protobuf answers',
    contentType: 'application/json',
    acceptContentTypes: PB,
    response: PB,
    watch: PB,
    body: undefined,
  },
  {
    name: 'CBOR bodies, Protobuf answers',
    contentType: 'application/cbor',
    acceptContentTypes: `${PB},application/json`,
    response: PB,
    watch: PB,
    body: 'cbor',
  },
];

const essence = (t: string) => t.split(';')[0].trim();

describe('the HTTP client in every wire format, against a real server', () => {
  let dataDir: string;
  let server: RunningServer;
  let config: RestConfig;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-wire-formats-'));
    server = await startServer({
      dataDir,
      securePort: 0,
      bindAddress: '127.0.0.1',
      runControllers: false,
      featureGates: { CBORServingAndStorage: true },
    });
    config = await loadKubeconfig(server.kubeconfigPath!);
    const admin = await HttpApiClient.connect({ config, domain: D, fieldManager: 'setup', discoveryPeriodMs: 0 });
    try {
      await admin
        .resource('', 'v1', 'namespaces')!
        .create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wire' } }, new AbortController().signal);
    } finally {
      admin.close();
    }
  });
  after(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  for (const [i, p] of PROFILES.entries()) {
    describe(p.name, () => {
      const codecs = new RecordingCodecs(D);
      let client: HttpApiClient;
      let cms: ResourceClient;
      const signal = new AbortController().signal;
      const NS = 'wire';
      const name = (n: string) => `p${i}-${n}`;

      before(async () => {
        client = await HttpApiClient.connect({
          config,
          domain: D,
          fieldManager: `wire-${i}`,
          qps: -1,
          discoveryPeriodMs: 0,
          contentType: p.contentType,
          acceptContentTypes: p.acceptContentTypes,
          codecs,
        });
        cms = client.resource('', 'v1', 'configmaps')!;
      });
      after(() => client?.close());

      it('creates, gets, lists, updates, patches, applies and deletes', async () => {
        codecs.reset();
        const created = await cms.create(NS, cm(name('a'), { k: 'v1', e: 'é😀' }), signal);
        assert.deepEqual(created.data, { k: 'v1', e: 'é😀' });
        assert.equal(created.metadata.managedFields?.[0].manager, `wire-${i}`);
        const got = await cms.get(NS, name('a'), signal);
        assert.equal(got.kind, 'ConfigMap');
        assert.equal(got.metadata.uid, created.metadata.uid);
        await cms.create(NS, cm(name('b'), {}), signal);
        const list = await cms.list(NS, { labelSelector: 'set=wire' }, signal);
        assert.ok(list.resourceVersion);
        assert.deepEqual(
          list.items.filter((o) => o.metadata.name?.startsWith(`p${i}-`)).map((o) => [o.kind, o.metadata.name]),
          [
            ['ConfigMap', name('a')],
            ['ConfigMap', name('b')],
          ],
        );
        const updated = await cms.update({ ...got, data: { k: 'v2' } } as ApiObject, signal);
        assert.deepEqual(updated.data, { k: 'v2' });
        const conflict = await statusOf(cms.update({ ...got, data: { k: 'stale' } } as ApiObject, signal));
        assert.equal(conflict.code, 409);
        assert.equal(conflict.reason, 'Conflict');
        assert.match(conflict.message, /the object has been modified/);
        const patched = await cms.patch(NS, name('a'), 'merge', { data: { m: 'x' } }, signal);
        assert.deepEqual(patched.data, { k: 'v2', m: 'x' });
        const strategic = await cms.patch(NS, name('a'), 'strategic', { data: { s: 'y' } }, signal);
        assert.equal((strategic.data as Record<string, string>).s, 'y');
        const applied = await cms.apply(
          NS,
          name('c'),
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: name('c') }, data: { applied: 'yes' } } as ApiObject,
          signal,
          { force: true },
        );
        assert.deepEqual(applied.data, { applied: 'yes' });
        await cms.delete(NS, name('c'), {}, signal);
        const missing = await statusOf(cms.get(NS, name('c'), signal));
        assert.deepEqual([missing.code, missing.reason], [404, 'NotFound']);
        assert.equal(missing.message, `configmaps "${name('c')}" not found`);
        const invalid = await statusOf(cms.create(NS, cm('Not_Valid', {}), signal));
        assert.deepEqual([invalid.code, invalid.reason], [422, 'Invalid']);
        assert.equal(invalid.details?.causes?.[0]?.field, 'metadata.name');

        // What went over the wire: every response in the profile's type, bodies in its format.
        assert.deepEqual([...new Set(codecs.decoded.map(essence))], [p.response]);
        assert.deepEqual([...new Set(codecs.encoded)], p.body ? [p.body] : []);
      });

      it('watches: added, modified and deleted events', async () => {
        codecs.reset();
        const start = await cms.list(NS, { limit: 1 }, signal);
        const w = await cms.watch(NS, { resourceVersion: start.resourceVersion, timeoutSeconds: 20 }, signal);
        await cms.create(NS, cm(name('w'), { n: '1' }), signal);
        await cms.patch(NS, name('w'), 'merge', { data: { n: '2' } }, signal);
        await cms.delete(NS, name('w'), {}, signal);
        const seen = await collect(w, (s) => s.some((e) => e.type === 'DELETED'));
        w.stop();
        assert.deepEqual(
          seen.filter((e) => e.object.metadata.name === name('w')).map((e) => [e.type, e.object.kind, e.object.data]),
          [
            ['ADDED', 'ConfigMap', { n: '1' }],
            ['MODIFIED', 'ConfigMap', { n: '2' }],
            ['DELETED', 'ConfigMap', { n: '2' }],
          ],
        );
        assert.deepEqual(codecs.watched.map(essence), [p.watch]);
      });

      it('feeds an informer: initial list, then changes', async () => {
        const ac = new AbortController();
        const informer = new ResourceInformer({ client: cms, logger: silentLogger, signal: ac.signal });
        const adds: string[] = [];
        informer.addHandlers({ onAdd: (o) => adds.push(o.metadata.name ?? '') });
        informer.start();
        try {
          await informer.synced();
          assert.ok(adds.includes(name('a')));
          await cms.create(NS, cm(name('inf'), { x: '1' }), signal);
          await eventually('the informer sees the new object', async () => informer.get(NS, name('inf')));
          await cms.patch(NS, name('inf'), 'merge', { data: { x: '2' } }, signal);
          await eventually('the informer sees the change', async () =>
            (informer.get(NS, name('inf'))?.data as { x?: string } | undefined)?.x === '2' ? true : undefined,
          );
        } finally {
          ac.abort();
          await informer.stopped();
        }
      });

      it('creates a sub-resource of another kind: a TokenRequest for a service account', async () => {
        codecs.reset();
        const accounts = client.resource('', 'v1', 'serviceaccounts')!;
        await accounts.create(NS, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: name('sa') } }, signal);
        const request = {
          apiVersion: `${D.group('authentication')}/v1`,
          kind: 'TokenRequest',
          metadata: {},
          spec: { audiences: ['wire'], expirationSeconds: 3600 },
        } as unknown as ApiObject;
        const issued = await accounts.create(NS, request, signal, { subresource: 'token', name: name('sa') });
        assert.equal(issued.kind, 'TokenRequest');
        assert.match(String((issued.status as { token?: string }).token), /^ey/);
        assert.deepEqual((issued.spec as { audiences?: string[] }).audiences, ['wire']);
        assert.deepEqual([...new Set(codecs.decoded.map(essence))], [p.response]);
        assert.deepEqual([...new Set(codecs.encoded)], p.body ? [p.body] : []);
      });

      it('custom resources get JSON where Protobuf is configured', async () => {
        codecs.reset();
        const crd = client.resource(D.group('apiextensions'), 'v1', 'customresourcedefinitions')!;
        const group = `wire${i}.example.com`;
        await crd.create(
          '',
          crdManifest({ group, plural: 'widgets', kind: 'Widget', domain: D.name }) as ApiObject,
          signal,
        );
        await client.refresh(signal);
        const widgets = await eventually('the custom resource is served', async () => {
          await client.refresh(signal);
          return client.resource(group, 'v1', 'widgets');
        });
        const made = await eventually('the custom resource accepts writes', async () =>
          widgets
            .create(
              NS,
              {
                apiVersion: `${group}/v1`,
                kind: 'Widget',
                metadata: { name: 'w1' },
                spec: { color: 'red' },
              } as ApiObject,
              signal,
            )
            .catch(() => undefined),
        );
        assert.deepEqual(made.spec, { color: 'red', replicas: 1 });
        const listed = await widgets.list(NS, {}, signal);
        assert.deepEqual(
          listed.items.map((o) => o.metadata.name),
          ['w1'],
        );
        const crResponses = codecs.decoded.slice(-2).map(essence);
        assert.equal(
          crResponses.some((t) => t.includes('protobuf')),
          false,
          crResponses.join(),
        );
      });
    });
  }
});
