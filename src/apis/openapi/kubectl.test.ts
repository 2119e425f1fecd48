import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { builtinResources } from '../builtin.js';
import { DiscoveryTestServer } from './testing/discovery-server.js';

const run = promisify(execFile);

async function kubectlAvailable(): Promise<boolean> {
  try {
    await run('kubectl', ['version', '--client'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

// The real kubectl (v1.32) reads the OpenAPI v3 documents exactly as it would from the server.
describe('kubectl against the OpenAPI documents', {
  skip: !(await kubectlAvailable()) && 'kubectl not installed',
}, () => {
  const server = new DiscoveryTestServer(builtinResources());
  let url = '';
  let home = '';

  const kubectl = async (...args: string[]): Promise<string> => {
    const { stdout } = await run('kubectl', ['--server', url, '--cache-dir', join(home, 'cache'), ...args], {
      env: { ...process.env, HOME: home, KUBECONFIG: join(home, 'none') },
      timeout: 30_000,
    });
    return stdout;
  };

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'orch-kubectl-'));
    url = await server.start();
  });
  after(async () => {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('explains lease.spec from the coordination.orch.io/v1 document', async () => {
    const out = await kubectl('explain', 'lease.spec');
    assert.match(out, /^GROUP:\s+coordination\.orch\.io$/m);
    assert.match(out, /^KIND:\s+Lease$/m);
    assert.match(out, /^FIELD: spec <LeaseSpec>$/m);
    assert.match(out, /LeaseSpec is a specification of a Lease\./);
    for (const field of ['acquireTime', 'holderIdentity', 'leaseDurationSeconds', 'leaseTransitions', 'renewTime']) {
      assert.match(out, new RegExp(`^  ${field}\\t<(string|integer)>$`, 'm'));
    }
    const urls = server.requests.map((r) => r.url);
    assert.ok(urls.includes('/openapi/v3?timeout=32s'));
    assert.ok(urls.some((u) => u.startsWith('/openapi/v3/apis/coordination.orch.io/v1?hash=')));
  });

  it('explains configmap with ObjectMeta resolved through $ref', async () => {
    const out = await kubectl('explain', 'configmap');
    assert.match(out, /^KIND:\s+ConfigMap$/m);
    assert.doesNotMatch(out, /^GROUP:/m);
    assert.match(out, /^ {2}metadata\t<ObjectMeta>$/m);
    assert.match(out, /^ {2}binaryData\t<map\[string\]string>$/m);
  });

  it('explains nested list fields of named types', async () => {
    assert.match(await kubectl('explain', 'ns.status.conditions'), /^FIELD: conditions <\[\]NamespaceCondition>$/m);
    assert.match(await kubectl('explain', 'cm.metadata.ownerReferences'), /<\[\]OwnerReference>/);
    assert.match(await kubectl('explain', 'events.eventTime'), /^FIELD: eventTime <string>$/m);
  });

  it('sends fieldValidation=Strict because the PATCH operation declares it', async () => {
    const file = join(home, 'lease.yaml');
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'coordination.orch.io/v1',
        kind: 'Lease',
        metadata: { name: 'l1', namespace: 'default' },
        spec: { holderIdentity: 'a' },
      }),
    );
    await kubectl('create', '-f', file, '--validate=strict');
    const post = server.requests.find((r) => r.method === 'POST');
    assert.ok(post, 'kubectl posted the lease');
    assert.equal(
      post.url,
      '/apis/coordination.orch.io/v1/namespaces/default/leases?fieldManager=kubectl-create&fieldValidation=Strict',
    );
  });

  // Lease is not compiled into kubectl, so a strategic merge patch can only come from the v3
  // document (there is no /openapi/v2 here; without v3 kubectl would fall back to a merge patch).
  it('computes a strategic merge patch from the v3 schema on apply', async () => {
    const file = join(home, 'lease2.yaml');
    const lease = (holderIdentity: string) =>
      JSON.stringify({
        apiVersion: 'coordination.orch.io/v1',
        kind: 'Lease',
        metadata: { name: 'l2', namespace: 'default' },
        spec: { holderIdentity },
      });
    writeFileSync(file, lease('a'));
    await kubectl('apply', '-f', file);
    writeFileSync(file, lease('b'));
    await kubectl('apply', '-f', file);
    const patch = server.requests.find((r) => r.method === 'PATCH');
    assert.ok(patch, 'second apply patched');
    assert.equal(patch.contentType, 'application/strategic-merge-patch+json');
    assert.equal(JSON.parse(patch.body).spec.holderIdentity, 'b');
  });
});
