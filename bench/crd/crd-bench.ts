import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wrkRps } from '../api/load.js';
import { startBenchServer } from '../api/server-proc.js';
import { h2loadCreates } from '../builtin/h2load-creates.js';
import type { BenchOptions } from '../cli.js';
import { printFigures } from '../figures.js';
import { median, printTable, type Row } from '../storage/measure.js';

const WRK_SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 5);
const ROUNDS = 3;
const ESTABLISH_ROUNDS = 5;
const TOKEN = 'crd-bench-token-4b9e02d17a63';
const NS = 'bench';

type Creds = { ca: string; cert: string; key: string };

/** The benchmarked kind's schema: a spec with five validation rules. */
const SPEC_SCHEMA = {
  type: 'object',
  properties: {
    replicas: { type: 'integer', minimum: 0 },
    minReplicas: { type: 'integer', default: 1 },
    mode: { type: 'string', maxLength: 16 },
    owner: { type: 'string', maxLength: 64 },
    tags: { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 64 }, 'x-kubernetes-list-type': 'set' },
    endpoints: {
      type: 'array',
      maxItems: 16,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string', maxLength: 32 }, port: { type: 'integer' } },
      },
    },
  },
  'x-kubernetes-validations': [
    { rule: 'self.replicas <= 100', message: 'at most 100 replicas' },
    { rule: 'self.minReplicas <= self.replicas' },
    { rule: "!has(self.mode) || self.mode in ['fast', 'safe']" },
    { rule: 'self.tags.all(t, t.size() > 0)' },
    { rule: 'self.endpoints.all(e, e.port > 0 && e.port < 65536)' },
  ],
};

function crd(group: string, plural: string, kind: string): object {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, kind },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: SPEC_SCHEMA } } },
        },
      ],
    },
  };
}

function widgetBody(): Record<string, unknown> {
  return {
    apiVersion: 'bench.example.com/v1',
    kind: 'BenchWidget',
    metadata: { generateName: 'bench-widget-', labels: { app: 'bench', tier: 'backend' } },
    spec: {
      replicas: 3,
      minReplicas: 1,
      mode: 'fast',
      owner: 'team-platform',
      tags: ['frontend', 'production', 'eu-west'],
      endpoints: [
        { name: 'http', port: 8080 },
        { name: 'metrics', port: 9090 },
      ],
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
  cm.data.payload = 'x'.repeat(Math.max(0, JSON.stringify(like).length - JSON.stringify(cm).length));
  return cm;
}

function call(
  base: string,
  creds: Creds,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, base),
      { method, ca: creds.ca, cert: creds.cert, key: creds.key, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function post(base: string, creds: Creds, path: string, body: unknown): Promise<string> {
  const r = await call(base, creds, 'POST', path, body);
  if (r.status >= 300) throw new Error(`POST ${path}: ${r.status} ${r.text.slice(0, 300)}`);
  return r.text;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Milliseconds from a CRD's POST to Established, and to its version being discoverable. */
async function establish(base: string, creds: Creds, i: number): Promise<{ established: number; served: number }> {
  const group = `g${i}.bench.example.com`;
  const t0 = performance.now();
  await post(base, creds, '/apis/apiextensions.orch.io/v1/customresourcedefinitions', crd(group, 'things', 'Thing'));
  let established = 0;
  await until(async () => {
    const r = await call(
      base,
      creds,
      'GET',
      `/apis/apiextensions.orch.io/v1/customresourcedefinitions/things.${group}`,
    );
    const ok = JSON.parse(r.text).status?.conditions?.some(
      (c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True',
    );
    if (ok) established = performance.now() - t0;
    return ok;
  });
  await until(async () => (await call(base, creds, 'GET', `/apis/${group}/v1`)).status === 200);
  return { established, served: performance.now() - t0 };
}

/** Milliseconds from a ConfigMap's POST until the watch cache serves it (the server's write-to-visible floor). */
async function configMapVisible(base: string, creds: Creds, i: number): Promise<number> {
  const t0 = performance.now();
  await post(base, creds, `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: `visible-${i}` } });
  await until(
    async () =>
      (await call(base, creds, 'GET', `/api/v1/namespaces/${NS}/configmaps/visible-${i}?resourceVersion=0`)).status ===
      200,
  );
  return performance.now() - t0;
}

/**
 * A custom resource (five validation rules, list-map and set markers, a default) against a
 * ConfigMap of the same JSON size, one server, rounds alternating: creates/s (wrk POST, 64
 * connections) and cached GETs/s (wrk GET `?resourceVersion=0`); then the time from a CRD's
 * create to Established and to being served, against a ConfigMap's create-to-visible time.
 */
export async function runCrdBench(options: BenchOptions): Promise<void> {
  const wrkSeconds = options.quick ? Math.min(2, WRK_SECONDS) : WRK_SECONDS;
  const rounds = options.quick ? Math.min(2, ROUNDS) : ROUNDS;
  const dir = mkdtempSync(join(tmpdir(), 'orch-crd-bench-'));
  try {
    const tokenFile = join(dir, 'tokens.csv');
    writeFileSync(tokenFile, `${TOKEN},bench-user,bench-uid,"system:masters"\n`);
    const server = await startBenchServer(join(dir, 'data'), [`--token-auth-file=${tokenFile}`]);
    try {
      const { url, admin } = server;
      await post(url, admin, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
      await establish(url, admin, 0);
      await post(
        url,
        admin,
        '/apis/apiextensions.orch.io/v1/customresourcedefinitions',
        crd('bench.example.com', 'benchwidgets', 'BenchWidget'),
      );
      await until(async () => (await call(url, admin, 'GET', '/apis/bench.example.com/v1')).status === 200);
      const widget = widgetBody();
      const cm = configMapBody(widget);
      const crBase = `${url}/apis/bench.example.com/v1/namespaces/${NS}/benchwidgets`;
      const cmBase = `${url}/api/v1/namespaces/${NS}/configmaps`;
      const crName = JSON.parse(
        await post(url, admin, `/apis/bench.example.com/v1/namespaces/${NS}/benchwidgets`, widget),
      ).metadata.name;
      const cmName = JSON.parse(await post(url, admin, `/api/v1/namespaces/${NS}/configmaps`, cm)).metadata.name;
      const creates: Record<string, number[]> = { cr: [], cm: [] };
      const gets: Record<string, number[]> = { cr: [], cm: [] };
      await wrkRps(`${crBase}/${crName}?resourceVersion=0`, 1, TOKEN);
      await wrkRps(`${cmBase}/${cmName}?resourceVersion=0`, 1, TOKEN);
      for (let round = 0; round < rounds; round++) {
        // h2load, not wrk, for creates: see h2load-creates.ts.
        const load = (tag: string) => ({ seconds: wrkSeconds, warmUpSeconds: 1, token: TOKEN, dir, tag });
        creates.cm.push(await h2loadCreates(cmBase, cm, load('cm')));
        creates.cr.push(await h2loadCreates(crBase, widget, load('cr')));
        gets.cm.push(await wrkRps(`${cmBase}/${cmName}?resourceVersion=0`, wrkSeconds, TOKEN));
        gets.cr.push(await wrkRps(`${crBase}/${crName}?resourceVersion=0`, wrkSeconds, TOKEN));
      }
      const established: number[] = [];
      const served: number[] = [];
      const visible: number[] = [];
      for (let i = 1; i <= ESTABLISH_ROUNDS; i++) {
        const t = await establish(url, admin, i);
        established.push(t.established);
        served.push(t.served);
        visible.push(await configMapVisible(url, admin, i));
      }
      const ratios = (r: Record<string, number[]>) => r.cr.map((x, i) => x / r.cm[i]);
      const row = (metric: string, r: Record<string, number[]>): Row => {
        const rs = ratios(r);
        return {
          metric,
          ours: median(r.cr),
          baseline: median(r.cm),
          unit: 'req/s',
          ratio: median(rs),
          spread: [Math.min(...rs), Math.max(...rs)],
        };
      };
      const slower = (xs: number[]) => xs.map((x, i) => visible[i] / x);
      const rows: Row[] = [
        row(
          `creates: custom resource (5 rules, ${JSON.stringify(widget).length} B) vs ConfigMap of the same size, h2load 64 conns`,
          creates,
        ),
        row('cached GETs: the same custom resource vs the same ConfigMap, wrk 64 conns', gets),
        {
          metric: 'CRD create to Established (baseline: ConfigMap create to visible in the watch cache)',
          ours: median(established),
          baseline: median(visible),
          unit: 'ms',
          lowerIsBetter: true,
          ratio: median(slower(established)),
          spread: [Math.min(...slower(established)), Math.max(...slower(established))],
        },
        {
          metric: 'CRD create to served in discovery (same baseline)',
          ours: median(served),
          baseline: median(visible),
          unit: 'ms',
          lowerIsBetter: true,
          ratio: median(slower(served)),
          spread: [Math.min(...slower(served)), Math.max(...slower(served))],
        },
      ];
      printTable('custom resources: a CRD-defined kind against ConfigMap', rows);
      printFigures({
        'cr.creates': Math.round(median(creates.cr)),
        'cm.creates': Math.round(median(creates.cm)),
        'creates.ratio': Math.round(median(ratios(creates)) * 1000) / 1000,
        'cr.gets': Math.round(median(gets.cr)),
        'cm.gets': Math.round(median(gets.cm)),
        'gets.ratio': Math.round(median(ratios(gets)) * 1000) / 1000,
        'established.ms': Math.round(median(established)),
        'served.ms': Math.round(median(served)),
        'max.served.ms': Math.round(Math.max(...served)),
      });
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
