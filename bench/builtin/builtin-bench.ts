import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AlternatingLoadOptions,
  type AlternatingSummary,
  alternatingLoad,
  summarize,
} from '../api/alternating-load.js';
import { startBenchServer } from '../api/server-proc.js';
import { post } from '../authz/seed-http.js';
import type { BenchOptions } from '../cli.js';
import { printFigures } from '../figures.js';
import { median, printTable, type Row } from '../storage/measure.js';

/**
 * How the two kinds are compared: one load generator on 64 connections kept open, switching
 * between the kinds every phase (see alternating-load.ts), so that both meet the machine at the
 * same speeds. This machine's speed swings by up to 2× in spells of a tenth of a second to a few
 * seconds (a single-threaded loop alone on it shows the same); runs seconds apart, each with its
 * own load generator and handshakes, caught different spells, and single rounds' ratios ranged
 * 0.45–0.93 for creates. A phase is long enough for the requests still in flight at a switch to
 * drain (64 creates take tens of milliseconds, 64 GETs a few) and short enough that its
 * neighbours meet the same spell.
 */
const CREATE_PHASE_MS = 500;
const CREATE_PHASES = 121;
const GET_PHASE_MS = 50;
const GET_PHASES = 601;
/** Alternating load before the measured phases, so that the figures are the server's steady state. */
const CREATE_WARM_UP_MS = 12_000;
const GET_WARM_UP_MS = 3_000;
const CONNECTIONS = 64;
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

/** Starts of an empty server timed for the start-to-ready figure (its median). */
const START_ROUNDS = 9;

/** {@link alternatingLoad}, summarized. */
async function alternating(o: AlternatingLoadOptions): Promise<AlternatingSummary> {
  const { phases, done } = await alternatingLoad(o);
  return summarize(phases, done);
}

/**
 * Built-in kinds against a ConfigMap of the same JSON size, on one server, the kinds alternating
 * phase by phase on the same connections: creates/s (POST) and cached GETs/s (GET
 * `?resourceVersion=0`) of a Pod with two containers; start-to-ready on an empty store with every
 * kind registered.
 */
export async function runBuiltinBench(options: BenchOptions): Promise<void> {
  const rounds = options.quick ? 2 : START_ROUNDS;
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
      const base = `/api/v1/namespaces/${NS}`;
      const podName = JSON.parse(await post(server.url, server.admin, `/api/v1/namespaces/${NS}/pods`, pod)).metadata
        .name;
      const cmName = JSON.parse(await post(server.url, server.admin, `/api/v1/namespaces/${NS}/configmaps`, cm))
        .metadata.name;
      const phases = (full: number) => (options.quick ? Math.min(full, 21) : full);
      const load = { url: server.url, ca: server.admin.ca, token: TOKEN, connections: CONNECTIONS };
      // The server's CPU time (every thread) per request, besides the rates: it does not move
      // with what the load generator, on the same two cores, spends on each kind.
      const sample = () => server.cpuMs();
      const creates = await alternating({
        ...load,
        a: { method: 'POST', path: `${base}/configmaps`, body: cm },
        b: { method: 'POST', path: `${base}/pods`, body: pod },
        phaseMs: CREATE_PHASE_MS,
        phases: phases(CREATE_PHASES),
        warmUpMs: options.quick ? 2_000 : CREATE_WARM_UP_MS,
        sample,
      });
      const gets = await alternating({
        ...load,
        a: { method: 'GET', path: `${base}/configmaps/${cmName}?resourceVersion=0` },
        b: { method: 'GET', path: `${base}/pods/${podName}?resourceVersion=0` },
        phaseMs: GET_PHASE_MS,
        phases: phases(GET_PHASES),
        warmUpMs: options.quick ? 1_000 : GET_WARM_UP_MS,
        sample,
      });
      const row = (metric: string, r: AlternatingSummary): Row => ({
        metric,
        ours: r.rates[1],
        baseline: r.rates[0],
        unit: 'req/s',
        ratio: r.ratio,
        spread: r.spread,
      });
      // CPU per request: the ConfigMap's over the Pod's, so that 1 is parity, as for rates.
      const cpuRow = (metric: string, r: AlternatingSummary): Row => ({
        metric,
        ours: r.sampledPerRequest[1] * 1000,
        baseline: r.sampledPerRequest[0] * 1000,
        unit: 'µs',
        ratio: r.sampledPerRequest[0] / r.sampledPerRequest[1],
      });
      const startRatios = starts.map((s, i) => nodeStarts[i]! / s);
      const rows: Row[] = [
        row(
          `creates: Pod (2 containers, ${JSON.stringify(pod).length} B) vs ConfigMap of the same size, ${CONNECTIONS} conns, ${CREATE_PHASE_MS} ms phases`,
          creates,
        ),
        cpuRow('server CPU per create (all threads); ratio: ConfigMap over Pod', creates),
        row(`cached GETs: the same Pod vs the same ConfigMap, ${CONNECTIONS} conns, ${GET_PHASE_MS} ms phases`, gets),
        cpuRow('server CPU per cached GET (all threads); ratio: ConfigMap over Pod', gets),
        {
          metric: 'start-to-ready, empty store, every kind (baseline: bare node start)',
          ours: median(starts),
          baseline: median(nodeStarts),
          unit: 'ms',
          ratio: median(startRatios),
          spread: [Math.min(...startRatios), Math.max(...startRatios)],
        },
      ];
      printTable(
        'built-in kinds: Pod against ConfigMap',
        rows,
        'ratio: 10th–90th percentile over phases (start: range over starts)',
      );
      printFigures({
        'pod.creates': Math.round(creates.rates[1]),
        'cm.creates': Math.round(creates.rates[0]),
        'creates.ratio': Math.round(creates.ratio * 1000) / 1000,
        'creates.phases': creates.ratios.length,
        'creates.steady_share': Math.round(creates.steadyShare * 1000) / 1000,
        'pod.create_cpu_us': Math.round(creates.sampledPerRequest[1] * 1000),
        'cm.create_cpu_us': Math.round(creates.sampledPerRequest[0] * 1000),
        'create_cpu.ratio': Math.round((creates.sampledPerRequest[0] / creates.sampledPerRequest[1]) * 1000) / 1000,
        'pod.gets': Math.round(gets.rates[1]),
        'cm.gets': Math.round(gets.rates[0]),
        'gets.ratio': Math.round(gets.ratio * 1000) / 1000,
        'gets.phases': gets.ratios.length,
        'gets.steady_share': Math.round(gets.steadyShare * 1000) / 1000,
        'pod.get_cpu_us': Math.round(gets.sampledPerRequest[1] * 10000) / 10,
        'cm.get_cpu_us': Math.round(gets.sampledPerRequest[0] * 10000) / 10,
        'get_cpu.ratio': Math.round((gets.sampledPerRequest[0] / gets.sampledPerRequest[1]) * 1000) / 1000,
        'start.ms': Math.round(median(starts)),
      });
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
