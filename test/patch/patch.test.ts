import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { apiOf } from '../support/api.js';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

/** The RFC 6902 suite (json-patch-tests) as the `json-patch-test-suite` dev dependency ships it. */
const suiteFile = (file: string) => createRequire(import.meta.url).resolve(`json-patch-test-suite/${file}`);

interface PatchRecord {
  comment?: string;
  doc: unknown;
  patch: Array<Record<string, unknown>>;
  expected?: unknown;
  error?: string;
  disabled?: boolean;
}

const isStringMap = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

/** Suite records expressible as a ConfigMap's `data`: a flat map of strings before and after. */
function configMapRecords(): PatchRecord[] {
  const all: PatchRecord[] = ['tests.json', 'spec_tests.json'].flatMap((f) =>
    JSON.parse(readFileSync(suiteFile(f), 'utf8')),
  );
  return all.filter((r) => !r.disabled && isStringMap(r.doc) && (r.error !== undefined || isStringMap(r.expected)));
}

function underData(op: Record<string, unknown>): Record<string, unknown> {
  const out = { ...op };
  // Only well-formed pointers move under /data; a malformed one must still fail.
  const move = (p: unknown) => (typeof p === 'string' && (p === '' || p.startsWith('/')) ? `/data${p}` : p);
  if ('path' in out) out.path = move(out.path);
  if ('from' in out) out.from = move(out.from);
  return out;
}

describe('PATCH', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof apiOf>['admin'];
  const base = '/api/v1/namespaces/default/configmaps';
  const create = (name: string, extra: Record<string, unknown> = {}) =>
    api('POST', base, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, ...extra } });
  const patch = (name: string, type: string, body: unknown, query = '') =>
    api('PATCH', `${base}/${name}${query}`, { body: JSON.stringify(body), headers: { 'content-type': type } });
  before(async () => {
    server = await startServerProcess();
    api = apiOf(server).admin;
  });
  after(async () => server?.dispose());

  it('runs the RFC 6902 suite records expressible as ConfigMap data through PATCH', async () => {
    const records = configMapRecords();
    assert.ok(records.length >= 10, `found ${records.length} records`);
    let i = 0;
    for (const r of records) {
      const name = `rfc6902-${i++}`;
      await create(name, { data: r.doc });
      const res = await patch(name, 'application/json-patch+json', r.patch.map(underData));
      if (r.error !== undefined) {
        assert.ok(res.status === 422 || res.status === 400, `${r.comment ?? name}: ${res.status} ${res.text}`);
        assert.equal(res.json().kind, 'Status');
      } else {
        assert.equal(res.status, 200, `${r.comment ?? name}: ${res.text}`);
        assert.deepEqual(res.json().data ?? {}, r.expected, r.comment ?? name);
      }
    }
  });

  it('answers 422 for a failed JSON patch test and a bad path', async () => {
    await create('jp', { data: { a: '1' } });
    const failed = await patch('jp', 'application/json-patch+json', [{ op: 'test', path: '/data/a', value: '2' }]);
    assert.equal(failed.status, 422);
    assert.equal(failed.json().reason, 'Invalid');
    const bad = await patch('jp', 'application/json-patch+json', [
      { op: 'replace', path: '/data/missing', value: 'x' },
    ]);
    assert.equal(bad.status, 422);
    const ok = await patch('jp', 'application/json-patch+json', [
      { op: 'test', path: '/data/a', value: '1' },
      { op: 'add', path: '/data/b', value: '2' },
    ]);
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json().data, { a: '1', b: '2' });
  });

  it('applies merge patches (RFC 7386) on maps, with null deleting', async () => {
    await create('mp', { data: { a: 'b', c: 'd' } });
    const r = await patch('mp', 'application/merge-patch+json', { data: { a: 'z', c: null, e: 'f' } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json().data, { a: 'z', e: 'f' });
  });

  it('applies strategic merge patch directives driven by the schema', async () => {
    const owner = (uid: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: `o-${uid}`, uid });
    await create('smp', { data: { a: '1', b: '2' } });
    const smp = (body: unknown) => patch('smp', 'application/strategic-merge-patch+json', body);
    let r = await smp({
      metadata: { finalizers: ['x.orch.io/one', 'x.orch.io/two'], ownerReferences: [owner('u1'), owner('u2')] },
    });
    assert.equal(r.status, 200, r.text);
    // ownerReferences merge by uid; finalizers (no strategy) are replaced.
    r = await smp({ metadata: { ownerReferences: [{ ...owner('u3') }] } });
    assert.deepEqual(
      r
        .json()
        .metadata.ownerReferences.map((o: { uid: string }) => o.uid)
        .sort(),
      ['u1', 'u2', 'u3'],
    );
    r = await smp({ metadata: { ownerReferences: [{ uid: 'u2', $patch: 'delete' }] } });
    assert.deepEqual(
      r
        .json()
        .metadata.ownerReferences.map((o: { uid: string }) => o.uid)
        .sort(),
      ['u1', 'u3'],
    );
    r = await smp({
      metadata: { $setElementOrder: undefined, '$deleteFromPrimitiveList/finalizers': ['x.orch.io/one'] },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json().metadata.finalizers, ['x.orch.io/two']);
    r = await smp({ data: { $patch: 'replace', only: 'this' } });
    assert.deepEqual(r.json().data, { only: 'this' });
    r = await smp({ metadata: { '$setElementOrder/ownerReferences': [{ uid: 'u3' }, { uid: 'u1' }] } });
    assert.deepEqual(
      r.json().metadata.ownerReferences.map((o: { uid: string }) => o.uid),
      ['u3', 'u1'],
    );
    const bad = await smp({ data: { $patch: 'explode' } });
    assert.ok(bad.status >= 400, String(bad.status));
    assert.equal(bad.json().kind, 'Status');
  });

  it('merges ServiceAccount secrets by name with a strategic merge patch', async () => {
    await api('POST', '/api/v1/namespaces/default/serviceaccounts', {
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' }, secrets: [{ name: 's1' }] },
    });
    const r = await api('PATCH', '/api/v1/namespaces/default/serviceaccounts/sa', {
      body: JSON.stringify({ secrets: [{ name: 's2' }] }),
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r
        .json()
        .secrets.map((s: { name: string }) => s.name)
        .sort(),
      ['s1', 's2'],
    );
  });

  it('orders ServiceAccount secrets by $setElementOrder, placing server-only items as kube does', async () => {
    await api('POST', '/api/v1/namespaces/default/serviceaccounts', {
      body: {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'sa-order' },
        secrets: [{ name: 's1' }, { name: 's2' }, { name: 's4' }],
      },
    });
    // What kubectl apply sends when s1 leaves and s3 joins the applied list; s4 is server-only.
    const r = await api('PATCH', '/api/v1/namespaces/default/serviceaccounts/sa-order', {
      body: JSON.stringify({
        '$setElementOrder/secrets': [{ name: 's2' }, { name: 's3' }],
        secrets: [{ name: 's3' }, { name: 's1', $patch: 'delete' }],
      }),
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json().secrets, [{ name: 's2' }, { name: 's4' }, { name: 's3' }]);
  });

  it('makes a patch with metadata.resourceVersion conditional, 404s a missing object, and honours dry run', async () => {
    const c = (await create('cond', { data: { a: '1' } })).json();
    const stale = await patch('cond', 'application/merge-patch+json', {
      metadata: { resourceVersion: '1' },
      data: { a: '2' },
    });
    assert.equal(stale.status, 409);
    const fresh = await patch('cond', 'application/merge-patch+json', {
      metadata: { resourceVersion: c.metadata.resourceVersion },
      data: { a: '2' },
    });
    assert.equal(fresh.status, 200);
    const missing = await patch('nope', 'application/merge-patch+json', { data: {} });
    assert.equal(missing.status, 404);
    const dry = await patch('cond', 'application/merge-patch+json', { data: { a: 'dry' } }, '?dryRun=All');
    assert.equal(dry.json().data.a, 'dry');
    assert.equal((await api('GET', `${base}/cond`)).json().data.a, '2');
    const unsupported = await patch('cond', 'application/x-unknown-patch', {});
    assert.equal(unsupported.status, 415);
  });

  it('works with kubectl patch --type json|merge|strategic and kubectl label/annotate', async () => {
    await create('kc', { data: { a: '1' } });
    const k = (...args: string[]) => kubectl(server.kubeconfig, args);
    let r = await k('patch', 'configmap', 'kc', '--type=json', '-p', '[{"op":"add","path":"/data/b","value":"2"}]');
    assert.equal(r.code, 0, r.stderr);
    r = await k('patch', 'configmap', 'kc', '--type=merge', '-p', '{"data":{"c":"3"}}');
    assert.equal(r.code, 0, r.stderr);
    r = await k('patch', 'configmap', 'kc', '--type=strategic', '-p', '{"data":{"d":"4"}}');
    assert.equal(r.code, 0, r.stderr);
    r = await k('label', 'configmap', 'kc', 'team=blue');
    assert.equal(r.code, 0, r.stderr);
    r = await k('annotate', 'configmap', 'kc', 'note=hi');
    assert.equal(r.code, 0, r.stderr);
    const obj = (await api('GET', `${base}/kc`)).json();
    assert.deepEqual(obj.data, { a: '1', b: '2', c: '3', d: '4' });
    assert.equal(obj.metadata.labels.team, 'blue');
    assert.equal(obj.metadata.annotations.note, 'hi');
  });
});
