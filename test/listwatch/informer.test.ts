import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { apiOf } from '../support/api.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

/** Seeded random numbers, so a failure can be replayed. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('client-node informer and kubectl get -w', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof apiOf>['admin'];
  const ns = 'inf';
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  before(async () => {
    // Short watch lifetimes and compaction make the informer re-watch from versions that are
    // already compacted: it must get 410 and relist.
    server = await startServerProcess({ args: ['--min-request-timeout=2', '--etcd-compaction-interval=1s'] });
    api = apiOf(server).admin;
    await api('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
  });
  after(async () => server?.dispose());

  it('keeps an exact mirror through 1,000 random writes and a forced 410 relist', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(server.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    let lists = 0;
    const informer = makeInformer<V1ConfigMap>(kc, base, () => {
      lists++;
      return core.listNamespacedConfigMap({ namespace: ns });
    });
    let errors = 0;
    let stopped = false;
    informer.on('error', () => {
      errors++;
      // client-node stops on a watch error; an informer owner restarts it (and it relists).
      if (!stopped) setTimeout(() => !stopped && informer.start().catch(() => {}), 200);
    });
    await informer.start();
    const rand = seeded(42);
    const live = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const names = [...live.keys()];
      const r = rand();
      if (names.length === 0 || r < 0.45) {
        const name = `cm-${i}`;
        const res = await api('POST', base, {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: '0' } },
        });
        assert.equal(res.status, 201);
        live.set(name, 0);
      } else if (r < 0.8) {
        const name = names[Math.floor(rand() * names.length)];
        const v = live.get(name)! + 1;
        const res = await api('PATCH', `${base}/${name}`, {
          body: { data: { v: String(v) } },
          headers: { 'content-type': 'application/merge-patch+json' },
        });
        assert.equal(res.status, 200);
        live.set(name, v);
      } else {
        const name = names[Math.floor(rand() * names.length)];
        assert.equal((await api('DELETE', `${base}/${name}`)).status, 200);
        live.delete(name);
      }
    }
    const mirrorMatches = () => {
      const mirror = new Map(informer.list(ns).map((c) => [c.metadata!.name!, Number(c.data?.v)]));
      return mirror.size === live.size && [...live].every(([n, v]) => mirror.get(n) === v);
    };
    await eventually(mirrorMatches, 20000, 'the informer to mirror the collection');

    // Quiet in this namespace while other writes and compaction move past the informer's
    // version; its next re-watch starts from a compacted version and must relist.
    const listsBefore = lists;
    for (let i = 0; i < 8; i++) {
      await api('POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'tick-' } },
      });
      await new Promise((r) => setTimeout(r, 600));
    }
    await api('POST', base, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-relist' }, data: { v: '7' } },
    });
    live.set('after-relist', 7);
    await eventually(mirrorMatches, 20000, 'the informer to mirror the collection after a relist');
    assert.ok(lists > listsBefore, `the informer relisted (${listsBefore} -> ${lists} lists, ${errors} watch errors)`);
    stopped = true;
    await informer.stop();
  });

  it('kubectl get -w prints the changes', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn('kubectl', [
      '--kubeconfig',
      server.kubeconfig,
      'get',
      'configmaps',
      '-n',
      ns,
      '-w',
      '--output-watch-events',
      '--field-selector=metadata.name=watched',
    ]);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    try {
      await new Promise((r) => setTimeout(r, 1500));
      await api('POST', base, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' } } });
      await api('PATCH', `${base}/watched`, {
        body: { data: { a: 'b' } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      await api('DELETE', `${base}/watched`);
      await eventually(() => /DELETED\s+watched/.test(out), 10000, 'kubectl to print the deletion');
      assert.match(out, /ADDED\s+watched/);
      assert.match(out, /MODIFIED\s+watched/);
    } finally {
      child.kill();
    }
  });
});
