import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { builtinResources } from '../../src/apis/builtin.js';
import type { ApiObject } from '../../src/apis/object.js';
import { KUBERNETES_PROTOBUF } from '../../src/encoding/index.js';
import {
  decodeList,
  decodeObject,
  decodeStatus,
  decodeWatchEvent,
  decodeWatchEventObject,
  encodeObject,
  WatchFrameReader,
} from '../../src/encoding/protobuf/index.js';
import { apiRequest } from '../../src/endpoints/testing/api-request.js';
import type { BridgedExchange, HttpBridge } from '../../src/server/testing/http-bridge.js';
import { type InProcessServer, startInProcessServer } from '../../src/server/testing/in-process-server.js';
import { KUBECTL, type KubectlBridge, startKubectlBridge } from '../support/kubectl-bridge.js';

/**
 * The real kubectl (v1.32) against the server's handler, in process: kubectl's protobuf request
 * bodies must decode (with our codec) to what it meant, and our protobuf answers (objects, lists,
 * Status errors, watch frames) must decode in kubectl to what the server holds.
 */
const core = builtinResources().filter((d) => d.group === '');
const def = (kind: string) => core.find((d) => d.kind === kind)!;
const PROTOBUF_WATCH = `${KUBERNETES_PROTOBUF};stream=watch`;

describe('kubectl 1.32 speaks protobuf with the server', {
  skip: !existsSync(KUBECTL) && 'kubectl not installed',
}, () => {
  let k: KubectlBridge;
  let server: InProcessServer;
  let bridge: HttpBridge;
  let home = '';
  const args = (...rest: string[]) => k.args(...rest);
  const env = () => k.env();
  const kubectl = (...rest: string[]) => k.run(...rest);

  const last = (method: string, path: string, query?: (q: URLSearchParams) => boolean): BridgedExchange => {
    const found = bridge.exchanges.filter((e) => e.method === method && e.path === path && (!query || query(e.query)));
    assert.ok(found.length > 0, `kubectl sent no ${method} ${path}`);
    return found[found.length - 1];
  };
  /** The object as the server now holds it (JSON). */
  const stored = async (path: string): Promise<ApiObject> => {
    const r = await server.request({ url: path });
    assert.equal(r.status, 200, r.body.toString());
    return r.json() as ApiObject;
  };
  const decodedBody = (e: BridgedExchange, kind: string) =>
    decodeObject(def(kind).schema, e.body, { apiVersion: 'v1', kind });

  before(async () => {
    k = await startKubectlBridge('orch-kubectl-pb-');
    ({ server, bridge, home } = k);
  });
  after(() => k.close());

  it('create configmap: kubectl sends protobuf, and prints the protobuf object we answer', async () => {
    const run = await kubectl(
      'create',
      'configmap',
      'x',
      '--from-literal=a=b',
      '--from-literal=c=d',
      '--show-managed-fields',
      '-o',
      'json',
    );
    assert.equal(run.code, 0, run.stderr);
    const req = last('POST', '/api/v1/namespaces/default/configmaps');
    assert.equal(req.contentType, KUBERNETES_PROTOBUF);
    assert.equal(req.responseContentType, KUBERNETES_PROTOBUF);
    assert.deepEqual(decodedBody(req, 'ConfigMap'), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x' },
      data: { a: 'b', c: 'd' },
    });
    const printed = JSON.parse(run.stdout) as ApiObject;
    assert.deepEqual(printed, await stored('/api/v1/namespaces/default/configmaps/x'));
    assert.equal(printed.metadata.managedFields?.[0].manager, 'kubectl-create');
  });

  it('create configmap again: kubectl reads our protobuf AlreadyExists Status', async () => {
    const run = await kubectl('create', 'configmap', 'x', '--from-literal=a=b');
    assert.notEqual(run.code, 0);
    // The Status message only reaches the output if kubectl decoded our protobuf Status.
    assert.match(run.stderr, /failed to create configmap: configmaps "x" already exists/);
    const req = last('POST', '/api/v1/namespaces/default/configmaps');
    assert.equal(req.status, 409);
    assert.equal(req.responseContentType, KUBERNETES_PROTOBUF);
  });

  it('create secret generic: binary file contents travel as protobuf bytes', async () => {
    const blob = Buffer.from([0, 1, 2, 0x7f, 0x80, 0xfe, 0xff]);
    const file = join(home, 'blob.bin');
    await writeFile(file, blob);
    const run = await kubectl(
      'create',
      'secret',
      'generic',
      's',
      '--from-literal=user=admin',
      `--from-file=${file}`,
      '--show-managed-fields',
      '-o',
      'json',
    );
    assert.equal(run.code, 0, run.stderr);
    const req = last('POST', '/api/v1/namespaces/default/secrets');
    assert.equal(req.contentType, KUBERNETES_PROTOBUF);
    const data = { 'blob.bin': blob.toString('base64'), user: Buffer.from('admin').toString('base64') };
    assert.deepEqual(decodedBody(req, 'Secret').data, data);
    const printed = JSON.parse(run.stdout) as ApiObject;
    assert.deepEqual(printed, await stored('/api/v1/namespaces/default/secrets/s'));
    assert.deepEqual(printed.data, data);
    assert.equal(printed.type, 'Opaque');
  });

  it('create namespace: empty spec and status arrive as empty structs', async () => {
    const run = await kubectl('create', 'namespace', 'team-a', '--show-managed-fields', '-o', 'json');
    assert.equal(run.code, 0, run.stderr);
    const req = last('POST', '/api/v1/namespaces');
    assert.equal(req.contentType, KUBERNETES_PROTOBUF);
    assert.deepEqual(decodedBody(req, 'Namespace'), {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a' },
      spec: {},
      status: {},
    });
    assert.deepEqual(JSON.parse(run.stdout), await stored('/api/v1/namespaces/team-a'));
  });

  it('create serviceaccount: automountServiceAccountToken stays unset', async () => {
    const run = await kubectl('create', 'serviceaccount', 'builder', '--show-managed-fields', '-o', 'json');
    assert.equal(run.code, 0, run.stderr);
    const req = last('POST', '/api/v1/namespaces/default/serviceaccounts');
    assert.deepEqual(decodedBody(req, 'ServiceAccount'), {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'builder' },
    });
    const printed = JSON.parse(run.stdout) as ApiObject;
    assert.equal(printed.automountServiceAccountToken, undefined);
    assert.deepEqual(printed, await stored('/api/v1/namespaces/default/serviceaccounts/builder'));
  });

  it('get configmap -o json: answered in the first type kubectl accepts', async () => {
    const run = await kubectl('get', 'configmap', 'x', '--show-managed-fields', '-o', 'json');
    assert.equal(run.code, 0, run.stderr);
    const req = last('GET', '/api/v1/namespaces/default/configmaps/x');
    // kubectl's generic get uses unstructured objects and asks for JSON.
    assert.equal(req.status, 200);
    assert.deepEqual(JSON.parse(run.stdout), await stored('/api/v1/namespaces/default/configmaps/x'));
  });

  it('events: kubectl lists events in protobuf and prints our EventList', async () => {
    for (const ev of [
      event('web-0.1', 'BackOff', 'Back-off restarting failed container'),
      event('web-0.2', 'Pulled', 'Successfully pulled image'),
    ]) {
      const r = await server.request({
        method: 'POST',
        url: '/api/v1/namespaces/default/events',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ev),
      });
      assert.equal(r.status, 201, r.body.toString());
    }
    const run = await kubectl('events', '-n', 'default');
    assert.equal(run.code, 0, run.stderr);
    const req = last('GET', '/api/v1/namespaces/default/events', (q) => !q.has('watch'));
    assert.equal(req.responseContentType, KUBERNETES_PROTOBUF);
    assert.match(run.stdout, /Warning\s+BackOff\s+Pod\/web-0\s+Back-off restarting failed container/);
    assert.match(run.stdout, /Normal\s+Pulled\s+Pod\/web-0\s+Successfully pulled image/);
  });

  it('events --watch: kubectl decodes our length-prefixed protobuf watch frames', async () => {
    const child = spawn(KUBECTL, args('events', '-n', 'default', '--watch'), { env: env() });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      await waitFor('the watch request', () =>
        bridge.exchanges.some((e) => e.path === '/api/v1/namespaces/default/events' && e.query.get('watch') === 'true'),
      );
      const created = event('web-0.3', 'Started', 'Started container web');
      const post = await server.request({
        method: 'POST',
        url: '/api/v1/namespaces/default/events',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(created),
      });
      assert.equal(post.status, 201, post.body.toString());
      const patch = await server.request({
        method: 'PATCH',
        url: '/api/v1/namespaces/default/events/web-0.3',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ message: 'Started container web again' }),
      });
      assert.equal(patch.status, 200, patch.body.toString());
      await waitFor('both watch events printed', () => /Started container web again/.test(stdout));
      assert.match(stdout, /Started\s+Pod\/web-0\s+Started container web\n/);
      const watch = last('GET', '/api/v1/namespaces/default/events', (q) => q.get('watch') === 'true');
      assert.equal(watch.responseContentType, PROTOBUF_WATCH);
    } finally {
      child.kill();
      await exited;
    }
  });
});

// The same exchanges as ApiRequests to the handler, without kubectl: what we answer in
// protobuf decodes with the codec to what the server holds.
describe('protobuf requests to the server handler, in process', () => {
  let server: InProcessServer;
  const cm = def('ConfigMap');
  const pb = { accept: KUBERNETES_PROTOBUF, 'content-type': KUBERNETES_PROTOBUF };
  const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p' }, data: { a: 'b' } };

  before(async () => {
    server = await startInProcessServer();
  });
  after(() => server.close());

  it('creates from a protobuf body and answers the object, a list and a Status in protobuf', async () => {
    const body = encodeObject(cm.schema, configMap);
    const created = await server.request({
      method: 'POST',
      url: '/api/v1/namespaces/default/configmaps',
      headers: pb,
      body,
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers['content-type'], KUBERNETES_PROTOBUF);
    const obj = decodeObject(cm.schema, created.body, { apiVersion: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(obj.data, { a: 'b' });
    const json = await server.request({ url: '/api/v1/namespaces/default/configmaps/p' });
    assert.deepEqual(obj, json.json());

    const list = await server.request({ url: '/api/v1/namespaces/default/configmaps', headers: pb });
    const decoded = decodeList(cm.schema, list.body, { apiVersion: 'v1', kind: 'ConfigMapList' });
    assert.deepEqual(
      decoded.items.map((i) => i.metadata.name),
      ['p'],
    );

    const again = await server.request({
      method: 'POST',
      url: '/api/v1/namespaces/default/configmaps',
      headers: pb,
      body,
    });
    assert.equal(again.status, 409);
    const status = decodeStatus(again.body);
    assert.equal(status.reason, 'AlreadyExists');
    assert.equal(status.message, 'configmaps "p" already exists');
  });

  it('streams watch events as length-prefixed protobuf frames', async () => {
    const ac = new AbortController();
    const res = await server.handler(
      apiRequest({
        url: '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0',
        headers: { accept: KUBERNETES_PROTOBUF },
        signal: ac.signal,
      }),
    );
    assert.equal(res.kind, 'stream');
    assert.equal(res.headers['content-type'], PROTOBUF_WATCH);
    const reader = new WatchFrameReader();
    const events: { type: string; name?: string }[] = [];
    const pumped =
      res.kind === 'stream'
        ? res.pump((chunk) => {
            for (const frame of reader.push(Buffer.from(chunk))) {
              const ev = decodeWatchEvent(frame);
              const obj = decodeWatchEventObject(cm.schema, ev, { apiVersion: 'v1', kind: 'ConfigMap' }) as ApiObject;
              events.push({ type: ev.type, name: obj.metadata.name });
            }
            return undefined;
          }, ac.signal)
        : Promise.resolve();
    await waitFor('the initial ADDED event', () => events.length > 0);
    await server.request({
      method: 'DELETE',
      url: '/api/v1/namespaces/default/configmaps/p',
    });
    await waitFor('the DELETED event', () => events.length > 1);
    ac.abort();
    await pumped;
    assert.deepEqual(events, [
      { type: 'ADDED', name: 'p' },
      { type: 'DELETED', name: 'p' },
    ]);
  });
});

async function waitFor(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A core/v1 Event about pod web-0, as the kubelet writes one. */
function event(name: string, reason: string, message: string): ApiObject {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'default' },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-0', apiVersion: 'v1' },
    reason,
    message,
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    lastTimestamp: now,
    count: 1,
    type: reason === 'BackOff' ? 'Warning' : 'Normal',
  };
}
