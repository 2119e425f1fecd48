import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src/index.js';
import { printFigures } from '../figures.js';
import { printTable, type Row, ratio, timeOps } from '../storage/measure.js';

const OPS = Number(process.env.BENCH_APPLY_OPS ?? 1500);
const WARMUP = Number(process.env.BENCH_APPLY_WARMUP ?? 200);
const ROUNDS = Number(process.env.BENCH_APPLY_ROUNDS ?? 2);
const ENTRIES = 50;
const NS = 'default';
const BASE = `/api/v1/namespaces/${NS}/serviceaccounts`;
const APPLY = 'application/apply-patch+yaml';
const JSON_TYPE = 'application/json';

type Obj = Record<string, unknown>;

interface Client {
  send(method: string, path: string, body: Obj, contentType: string): Promise<{ status: number; body: string }>;
}

/** Sequential HTTPS/1.1 requests over one kept-alive connection. */
function client(url: string, creds: { ca: string; cert: string; key: string }): Client & { close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ...creds });
  return {
    send(method, path, body, contentType) {
      const payload = JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const req = request(
          new URL(path, url),
          {
            method,
            agent,
            headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}

/** A ServiceAccount with 50 owner references (a list-map keyed by uid) and one changing label. */
function sa(name: string, i: number): Obj {
  const ownerReferences = Array.from({ length: ENTRIES }, (_, k) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: `owner-${k}`,
    uid: `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`,
  }));
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name, namespace: NS, labels: { round: `r${i + 1}` }, ownerReferences },
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

type Op = (i: number) => Promise<unknown>;

/** Warms each operation up, then times `ROUNDS` interleaved rounds of each; best req/s. */
async function measure(ops: {
  apply: Op;
  update: Op;
  put: Op;
}): Promise<{ apply: number; update: number; put: number }> {
  for (const op of [ops.apply, ops.update, ops.put]) for (let i = 0; i < WARMUP; i++) await op(i);
  const best = { apply: 0, update: 0, put: 0 };
  let n = WARMUP;
  for (let round = 0; round < ROUNDS; round++) {
    for (const key of ['put', 'apply', 'update'] as const) {
      const start = n;
      best[key] = Math.max(best[key], await timeOps(OPS, (i) => ops[key](start + i)));
    }
    n += OPS;
  }
  return best;
}

async function expect(c: Client, method: string, path: string, body: Obj, type: string, ok: number[]) {
  const r = await c.send(method, path, body, type);
  if (!ok.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${r.body.slice(0, 300)}`);
  return r;
}

/**
 * Sequential throughput over HTTPS (one kept-alive connection) of server-side apply and of a
 * tracked update (PUT whose managedFields record 50 list-map entries), each on a ServiceAccount
 * with 50 owner references and a label that changes on every write, beside a PUT of the same
 * object whose managedFields were cleared (`[{}]`), which the field manager then leaves
 * untracked: the write path without ownership. Measured with real writes, then as dry runs
 * (every stage but the store commit, which isolates the CPU cost). Prints the table and one JSON
 * line of figures.
 */
export async function runApplyBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-apply-bench-'));
  const server = await startServer({ dataDir, securePort: 0, runControllers: false, etcdCompactionIntervalMs: 0 });
  const c = client(server.url, server.admin!);
  const figures: Record<string, number> = {};
  try {
    // `query` is '' for real writes or `&dryRun=All`: every stage but the store commit.
    const ops = (query: string) => ({
      apply: (i: number) =>
        expect(c, 'PATCH', `${BASE}/sa-apply?fieldManager=bench${query}`, sa('sa-apply', i), APPLY, [200, 201]),
      update: (i: number) =>
        expect(c, 'PUT', `${BASE}/sa-update?fieldManager=bench${query}`, sa('sa-update', i), JSON_TYPE, [200]),
      put: (i: number) =>
        expect(c, 'PUT', `${BASE}/sa-put?fieldManager=bench${query}`, sa('sa-put', i), JSON_TYPE, [200]),
    });
    const real = ops('');

    await real.apply(-1);
    await expect(c, 'POST', `${BASE}?fieldManager=bench`, sa('sa-update', -1), JSON_TYPE, [201]);
    await expect(c, 'POST', `${BASE}?fieldManager=bench`, sa('sa-put', -1), JSON_TYPE, [201]);
    const reset = await expect(
      c,
      'PATCH',
      `${BASE}/sa-put`,
      { metadata: { managedFields: [{}] } },
      'application/merge-patch+json',
      [200],
    );
    if (JSON.parse(reset.body).metadata.managedFields !== undefined) throw new Error('managedFields not cleared');

    const stored = await measure(real);
    const dry = await measure(ops('&dryRun=All'));
    // The tracked objects really carry the 50 entries; the baseline carries none.
    const tracked = JSON.parse((await real.apply(1_000_000)).body);
    const fieldsV1 = JSON.stringify(tracked.metadata.managedFields?.[0]?.fieldsV1 ?? {});
    if ((fieldsV1.match(/k:\{/g) ?? []).length !== ENTRIES) throw new Error(`apply tracked ${fieldsV1}`);
    const untracked = JSON.parse((await real.put(1_000_001)).body);
    if (untracked.metadata.managedFields !== undefined) throw new Error('baseline PUT became tracked');

    const rows: Row[] = [
      { metric: `apply, SA with ${ENTRIES} ownerReferences`, ours: stored.apply, baseline: stored.put, unit: 'req/s' },
      { metric: 'tracked PUT of the same object', ours: stored.update, baseline: stored.put, unit: 'req/s' },
      { metric: 'apply, dry run (no store commit)', ours: dry.apply, baseline: dry.put, unit: 'req/s' },
      { metric: 'tracked PUT, dry run (no store commit)', ours: dry.update, baseline: dry.put, unit: 'req/s' },
    ];
    figures['apply.rps'] = Math.round(stored.apply);
    figures['update.rps'] = Math.round(stored.update);
    figures['put.rps'] = Math.round(stored.put);
    figures['apply.ratio'] = round3(ratio(rows[0]));
    figures['update.ratio'] = round3(ratio(rows[1]));
    figures['dry.apply.rps'] = Math.round(dry.apply);
    figures['dry.update.rps'] = Math.round(dry.update);
    figures['dry.put.rps'] = Math.round(dry.put);
    figures['dry.apply.ratio'] = round3(ratio(rows[2]));
    figures['dry.update.ratio'] = round3(ratio(rows[3]));
    printTable(
      `Server-side apply and field tracking vs an untracked PUT (sequential, HTTPS keep-alive, ${OPS} ops, best of ${ROUNDS})`,
      rows,
    );
  } finally {
    c.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  printFigures(figures);
}
