import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer } from '../../src/server/start-server.js';
import { openWatch } from '../support/watch-client.js';
import { type InProcessServer, startInProcess } from './server-fixture.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';

describe('the k8s.io profile over HTTP', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ apiDomain: 'k8s.io', runControllers: true });
  });
  after(() => s.stop());

  it("serves kube-apiserver's group, namespaces, finalizer and label", async () => {
    const groups = (await s.api.admin('GET', '/apis')).json();
    assert.deepEqual(
      groups.groups.map((g: { name: string }) => g.name),
      [
        'authentication.k8s.io',
        'authorization.k8s.io',
        'coordination.k8s.io',
        'rbac.authorization.k8s.io',
        'policy',
        'scheduling.k8s.io',
        'node.k8s.io',
        'storage.k8s.io',
        'certificates.k8s.io',
        'flowcontrol.apiserver.k8s.io',
        'discovery.k8s.io',
        'networking.k8s.io',
        'apps',
        'events.k8s.io',
        'batch',
        'autoscaling',
        'apiextensions.k8s.io',
      ],
    );
    assert.equal((await s.api.admin('GET', '/apis/coordination.orch.io/v1')).status, 404);
    const names = (await s.api.admin('GET', '/api/v1/namespaces'))
      .json()
      .items.map((n: { metadata: { name: string } }) => n.metadata.name);
    assert.deepEqual(names.sort(), ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const created = await s.api.admin('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } },
    });
    assert.deepEqual(created.json().spec.finalizers, ['kubernetes']);
    assert.equal(created.json().metadata.labels['kubernetes.io/metadata.name'], 'team');
    const lease = await s.api.admin('POST', LEASES, {
      body: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'l' },
        spec: { holderIdentity: 'me' },
      },
    });
    assert.equal(lease.status, 201, lease.text);
  });

  it('converts to Table as meta.k8s.io and refuses meta.orch.io', async () => {
    const table = await s.api.admin('GET', LEASES, {
      headers: { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' },
    });
    assert.equal(table.json().kind, 'Table');
    assert.equal(table.json().apiVersion, 'meta.k8s.io/v1');
    assert.ok(table.json().columnDefinitions.some((c: { name: string }) => c.name === 'Holder'));
    const orch = await s.api.admin('GET', LEASES, {
      headers: { accept: 'application/json;as=Table;g=meta.orch.io;v=v1' },
    });
    assert.equal(orch.status, 406);
  });

  it("names kube's media type and meta group in answers", async () => {
    const pb = await s.api.admin('GET', '/api/v1/namespaces/default', {
      headers: { accept: 'application/vnd.kubernetes.protobuf' },
    });
    assert.equal(pb.headers['content-type'], 'application/vnd.kubernetes.protobuf');
    const refused = await s.api.admin('GET', '/api/v1/namespaces/default', { headers: { accept: 'text/html' } });
    assert.equal(refused.status, 406);
    assert.match(refused.json().message, /application\/vnd\.kubernetes\.protobuf/);
    assert.doesNotMatch(refused.text, /orch/);
    const invalid = await s.api.admin('GET', '/api/v1/configmaps?resourceVersionMatch=Exact');
    assert.equal(invalid.status, 422);
    assert.match(invalid.json().message, /^ListOptions\.meta\.k8s\.io "" is invalid/);
    const aggregated = await s.api.admin('GET', '/apis', {
      headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
    });
    assert.equal(aggregated.json().kind, 'APIGroupDiscoveryList');
    assert.equal(aggregated.json().apiVersion, 'apidiscovery.k8s.io/v2');
    const openapi = (await s.api.admin('GET', '/openapi/v2')).json();
    assert.ok(openapi.definitions['io.k8s.api.coordination.v1.Lease']);
    assert.ok(!Object.keys(openapi.definitions).some((n) => n.includes('orch')));
  });

  it('marks the end of initial events with k8s.io/initial-events-end', async () => {
    const w = await openWatch(
      s.url,
      `${LEASES}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
      s.admin,
    );
    const events = await w.waitFor(2);
    w.close();
    const bookmark = events.find((e) => e.type === 'BOOKMARK');
    assert.equal(bookmark?.object.metadata.annotations['k8s.io/initial-events-end'], 'true');
  });
});

describe('a data directory keeps its API domain', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-domain-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('refuses to serve it under the other domain, and serves it again under its own', async () => {
    const first = await startServer({ dataDir, securePort: 0, runControllers: false });
    await first.close();
    await assert.rejects(
      startServer({ dataDir, securePort: 0, runControllers: false, apiDomain: 'k8s.io' }),
      (e: Error) =>
        e.name === 'ApiDomainMismatchError' &&
        e.message.includes('--api-domain=orch.io') &&
        e.message.includes('--api-domain=k8s.io'),
    );
    const again = await startServer({ dataDir, securePort: 0, runControllers: false });
    await again.close();
  });
});
