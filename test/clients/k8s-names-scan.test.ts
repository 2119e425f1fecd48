import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { apiOf } from '../support/api.js';
import type { HttpResult } from '../support/http-client.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { openWatch, type WatchClient } from '../support/watch-client.js';

// Under `--api-domain=k8s.io` nothing a client can see may carry an Orch name: every response
// body and header of a full session is scanned.

const FORBIDDEN = [
  'orch.io',
  'orch-system',
  'orch-public',
  'orch-node-lease',
  'vnd.orch',
  'ORCH_',
  'io.orch.',
  'x-orch-',
];
const NS = 'scan';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const PARTIAL = 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io';
const PARTIAL_LIST = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** Every forbidden string in `text`, with some context. */
function leaksIn(text: string): string[] {
  const found: string[] = [];
  for (const word of FORBIDDEN) {
    let at = text.indexOf(word);
    while (at >= 0) {
      found.push(`${word} in …${text.slice(Math.max(0, at - 60), at + word.length + 60)}…`);
      at = text.indexOf(word, at + 1);
    }
  }
  return found;
}

function assertClean(what: string, res: Pick<HttpResult, 'headers' | 'body'>): void {
  const headers = Object.entries(res.headers)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`)
    .join('\n');
  // latin1 keeps every byte, so Protobuf bodies are scanned too.
  const leaks = [...leaksIn(headers), ...leaksIn(res.body.toString('latin1'))];
  assert.deepEqual(leaks, [], `${what} shows Orch names`);
}

/** A watch in any media type, kept as bytes. */
interface RawWatch {
  readonly status: number;
  readonly headers: HttpResult['headers'];
  bytes(): Buffer;
  close(): void;
}

function openRawWatch(server: ServerProcess, path: string, accept: string): Promise<RawWatch> {
  return new Promise((resolve, reject) => {
    const { ca, cert, key } = server.admin;
    const req = httpsRequest(new URL(path, server.url), { ca, cert, key, agent: false, headers: { accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => {});
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        bytes: () => Buffer.concat(chunks),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

interface TypeCase {
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  object(name: string): { metadata: { name: string }; [field: string]: unknown };
  /** A merge patch that changes the object. */
  readonly patch: Record<string, unknown>;
}

const TYPES: readonly TypeCase[] = [
  {
    group: '',
    resource: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    object: (name) => ({ metadata: { name } }),
    patch: { metadata: { annotations: { step: 'patched' } } },
  },
  {
    group: '',
    resource: 'configmaps',
    kind: 'ConfigMap',
    namespaced: true,
    object: (name) => ({ metadata: { name }, data: { a: '1' } }),
    patch: { data: { b: '2' } },
  },
  {
    group: '',
    resource: 'secrets',
    kind: 'Secret',
    namespaced: true,
    object: (name) => ({ metadata: { name }, type: 'Opaque', data: { a: Buffer.from('1').toString('base64') } }),
    patch: { data: { b: Buffer.from('2').toString('base64') } },
  },
  {
    group: '',
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespaced: true,
    object: (name) => ({ metadata: { name } }),
    patch: { automountServiceAccountToken: false },
  },
  {
    group: '',
    resource: 'events',
    kind: 'Event',
    namespaced: true,
    object: (name) => ({
      metadata: { name },
      involvedObject: { kind: 'ConfigMap', name: 'x', namespace: NS },
      reason: 'Scanned',
      message: 'scan',
      type: 'Normal',
    }),
    patch: { message: 'patched' },
  },
  {
    group: 'coordination.k8s.io',
    resource: 'leases',
    kind: 'Lease',
    namespaced: true,
    object: (name) => ({ metadata: { name }, spec: { holderIdentity: 'a', leaseDurationSeconds: 10 } }),
    patch: { spec: { holderIdentity: 'b' } },
  },
];

const apiVersionOf = (t: TypeCase) => (t.group ? `${t.group}/v1` : 'v1');
const collectionOf = (t: TypeCase) =>
  `${t.group ? `/apis/${t.group}/v1` : '/api/v1'}${t.namespaced ? `/namespaces/${NS}` : ''}/${t.resource}`;

describe('no Orch names under --api-domain=k8s.io', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof apiOf>['admin'];
  /** Requests as the admin and checks the response before anything else. */
  const call = async (
    method: string,
    path: string,
    o: { headers?: Record<string, string>; body?: string | object } = {},
  ): Promise<HttpResult> => {
    const res = await api(method, path, o);
    assertClean(`${method} ${path} (${o.headers?.accept ?? 'default Accept'}) → ${res.status}`, res);
    return res;
  };

  before(async () => {
    server = await startServerProcess({ args: ['--api-domain=k8s.io'] });
    api = apiOf(server).admin;
    const created = await call('POST', '/api/v1/namespaces', { body: { metadata: { name: NS } } });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => server?.dispose());

  it('the admin kubeconfig', () => {
    const text = readFileSync(server.kubeconfig, 'utf8');
    assert.deepEqual(leaksIn(text), []);
  });

  it('discovery: /api, /apis, aggregated discovery, every /apis/<group>/<version>', async () => {
    const core = await call('GET', '/api');
    assert.equal(core.json().kind, 'APIVersions');
    await call('GET', '/api/v1');
    const groups = (await call('GET', '/apis')).json();
    const names = groups.groups.map((g: { name: string }) => g.name);
    assert.ok(names.includes('coordination.k8s.io'), JSON.stringify(names));
    for (const g of groups.groups as { name: string; versions: { groupVersion: string }[] }[]) {
      await call('GET', `/apis/${g.name}`);
      for (const v of g.versions) {
        const gv = await call('GET', `/apis/${v.groupVersion}`);
        assert.equal(gv.status, 200);
        assert.equal(gv.json().groupVersion, v.groupVersion);
      }
    }
    for (const path of ['/api', '/apis']) {
      for (const version of ['v2', 'v2beta1']) {
        const accept = `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
        const agg = await call('GET', path, { headers: { accept: `${accept},application/json` } });
        assert.equal(agg.status, 200);
        assert.equal(agg.headers['content-type'], accept);
        assert.equal(agg.json().apiVersion, `apidiscovery.k8s.io/${version}`);
      }
      const pb = await call('GET', path, {
        headers: { accept: `${AGGREGATED.replace('application/json', PROTOBUF)}` },
      });
      assert.ok(pb.status === 200 || pb.status === 406, `${path} as Protobuf: ${pb.status}`);
    }
  });

  it('/openapi/v2, /openapi/v3 and every v3 document', async () => {
    const v2 = await call('GET', '/openapi/v2', { headers: { accept: 'application/json' } });
    assert.equal(v2.status, 200);
    assert.ok(v2.json().definitions['io.k8s.api.coordination.v1.Lease']);
    const v2pb = await call('GET', '/openapi/v2', {
      headers: { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
    });
    assert.equal(v2pb.status, 200);
    const v3 = await call('GET', '/openapi/v3');
    const paths = v3.json().paths as Record<string, { serverRelativeURL: string }>;
    assert.ok(paths['apis/coordination.k8s.io/v1'], Object.keys(paths).join(', '));
    for (const [path, { serverRelativeURL }] of Object.entries(paths)) {
      const doc = await call('GET', serverRelativeURL);
      assert.equal(doc.status, 200, path);
      const plain = await call('GET', `/openapi/v3/${path}`);
      assert.equal(plain.status, 200, path);
    }
  });

  it('/version, health and the root path list', async () => {
    assert.equal((await call('GET', '/version')).json().major, '1');
    for (const path of ['/livez?verbose', '/readyz?verbose', '/healthz?verbose', '/']) await call('GET', path);
  });

  for (const t of TYPES) {
    it(`${t.resource}: watch in every form, create, read in every form, update, patch, apply, delete`, async () => {
      const coll = collectionOf(t);
      const name = `scan-${t.resource}`;
      const item = `${coll}/${name}`;
      const body = { apiVersion: apiVersionOf(t), kind: t.kind, ...t.object(name) };
      const list = await call('GET', coll);
      const watches: WatchClient[] = [
        await openWatch(
          server.url,
          `${coll}?watch=true&resourceVersion=${list.json().metadata.resourceVersion}`,
          server.admin,
        ),
        await openWatch(
          server.url,
          `${coll}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`,
          server.admin,
        ),
      ];
      const rawWatches = new Map<string, RawWatch>();
      for (const accept of [`${PROTOBUF};stream=watch`, TABLE, PARTIAL]) {
        const path = `${coll}?watch=true&resourceVersion=${list.json().metadata.resourceVersion}`;
        rawWatches.set(accept, await openRawWatch(server, path, accept));
      }
      try {
        const dry = await call('POST', `${coll}?dryRun=All`, { body });
        assert.equal(dry.status, 201, dry.text);
        const created = await call('POST', coll, { body });
        assert.equal(created.status, 201, created.text);
        for (const accept of ['application/json', 'application/yaml', TABLE, PARTIAL, PROTOBUF]) {
          const got = await call('GET', item, { headers: { accept } });
          assert.equal(got.status, 200, `${accept}: ${got.text}`);
          // kube names the serializer's media type, without the Table or metadata parameters.
          assert.equal(got.headers['content-type'], accept.split(';')[0]);
          const listed = await call('GET', coll, { headers: { accept: accept === PARTIAL ? PARTIAL_LIST : accept } });
          assert.equal(listed.status, 200, `${accept}: ${listed.text}`);
        }
        const current = created.json();
        const updated = await call('PUT', item, {
          body: { ...current, metadata: { ...current.metadata, labels: { step: 'updated' } } },
        });
        assert.equal(updated.status, 200, updated.text);
        for (const [contentType, patch] of [
          ['application/merge-patch+json', t.patch],
          ['application/strategic-merge-patch+json', { metadata: { labels: { strategic: 'yes' } } }],
          ['application/json-patch+json', [{ op: 'add', path: '/metadata/labels/json', value: 'yes' }]],
        ] as const) {
          const patched = await call('PATCH', item, { headers: { 'content-type': contentType }, body: patch });
          assert.equal(patched.status, 200, `${contentType}: ${patched.text}`);
        }
        const applied = await call('PATCH', `${item}?fieldManager=scanner&force=true`, {
          headers: { 'content-type': 'application/apply-patch+yaml' },
          body: JSON.stringify({ ...body, metadata: { ...body.metadata, labels: { applied: 'yes' } } }),
        });
        assert.equal(applied.status, 200, applied.text);
        const managers = applied.json().metadata.managedFields.map((m: { manager: string }) => m.manager);
        assert.ok(managers.includes('scanner'), managers.join(', '));
        const deleted = await call('DELETE', item);
        assert.ok(deleted.status === 200 || deleted.status === 202, deleted.text);
        for (const w of watches) {
          await w.waitFor(1, 15000);
          const deadline = Date.now() + 20000;
          while (!w.events.some((e) => e.type === 'DELETED' && e.object.metadata.name === name)) {
            if (Date.now() > deadline) assert.fail(`no DELETED event: ${JSON.stringify(w.events.map((e) => e.type))}`);
            await new Promise((r) => setTimeout(r, 100));
          }
          const text = w.events.map((e) => JSON.stringify(e)).join('\n');
          assert.deepEqual(leaksIn(text), [], `watch of ${coll}`);
          assert.deepEqual(leaksIn(JSON.stringify(w.headers)), [], `watch of ${coll} headers`);
        }
        for (const [accept, w] of rawWatches) {
          assert.equal(w.status, 200, accept);
          assert.equal(
            w.headers['content-type'],
            accept.startsWith(PROTOBUF) ? `${PROTOBUF};stream=watch` : 'application/json',
          );
          const bytes = w.bytes().toString('latin1');
          assert.ok(bytes.includes(name), `${accept} watch saw ${name}`);
          assert.deepEqual(leaksIn(bytes), [], `${accept} watch of ${coll}`);
        }
        if (t.namespaced) {
          assert.equal((await call('POST', coll, { body: { ...body, metadata: { name: `${name}-2` } } })).status, 201);
          const all = await call('DELETE', `${coll}?fieldSelector=metadata.name%3D${name}-2`);
          assert.equal(all.status, 200, all.text);
          assert.deepEqual(
            all.json().items.map((i: { metadata: { name: string } }) => i.metadata.name),
            [`${name}-2`],
          );
        }
        // The streaming list ends its initial events with a bookmark under kube's annotation.
        const bookmark = watches[1].events.find((e) => e.type === 'BOOKMARK');
        assert.equal(bookmark?.object.metadata.annotations['k8s.io/initial-events-end'], 'true');
        const bookmarkKind = bookmark?.object.apiVersion;
        assert.equal(bookmarkKind, apiVersionOf(t));
      } finally {
        for (const w of watches) w.close();
        for (const w of rawWatches.values()) w.close();
      }
    });
  }

  it('errors: 400, 404, 405, 406, 409, 415, 422', async () => {
    const leases = '/apis/coordination.k8s.io/v1/namespaces/scan/leases';
    const missing = await call('GET', `${leases}/nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'leases.coordination.k8s.io "nope" not found');
    assert.equal(missing.json().details.group, 'coordination.k8s.io');
    assert.equal((await call('GET', '/apis/coordination.k8s.io/v1/namespaces/scan/nothings')).status, 404);
    assert.equal((await call('GET', '/apis/nowhere.k8s.io/v1')).status, 404);
    assert.equal((await call('GET', '/api/v1/namespaces/nope/configmaps/x')).status, 404);

    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'dup' } };
    assert.equal((await call('POST', leases, { body: lease })).status, 201);
    const dup = await call('POST', leases, { body: lease });
    assert.equal(dup.status, 409);
    assert.equal(dup.json().reason, 'AlreadyExists');
    assert.equal(dup.json().message, 'leases.coordination.k8s.io "dup" already exists');
    const stale = await call('PUT', `${leases}/dup`, {
      body: { ...lease, metadata: { name: 'dup', resourceVersion: '1' } },
    });
    assert.equal(stale.status, 409);
    assert.equal(stale.json().reason, 'Conflict');

    const invalid = await call('POST', leases, {
      body: { ...lease, metadata: { name: 'Bad_Name' }, spec: { leaseDurationSeconds: -1 } },
    });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.json().details.group, 'coordination.k8s.io');
    assert.match(invalid.json().message, /^Lease\.coordination\.k8s\.io "Bad_Name" is invalid: /);
    const invalidNs = await call('POST', '/api/v1/namespaces', { body: { metadata: { name: 'kube-bad_' } } });
    assert.equal(invalidNs.status, 422);

    assert.equal((await call('POST', leases, { body: '{not json' })).status, 400);
    assert.equal((await call('POST', leases, { body: lease, headers: { 'content-type': 'text/plain' } })).status, 415);
    assert.equal((await call('GET', leases, { headers: { accept: 'application/x-nothing' } })).status, 406);
    assert.equal((await call('DELETE', '/version')).status, 405);
    // Deleting a system namespace is refused.
    const system = await call('DELETE', '/api/v1/namespaces/kube-system');
    assert.equal(system.status, 403, system.text);
    assert.equal((await call('GET', '/api/v1/namespaces/kube-system')).status, 200);
  });

  // kube-apiserver registers POST on the collection only and PUT on the item only; any other
  // method on those paths is 405 MethodNotAllowed and changes nothing.
  it('methods a path does not serve: 405, nothing created', async () => {
    const cms = `/api/v1/namespaces/${NS}/configmaps`;
    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    const putCollection = await call('PUT', cms, { body: cm('put-collection') });
    assert.equal(putCollection.status, 405, putCollection.text);
    assert.equal(putCollection.json().reason, 'MethodNotAllowed');
    const postItem = await call('POST', `${cms}/post-item`, { body: cm('post-item-body') });
    assert.equal(postItem.status, 405, postItem.text);
    assert.equal(postItem.json().reason, 'MethodNotAllowed');
    for (const name of ['put-collection', 'post-item', 'post-item-body'])
      assert.equal((await call('GET', `${cms}/${name}`)).status, 404, name);
  });
});
