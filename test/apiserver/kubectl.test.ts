import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

describe('kubectl session against orch-apiserver', () => {
  let server: ServerProcess;
  const k = (...args: string[]) => kubectl(server.kubeconfig, args);
  before(async () => {
    server = await startServerProcess();
  });
  after(async () => server?.dispose());

  it('kubectl version shows the server version', async () => {
    const r = await k('version', '-o', 'json');
    assert.equal(r.code, 0, r.stderr);
    const v = JSON.parse(r.stdout);
    assert.equal(v.serverVersion.major, '1');
    assert.equal(v.serverVersion.minor, '32');
  });

  it('kubectl api-resources lists the built-in types', async () => {
    const r = await k('api-resources', '--no-headers');
    assert.equal(r.code, 0, r.stderr);
    for (const line of [
      /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m,
      /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m,
      /^leases\s+coordination\.orch\.io\/v1\s+true\s+Lease$/m,
    ]) {
      assert.match(r.stdout, line);
    }
  });

  it('kubectl get namespaces lists the system namespaces', async () => {
    const r = await k('get', 'namespaces');
    assert.equal(r.code, 0, r.stderr);
    for (const ns of ['default', 'orch-system', 'orch-public', 'orch-node-lease'])
      assert.match(r.stdout, new RegExp(`^${ns}\\s`, 'm'));
  });

  it('create namespace, create configmap --from-literal, get -o yaml, replace with a stale resourceVersion, delete', async () => {
    let r = await k('create', 'namespace', 'team-a');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /namespace\/team-a created/);
    r = await k(
      'create',
      'configmap',
      'settings',
      '-n',
      'team-a',
      '--from-literal=color=blue',
      '--from-literal=size=L',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /configmap\/settings created/);
    r = await k('get', 'configmap', 'settings', '-n', 'team-a', '-o', 'yaml');
    assert.equal(r.code, 0, r.stderr);
    const cm = parseYaml(r.stdout);
    assert.deepEqual(cm.data, { color: 'blue', size: 'L' });
    assert.equal(cm.metadata.namespace, 'team-a');
    // Someone else changes the object; our copy is now stale.
    r = await k('label', 'configmap', 'settings', '-n', 'team-a', 'changed=yes', '--overwrite');
    if (r.code !== 0) {
      // Without strategic merge patch support kubectl label fails; change it with a merge patch instead.
      r = await k('patch', 'configmap', 'settings', '-n', 'team-a', '--type=merge', '-p', '{"data":{"color":"red"}}');
    }
    assert.equal(r.code, 0, r.stderr);
    cm.data.size = 'XL';
    r = await kubectl(server.kubeconfig, ['replace', '-f', '-'], JSON.stringify(cm));
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /Operation cannot be fulfilled on configmaps "settings": the object has been modified; please apply your changes to the latest version and try again/,
    );
    r = await k('delete', 'configmap', 'settings', '-n', 'team-a');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /configmap "settings" deleted/);
    r = await k('get', 'configmap', 'settings', '-n', 'team-a');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /NotFound|not found/);
  });

  it('kubectl explain lease.spec prints the Lease spec fields', async () => {
    const r = await k('explain', 'lease.spec');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /GROUP:\s+coordination\.orch\.io/);
    assert.match(r.stdout, /KIND:\s+Lease/);
    for (const f of ['holderIdentity', 'leaseDurationSeconds', 'renewTime', 'acquireTime', 'leaseTransitions']) {
      assert.match(r.stdout, new RegExp(`^\\s+${f}\\s`, 'm'));
    }
  });

  it('kubectl apply of an unknown kind reports the missing mapping, not an OpenAPI download failure', async () => {
    const manifest = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: default\n';
    const r = await kubectl(server.kubeconfig, ['apply', '-f', '-'], manifest);
    assert.notEqual(r.code, 0);
    // Client-side validation reads /openapi/v2 as protobuf, finds no schema for the kind and lets
    // the REST mapping report it.
    assert.match(r.stderr, /no matches for kind "Widget" in version "example\.com\/v1"/);
    assert.doesNotMatch(r.stderr, /failed to download openapi|content type that the client supports/);
  });
});
