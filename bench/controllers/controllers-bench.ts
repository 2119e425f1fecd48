import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startBenchServer } from '../api/server-proc.js';
import type { BenchOptions } from '../cli.js';
import { printFigures } from '../figures.js';
import { printTable, type Row } from '../storage/measure.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const NAMESPACES = Number(process.env.BENCH_NAMESPACES ?? 1000);
const DEPLOYMENTS = Number(process.env.BENCH_DEPLOYMENTS ?? 100);
const REPLICAS = 10;
const CONCURRENCY = 16;
/** The controller manager's client rate limit in this bench (kube's default, 20/30, would bound every figure). */
const QPS = 500;

type Creds = { ca: string; cert: string; key: string };

function client(base: string, creds: Creds) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, ...creds });
  const call = (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; text: string }>((done, reject) => {
      const req = request(
        new URL(path, base),
        { method, agent, headers: { 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => done({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  return {
    async post(path: string, body: unknown): Promise<void> {
      const r = await call('POST', path, body);
      if (r.status >= 300) throw new Error(`POST ${path}: ${r.status} ${r.text.slice(0, 200)}`);
    },
    async count(path: string): Promise<number> {
      const r = await call('GET', path);
      if (r.status !== 200) throw new Error(`GET ${path}: ${r.status}`);
      return (JSON.parse(r.text) as { items: unknown[] }).items.length;
    },
    close: () => agent.destroy(),
  };
}

/** Runs `jobs` with `CONCURRENCY` in flight. */
async function pool(n: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await job(next++);
    }),
  );
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const deployment = (name: string) => ({
  metadata: { name },
  spec: {
    replicas: REPLICAS,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

const replicaSet = (name: string) => ({ ...deployment(name), metadata: { name: `${name}-rs` } });

const pod = (name: string, i: number) => ({
  metadata: { name: `${name}-${i}`, labels: { app: name } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

function startControllerManager(kubeconfig: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'dist/cli/orch-controller-manager.js'),
      `--kubeconfig=${kubeconfig}`,
      '--secure-port=0',
      '--use-service-account-credentials',
      `--kube-api-qps=${QPS}`,
      `--kube-api-burst=${QPS * 2}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let out = '';
  return new Promise((ok, fail) => {
    const onData = (d: Buffer) => {
      out += d;
      if (/"controller manager: started controller","controller":"pod-garbage-collector-controller"/.test(out))
        ok(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (c) => fail(new Error(`controller manager exited ${c}: ${out.slice(-2000)}`)));
  });
}

/**
 * The controller manager's throughput through the API, against a client making the same writes
 * itself in the same run: 1,000 namespaces until every `default` ServiceAccount exists, and 100
 * Deployments of 10 replicas until their ReplicaSets and 1,000 Pods exist (no scheduler: pods stay
 * Pending). Both run against one API server (`--run-controllers=false`), the controller manager a
 * separate process over HTTPS with service-account credentials.
 */
export async function runControllersBench(options: BenchOptions): Promise<void> {
  const namespaces = options.quick ? Math.min(200, NAMESPACES) : NAMESPACES;
  const deployments = options.quick ? Math.min(20, DEPLOYMENTS) : DEPLOYMENTS;
  const dir = mkdtempSync(join(tmpdir(), 'orch-controllers-bench-'));
  const server = await startBenchServer(join(dir, 'data'), ['--run-controllers=false']);
  const api = client(server.url, server.admin);
  let cm: ChildProcess | undefined;
  try {
    // Baseline: a client makes the same objects the controllers would (namespace + account; deployment + replica set + pods).
    let t = performance.now();
    await pool(namespaces, async (i) => {
      await api.post('/api/v1/namespaces', { metadata: { name: `base-${i}` } });
      await api.post(`/api/v1/namespaces/base-${i}/serviceaccounts`, { metadata: { name: 'default' } });
    });
    const nsBaseline = performance.now() - t;
    await api.post('/api/v1/namespaces', { metadata: { name: 'base-apps' } });
    t = performance.now();
    await pool(deployments, async (i) => {
      const name = `web-${i}`;
      await api.post('/apis/apps/v1/namespaces/base-apps/deployments', deployment(name));
      await api.post('/apis/apps/v1/namespaces/base-apps/replicasets', replicaSet(name));
      for (let p = 0; p < REPLICAS; p++) await api.post('/api/v1/namespaces/base-apps/pods', pod(name, p));
    });
    const deployBaseline = performance.now() - t;

    cm = await startControllerManager(join(dir, 'data', 'admin.kubeconfig'));
    t = performance.now();
    await pool(namespaces, (i) => api.post('/api/v1/namespaces', { metadata: { name: `ns-${i}` } }));
    await until(
      async () =>
        (await api.count('/api/v1/serviceaccounts?fieldSelector=metadata.name%3Ddefault')) >=
        (await api.count('/api/v1/namespaces')),
      'default service accounts',
    );
    const nsOurs = performance.now() - t;
    await api.post('/api/v1/namespaces', { metadata: { name: 'apps' } });
    t = performance.now();
    await pool(deployments, (i) => api.post('/apis/apps/v1/namespaces/apps/deployments', deployment(`web-${i}`)));
    await until(
      async () =>
        (await api.count('/apis/apps/v1/namespaces/apps/replicasets')) >= deployments &&
        (await api.count('/api/v1/namespaces/apps/pods')) >= deployments * REPLICAS,
      'replica sets and pods',
    );
    const deployOurs = performance.now() - t;
    const rows: Row[] = [
      {
        metric: `${namespaces} namespaces until every default ServiceAccount exists`,
        ours: nsOurs,
        baseline: nsBaseline,
        unit: 'ms',
        lowerIsBetter: true,
      },
      {
        metric: `${deployments} Deployments × ${REPLICAS} until their ReplicaSets and Pods exist`,
        ours: deployOurs,
        baseline: deployBaseline,
        unit: 'ms',
        lowerIsBetter: true,
      },
    ];
    printTable(
      `controller manager (separate process, service-account credentials, qps ${QPS}) vs a client writing the same objects (${CONCURRENCY} in flight)`,
      rows,
    );
    printFigures({
      namespacesMs: nsOurs,
      namespacesBaselineMs: nsBaseline,
      deploymentsMs: deployOurs,
      deploymentsBaselineMs: deployBaseline,
    });
  } finally {
    cm?.kill('SIGTERM');
    api.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
