import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { kubectl } from '../support/kubectl.js';
import { coreEvent, v1Event as v1Sample } from './event-samples.js';

// The real kubectl 1.32 and both event views, core/v1 `events` and `events.k8s.io/v1`, under
// --api-domain=k8s.io.

const NS = 'ev';
const CORE = `/api/v1/namespaces/${NS}/events`;
const V1 = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;

let s: InProcessServer;
before(async () => {
  s = await startInProcess({ apiDomain: 'k8s.io', runControllers: false });
  const posts: [string, unknown][] = [
    ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }],
    [CORE, coreEvent(NS, 'core-made')],
    [V1, v1Sample(NS, 'v1-made')],
  ];
  for (const [path, body] of posts) {
    const r = await s.api.admin('POST', path, { body: body as object });
    assert.equal(r.status, 201, r.text);
  }
});
after(async () => {
  await s?.stop();
});

const v1Event = (name: string, extra?: Record<string, unknown>) => v1Sample(NS, name, extra);
const api = (method: string, path: string) => s.api.admin(method, path);

describe('kubectl and both event views (k8s.io profile)', () => {
  const run = async (...args: string[]) => {
    const r = await kubectl(s.server.kubeconfigPath as string, args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const header = (out: string) => (out.split('\n')[0] ?? '').trim().split(/\s{2,}/);

  it('lists events through both resources with the same columns', async () => {
    const core = await run('get', 'events', '-n', NS);
    const v1 = await run('get', 'events.v1.events.k8s.io', '-n', NS);
    assert.deepEqual(header(core), ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    assert.deepEqual(header(v1), header(core));
    assert.match(core, /Normal\s+Pulled\s+pod\/web-0\s+Pulled image/);
    assert.match(v1, /Normal\s+Pulled\s+pod\/web-0\s+Pulled image/);
    assert.match(v1, /Normal\s+Scheduled\s+pod\/web-1\s+Assigned to node-1/);
    const wide = await run(
      'get',
      'events.v1.events.k8s.io',
      '-n',
      NS,
      '-o',
      'wide',
      '--field-selector',
      'regarding.name=web-0',
    );
    assert.deepEqual(header(wide), [
      'LAST SEEN',
      'TYPE',
      'REASON',
      'OBJECT',
      'SUBOBJECT',
      'SOURCE',
      'MESSAGE',
      'FIRST SEEN',
      'COUNT',
      'NAME',
    ]);
    assert.match(wide, /node-agent, node-1/);
  });

  it('resolves ev to core/v1 and reads events/v1 objects by their full name', async () => {
    const ev = JSON.parse(await run('get', 'ev', 'core-made', '-n', NS, '-o', 'json'));
    assert.equal(ev.apiVersion, 'v1');
    assert.equal(ev.message, 'Pulled image');
    const v1 = JSON.parse(await run('get', 'events.v1.events.k8s.io', 'core-made', '-n', NS, '-o', 'json'));
    assert.equal(v1.apiVersion, 'events.k8s.io/v1');
    assert.equal(v1.note, 'Pulled image');
    const explained = await run('explain', 'events.regarding', '--api-version=events.k8s.io/v1');
    assert.match(explained, /GROUP:\s+events\.k8s\.io\nKIND:\s+Event\nVERSION:\s+v1/);
    assert.match(explained, /FIELD: regarding <ObjectReference>/);
    assert.match(
      await run('api-resources', '--api-group=events.k8s.io', '--no-headers'),
      /^events\s+ev\s+events\.k8s\.io\/v1\s+true\s+Event$/m,
    );
  });
});

describe('kubectl apply of events.k8s.io/v1', () => {
  it('creates and updates with server-side apply, read back through core/v1', async () => {
    const series = { count: 2, lastObservedTime: '2026-01-01T00:10:00.000000Z' };
    const manifests = [
      v1Event('applied', { metadata: { name: 'applied', namespace: NS } }),
      v1Event('applied', { metadata: { name: 'applied', namespace: NS }, series }),
      v1Event('applied', { metadata: { name: 'applied', namespace: NS }, series, note: 'rewritten' }),
    ];
    const kubeconfig = s.server.kubeconfigPath as string;
    const apply = (m: unknown) => kubectl(kubeconfig, ['apply', '--server-side', '-f', '-'], JSON.stringify(m));
    for (const m of manifests.slice(0, 2)) {
      const r = await apply(m);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /event\.events\.k8s\.io\/applied serverside-applied/);
    }
    const refused = await apply(manifests[2]);
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /The Event "applied" is invalid: message: Invalid value: "rewritten": field is immutable/,
    );
    const core = (await api('GET', `${CORE}/applied`)).json();
    assert.equal(core.message, 'Assigned to node-1');
    assert.deepEqual(core.series, series);
    assert.deepEqual(
      core.metadata.managedFields.map((m: { manager: string; operation: string; apiVersion: string }) => [
        m.manager,
        m.operation,
        m.apiVersion,
      ]),
      [['kubectl', 'Apply', 'events.k8s.io/v1']],
    );
  });
});
