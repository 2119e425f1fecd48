import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { builtinResources } from '../../apis/builtin.js';
import type { ApiObject } from '../../apis/object.js';
import { KUBERNETES_PROTOBUF_MEDIA_TYPE } from './media-types.js';
import { ProtobufApiTestServer, type SeenRequest } from './testing/protobuf-api-server.js';

/**
 * The real kubectl (v1.32) against a test server that speaks protobuf through this codec:
 * kubectl's protobuf request bodies must decode to what it meant, and our protobuf answers
 * (objects, lists, Status errors, watch frames) must decode in kubectl to what we sent.
 */
const KUBECTL = '/usr/bin/kubectl';
const core = builtinResources().filter((d) => d.group === '');
const def = (kind: string) => core.find((d) => d.kind === kind)!;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('kubectl 1.32 speaks protobuf with our codec', {
  skip: !existsSync(KUBECTL) && 'kubectl not installed',
}, () => {
  const server = new ProtobufApiTestServer(core);
  let kubeconfig = '';
  let home = '';

  const kubectl = (...args: string[]) =>
    new Promise<Run>((resolve) => {
      execFile(
        KUBECTL,
        ['--kubeconfig', kubeconfig, ...args],
        { env: { PATH: process.env.PATH ?? '', HOME: home }, timeout: 30_000 },
        (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      );
    });

  const lastRequest = (method: string, path: string): SeenRequest => {
    const found = server.requests.filter((r) => r.method === method && r.path === path).at(-1);
    assert.ok(found, `kubectl sent no ${method} ${path}`);
    return found;
  };

  before(async () => {
    ({ kubeconfig, home } = await server.start());
  });
  after(() => server.stop());

  it('create configmap: kubectl sends protobuf, and prints the protobuf object we answer', async (t) => {
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
    const req = lastRequest('POST', '/api/v1/namespaces/default/configmaps');
    t.diagnostic(`POST Content-Type: ${req.contentType}; Accept: ${req.accept}`);
    assert.equal(req.contentType, KUBERNETES_PROTOBUF_MEDIA_TYPE);
    assert.equal(req.answeredIn, 'protobuf');
    assert.deepEqual(req.decoded, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x' },
      data: { a: 'b', c: 'd' },
    });
    const printed = JSON.parse(run.stdout) as ApiObject;
    assert.deepEqual(printed, server.objects.get('default/configmaps/x'));
    assert.equal(printed.metadata.managedFields?.[0].time, '2024-05-06T07:08:09Z');
  });

  it('create configmap again: kubectl reads our protobuf AlreadyExists Status', async () => {
    const run = await kubectl('create', 'configmap', 'x', '--from-literal=a=b');
    assert.notEqual(run.code, 0);
    // The Status message only reaches the output if kubectl decoded our protobuf Status.
    assert.match(run.stderr, /failed to create configmap: configmaps "x" already exists/);
    assert.equal(lastRequest('POST', '/api/v1/namespaces/default/configmaps').answeredIn, 'protobuf');
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
    const req = lastRequest('POST', '/api/v1/namespaces/default/secrets');
    assert.equal(req.contentType, KUBERNETES_PROTOBUF_MEDIA_TYPE);
    assert.deepEqual(req.decoded?.data, {
      'blob.bin': blob.toString('base64'),
      user: Buffer.from('admin').toString('base64'),
    });
    const printed = JSON.parse(run.stdout) as ApiObject;
    assert.deepEqual(printed, server.objects.get('default/secrets/s'));
    assert.equal(printed.type, 'Opaque');
  });

  it('create namespace: empty spec and status arrive as empty structs', async () => {
    const run = await kubectl('create', 'namespace', 'team-a', '--show-managed-fields', '-o', 'json');
    assert.equal(run.code, 0, run.stderr);
    const req = lastRequest('POST', '/api/v1/namespaces');
    assert.equal(req.contentType, KUBERNETES_PROTOBUF_MEDIA_TYPE);
    assert.deepEqual(req.decoded, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a' },
      spec: {},
      status: {},
    });
    assert.deepEqual(JSON.parse(run.stdout), server.objects.get('namespaces/team-a'));
  });

  it('create serviceaccount: automountServiceAccountToken stays unset', async () => {
    const run = await kubectl('create', 'serviceaccount', 'builder', '--show-managed-fields', '-o', 'json');
    assert.equal(run.code, 0, run.stderr);
    const req = lastRequest('POST', '/api/v1/namespaces/default/serviceaccounts');
    assert.deepEqual(req.decoded, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' } });
    assert.deepEqual(JSON.parse(run.stdout), server.objects.get('default/serviceaccounts/builder'));
  });

  it('get configmap -o json: answered in the first type kubectl accepts', async (t) => {
    const run = await kubectl('get', 'configmap', 'x', '--show-managed-fields', '-o', 'json');
    assert.equal(run.code, 0, run.stderr);
    const req = lastRequest('GET', '/api/v1/namespaces/default/configmaps/x');
    // kubectl's generic get uses unstructured objects and asks for JSON only.
    t.diagnostic(`GET Accept: ${req.accept} → answered in ${req.answeredIn}`);
    assert.deepEqual(JSON.parse(run.stdout), server.objects.get('default/configmaps/x'));
  });

  it('events: kubectl lists events in protobuf and prints our EventList', async (t) => {
    server.seed(def('Event'), event('web-0.1', 'BackOff', 'Back-off restarting failed container'));
    server.seed(def('Event'), event('web-0.2', 'Pulled', 'Successfully pulled image'));
    const run = await kubectl('events', '-n', 'default');
    assert.equal(run.code, 0, run.stderr);
    const req = lastRequest('GET', '/api/v1/namespaces/default/events');
    t.diagnostic(`events list Accept: ${req.accept}`);
    assert.equal(req.answeredIn, 'protobuf');
    assert.match(run.stdout, /Warning\s+BackOff\s+Pod\/web-0\s+Back-off restarting failed container/);
    assert.match(run.stdout, /Normal\s+Pulled\s+Pod\/web-0\s+Successfully pulled image/);
  });

  it('events --watch: kubectl decodes our length-prefixed protobuf watch frames', async (t) => {
    server.watchScript = [
      { type: 'ADDED', object: event('web-0.3', 'Started', 'Started container web') },
      { type: 'MODIFIED', object: event('web-0.3', 'Started', 'Started container web again') },
    ];
    const run = await kubectl('events', '-n', 'default', '--watch');
    const watch = server.requests.filter((r) => r.query.get('watch') === 'true').at(-1);
    assert.ok(watch, 'kubectl did not watch');
    t.diagnostic(
      `events watch Accept: ${watch.accept} → ${watch.answeredIn}; kubectl exit ${run.code}: ${run.stderr.trim()}`,
    );
    assert.equal(watch.answeredIn, 'protobuf');
    assert.match(run.stdout, /Started\s+Pod\/web-0\s+Started container web\n/);
    assert.match(run.stdout, /Started container web again/);
  });
});

function event(name: string, reason: string, message: string): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '7' },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-0', apiVersion: 'v1' },
    reason,
    message,
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    count: 1,
    type: reason === 'BackOff' ? 'Warning' : 'Normal',
    eventTime: new Date().toISOString().replace(/Z$/, '000Z'),
    reportingComponent: 'kubelet',
    reportingInstance: 'node-1',
  };
}
