import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

// Under the default API domain (`orch.io`) kubectl still asks for `meta.k8s.io` Tables, which
// this server does not serve there: its Accept header lists plain JSON last, so the server falls
// back to the objects and kubectl prints its own NAME and AGE columns.

describe('kubectl 1.32 against the default API domain', () => {
  let server: ServerProcess;
  const k = (...args: string[]) => kubectl(server.kubeconfig, args);
  before(async () => {
    server = await startServerProcess();
    const r = await kubectl(
      server.kubeconfig,
      ['create', '-f', '-'],
      JSON.stringify({
        apiVersion: 'coordination.orch.io/v1',
        kind: 'Lease',
        metadata: { name: 'plain', namespace: 'default' },
        spec: { holderIdentity: 'holder-a' },
      }),
    );
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => server?.dispose());

  it('get leases -o wide prints NAME and AGE from the plain objects', async () => {
    const r = await k('get', 'leases', '-o', 'wide', '-v=8');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Accept: application\/json;as=Table;v=v1;g=meta\.k8s\.io,.*,application\/json\n/);
    // The fallback: a LeaseList, not a Table.
    assert.match(r.stderr, /kind\W+LeaseList\W+apiVersion\W+coordination\.orch\.io\/v1\W/);
    assert.doesNotMatch(r.stderr, /\berror\b|Error from server/i);
    const lines = r.stdout.trimEnd().split('\n');
    assert.deepEqual(lines[0].trim().split(/\s{2,}/), ['NAME', 'AGE']);
    assert.match(lines[1], /^plain\s+\d+s$/);
    assert.equal(lines.length, 2);
  });

  it('get namespaces without Tables lists the orch namespaces', async () => {
    const r = await k('get', 'namespaces', '-o', 'wide');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(
      r.stdout
        .split('\n')[0]
        .trim()
        .split(/\s{2,}/),
      ['NAME', 'AGE'],
    );
    for (const ns of ['default', 'orch-system', 'orch-public', 'orch-node-lease'])
      assert.match(r.stdout, new RegExp(`^${ns}\\s+\\d+s$`, 'm'));
  });
});
