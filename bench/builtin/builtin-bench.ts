import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wrkRps } from '../api/load.js';
import { startBenchServer } from '../api/server-proc.js';
import { post } from '../authz/seed-http.js';
import type { BenchOptions } from '../cli.js';
import { printFigures } from '../figures.js';
import { median, printTable, type Row } from '../storage/measure.js';
import { h2loadCreates } from './h2load-creates.js';

/** Seconds of each measured round. */
const WRK_SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 3);
/**
 * Rounds of each measurement; the figures are medians of the rounds' ratios. The machine's speed
 * drifts, and a slow spell costs the Pod (whose create walks more memory) more than the
 * ConfigMap: many short rounds, each kind first in every other one, keep one spell from deciding
 * the figure.
 */
const ROUNDS = 9;
/** Seconds of creates of each kind, twice over, before the measured rounds. */
const CREATE_WARM_UP_SECONDS = 3;
/** Seconds each create round runs before its measured window (its connections' handshakes). */
const CREATE_ROUND_WARM_UP_SECONDS = 1;
const TOKEN = 'builtin-bench-token-7c1d93ab5e20';
const NS = 'bench';

/** A Pod with two containers, as `kubectl run` users write them (ports, env, resources, probes). */
function podBody(): Record<string, unknown> {
  const container = (name: string, image: string, port: number) => ({
    name,
    image,
    ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }],
    env: [
      { name: 'MODE', value: 'production' },
      { name: 'LOG_LEVEL', value: 'info' },
    ],
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
    readinessProbe: { httpGet: { path: '/healthz', port }, periodSeconds: 10 },
    volumeMounts: [{ name: 'data', mountPath: `/var/lib/${name}` }],
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { generateName: 'bench-pod-', labels: { app: 'bench', tier: 'backend' } },
    spec: {
      containers: [
        container('app', 'registry.example/app:1.4.2', 8080),
        container('sidecar', 'registry.example/proxy:2.0', 9090),
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
      nodeSelector: { disk: 'ssd' },
    },
  };
}

/** A ConfigMap whose JSON body has the same length as `like`'s. */
function configMapBody(like: Record<string, unknown>): Record<string, unknown> {
  const cm = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { generateName: 'bench-cm-', labels: { app: 'bench', tier: 'backend' } },
    data: { payload: '' },
  };
  const pad = JSON.stringify(like).length - JSON.stringify(cm).length;
  cm.data.payload = 'x'.repeat(Math.max(0, pad));
  return cm;
}

/** Milliseconds for a bare `node` process to start and exit: the floor of any start-up. */
function nodeStartMs(): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['-e', '0'], (err) => (err ? reject(err) : resolve(performance.now() - t0))),
  );
}

/**
 * Built-in kinds against a ConfigMap of the same JSON size, one server, rounds alternating:
 * creates/s (h2load POST, 64 connections, see h2load-creates.ts) and cached GETs/s (wrk GET
 * `?resourceVersion=0`) of a Pod with two containers; start-to-ready on an empty store with every
 * kind registered.
 */
export async function runBuiltinBench(options: BenchOptions): Promise<void> {
  const roundSeconds = options.quick ? Math.min(2, WRK_SECONDS) : WRK_SECONDS;
  const rounds = options.quick ? Math.min(2, ROUNDS) : ROUNDS;
  const warmUpSeconds = options.quick ? 1 : CREATE_WARM_UP_SECONDS;
  const dir = mkdtempSync(join(tmpdir(), 'orch-builtin-bench-'));
  try {
    const tokenFile = join(dir, 'tokens.csv');
    writeFileSync(tokenFile, `${TOKEN},bench-user,bench-uid,"system:masters"\n`);
    const args = [`--token-auth-file=${tokenFile}`];
    const starts: number[] = [];
    const nodeStarts: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const server = await startBenchServer(join(dir, `empty-${i}`), args);
      starts.push(server.startMs);
      await server.stop();
      nodeStarts.push(await nodeStartMs());
    }
    const server = await startBenchServer(join(dir, 'data'), args);
    try {
      const pod = podBody();
      const cm = configMapBody(pod);
      await post(server.url, server.admin, '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: NS },
      });
      const base = `${server.url}/api/v1/namespaces/${NS}`;
      const podName = JSON.parse(await post(server.url, server.admin, `/api/v1/namespaces/${NS}/pods`, pod)).metadata
        .name;
      const cmName = JSON.parse(await post(server.url, server.admin, `/api/v1/namespaces/${NS}/configmaps`, cm))
        .metadata.name;
      const creates: Record<string, number[]> = { pod: [], cm: [] };
      const gets: Record<string, number[]> = { pod: [], cm: [] };
      // Warm-up, so that the figures are the server's steady state, not its JIT compiler's: a
      // create runs several times the code a cached GET runs, and on two cores (the load
      // generator on one) V8's optimizing compiler takes several seconds of load to catch up
      // with the Pod's path.
      await wrkRps(`${base}/pods/${podName}?resourceVersion=0`, 1, TOKEN);
      await wrkRps(`${base}/configmaps/${cmName}?resourceVersion=0`, 1, TOKEN);
      const createLoad = (tag: string, seconds: number) => ({
        seconds,
        warmUpSeconds: CREATE_ROUND_WARM_UP_SECONDS,
        token: TOKEN,
        dir,
        tag,
      });
      for (let i = 0; i < 2; i++) {
        await h2loadCreates(`${base}/configmaps`, cm, createLoad('cm', warmUpSeconds));
        await h2loadCreates(`${base}/pods`, pod, createLoad('pod', warmUpSeconds));
      }
      // The server's CPU time (every thread) per create in the measured window: unlike the
      // rate, it does not move with what else the machine's cores are running.
      const cpuPerCreate: Record<string, number[]> = { pod: [], cm: [] };
      const measuredCreates = async (tag: 'pod' | 'cm', url: string, body: unknown) => {
        let cpuAtStart = Number.NaN;
        const load = { ...createLoad(tag, roundSeconds), onMeasureStart: () => (cpuAtStart = server.cpuMs()) };
        const rate = await h2loadCreates(url, body, load);
        cpuPerCreate[tag]!.push(((server.cpuMs() - cpuAtStart) * 1000) / (rate * roundSeconds));
        creates[tag]!.push(rate);
      };
      const targets = {
        cm: { collection: `${base}/configmaps`, body: cm, one: `${base}/configmaps/${cmName}?resourceVersion=0` },
        pod: { collection: `${base}/pods`, body: pod, one: `${base}/pods/${podName}?resourceVersion=0` },
      } as const;
      // Likewise per GET: wrk runs on the same two cores, and reading the larger Pod costs it more.
      const cpuPerGet: Record<string, number[]> = { pod: [], cm: [] };
      const measuredGets = async (tag: 'pod' | 'cm', url: string) => {
        const cpuAtStart = server.cpuMs();
        const rate = await wrkRps(url, roundSeconds, TOKEN);
        cpuPerGet[tag]!.push(((server.cpuMs() - cpuAtStart) * 1000) / (rate * roundSeconds));
        gets[tag]!.push(rate);
      };
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? (['cm', 'pod'] as const) : (['pod', 'cm'] as const);
        for (const tag of order) await measuredCreates(tag, targets[tag].collection, targets[tag].body);
        for (const tag of order) await measuredGets(tag, targets[tag].one);
      }
      const ratios = (r: Record<string, number[]>) => r.pod!.map((p, i) => p / r.cm![i]!);
      // CPU per request: the ConfigMap's over the Pod's, so that 1 is parity, as for rates.
      const cpuRatios = (r: Record<string, number[]>) => r.pod!.map((p, i) => r.cm![i]! / p);
      const row = (metric: string, r: Record<string, number[]>, unit: 'req/s' | 'µs' = 'req/s'): Row => {
        const rs = unit === 'µs' ? cpuRatios(r) : ratios(r);
        return {
          metric,
          ours: median(r.pod!),
          baseline: median(r.cm!),
          unit,
          ratio: median(rs),
          spread: [Math.min(...rs), Math.max(...rs)],
        };
      };
      const startRatios = starts.map((s, i) => nodeStarts[i]! / s);
      const rows: Row[] = [
        row(
          `creates: Pod (2 containers, ${JSON.stringify(pod).length} B) vs ConfigMap of the same size, h2load 64 conns`,
          creates,
        ),
        row('server CPU per create (all threads) in those rounds; ratio: ConfigMap over Pod', cpuPerCreate, 'µs'),
        row('cached GETs: the same Pod vs the same ConfigMap, wrk 64 conns', gets),
        row('server CPU per cached GET in those rounds; ratio: ConfigMap over Pod', cpuPerGet, 'µs'),
        {
          metric: 'start-to-ready, empty store, every kind (baseline: bare node start)',
          ours: median(starts),
          baseline: median(nodeStarts),
          unit: 'ms',
          ratio: median(startRatios),
          spread: [Math.min(...startRatios), Math.max(...startRatios)],
        },
      ];
      printTable('built-in kinds: Pod against ConfigMap', rows);
      printFigures({
        'pod.creates': Math.round(median(creates.pod!)),
        'cm.creates': Math.round(median(creates.cm!)),
        'creates.ratio': Math.round(median(ratios(creates)) * 1000) / 1000,
        'pod.create_cpu_us': Math.round(median(cpuPerCreate.pod!)),
        'cm.create_cpu_us': Math.round(median(cpuPerCreate.cm!)),
        'create_cpu.ratio': Math.round(median(cpuRatios(cpuPerCreate)) * 1000) / 1000,
        'pod.gets': Math.round(median(gets.pod!)),
        'cm.gets': Math.round(median(gets.cm!)),
        'gets.ratio': Math.round(median(ratios(gets)) * 1000) / 1000,
        'pod.get_cpu_us': Math.round(median(cpuPerGet.pod!) * 10) / 10,
        'cm.get_cpu_us': Math.round(median(cpuPerGet.cm!) * 10) / 10,
        'get_cpu.ratio': Math.round(median(cpuRatios(cpuPerGet)) * 1000) / 1000,
        'start.ms': Math.round(median(starts)),
      });
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
