import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { HttpBridge } from '../../src/server/testing/http-bridge.js';
import type { InProcessServer } from '../../src/server/testing/in-process-server.js';
import { KUBECTL, type KubectlBridge, startKubectlBridge } from '../support/kubectl-bridge.js';

// The real kubectl (v1.32) reads the OpenAPI v3 documents the server's handler serves, and
// derives its request parameters and patches from them.
describe('kubectl against the OpenAPI documents of the in-process server', {
  skip: !existsSync(KUBECTL) && 'kubectl not installed',
}, () => {
  let k: KubectlBridge;
  let server: InProcessServer;
  let bridge: HttpBridge;
  let home = '';

  const kubectl = async (...args: string[]): Promise<string> => {
    const r = await k.run(...args);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout;
  };
  const urls = () => bridge.exchanges.map((e) => `${e.path}${e.query.size > 0 ? `?${e.query}` : ''}`);

  before(async () => {
    k = await startKubectlBridge('orch-kubectl-');
    ({ server, bridge, home } = k);
  });
  after(() => k.close());

  it('explains lease.spec from the coordination.orch.io/v1 document', async () => {
    const out = await kubectl('explain', 'lease.spec');
    assert.match(out, /^GROUP:\s+coordination\.orch\.io$/m);
    assert.match(out, /^KIND:\s+Lease$/m);
    assert.match(out, /^FIELD: spec <LeaseSpec>$/m);
    for (const field of ['acquireTime', 'holderIdentity', 'leaseDurationSeconds', 'leaseTransitions', 'renewTime']) {
      assert.match(out, new RegExp(`^  ${field}\\t<(string|integer)>$`, 'm'));
    }
    assert.ok(urls().includes('/openapi/v3?timeout=32s'));
    assert.ok(urls().some((u) => u.startsWith('/openapi/v3/apis/coordination.orch.io/v1?hash=')));
  });

  it('explains configmap with ObjectMeta resolved through $ref', async () => {
    const out = await kubectl('explain', 'configmap');
    assert.match(out, /^KIND:\s+ConfigMap$/m);
    // The kind's description is Orch's own.
    assert.match(out, /^ {4}Configuration data for pods to use/m);
    assert.doesNotMatch(out, /^GROUP:/m);
    assert.match(out, /^ {2}metadata\t<ObjectMeta>$/m);
    assert.match(out, /^ {2}binaryData\t<map\[string\]string>$/m);
  });

  it('explains nested list fields of named types', async () => {
    assert.match(await kubectl('explain', 'ns.status.conditions'), /^FIELD: conditions <\[\]NamespaceCondition>$/m);
    assert.match(await kubectl('explain', 'cm.metadata.ownerReferences'), /<\[\]OwnerReference>/);
    assert.match(await kubectl('explain', 'events.eventTime'), /^FIELD: eventTime <string>$/m);
  });

  it('sends fieldValidation=Strict because the operations declare it', async () => {
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
    const post = bridge.exchanges.find((e) => e.method === 'POST');
    assert.ok(post, 'kubectl posted the lease');
    assert.equal(post.path, '/apis/coordination.orch.io/v1/namespaces/default/leases');
    assert.equal(post.query.get('fieldValidation'), 'Strict');
    assert.equal(post.status, 201);
  });

  // Lease is not compiled into kubectl, so a strategic merge patch can only come from the v3
  // document; without it kubectl would fall back to a merge patch.
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
    const patch = bridge.exchanges.find((e) => e.method === 'PATCH');
    assert.ok(patch, 'second apply patched');
    assert.equal(patch.contentType, 'application/strategic-merge-patch+json');
    assert.equal(JSON.parse(patch.body.toString('utf8')).spec.holderIdentity, 'b');
    assert.equal(patch.status, 200);
    const stored = await server.request({ url: '/apis/coordination.orch.io/v1/namespaces/default/leases/l2' });
    assert.equal((stored.json() as { spec: { holderIdentity: string } }).spec.holderIdentity, 'b');
  });
});
