import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { open as openLmdb } from 'lmdb';
import { openEtcdStore } from '../../src/storage/etcd/etcd-store.js';
import { openLmdbStore } from '../../src/storage/lmdb/lmdb-store.js';
import type { Store } from '../../src/storage/store.js';
import { startEtcdServer } from '../../src/storage/testing/etcd-server.js';
import { printFigures } from '../figures.js';
import { TOOLS, toolPath } from '../tools.js';
import {
  median,
  percentile,
  printTable,
  type Row,
  ratio,
  timeConcurrent,
  timeOnce,
  timeOps,
  value,
} from './measure.js';

const VALUE_BYTES = 1024;
const SEQ_WRITES = Number(process.env.BENCH_SEQ_WRITES ?? 500);
const PAR_WRITES = Number(process.env.BENCH_PAR_WRITES ?? 20000);
/**
 * Write figures are measured in this many rounds, ours and the baseline alternating, and
 * reported as medians: on a shared machine one round of either can be off by a third.
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 7));
const WARM_UP_WRITES = 2000;
const TXN_ROW = 'writes 64 in flight vs etcd3 create txn';
const READS = Number(process.env.BENCH_READS ?? 50000);
const RANGE_KEYS = 10000;
const WATCH_EVENTS = Number(process.env.BENCH_WATCH_EVENTS ?? 1000);

interface Subject {
  /** Write number `i` of round `round` (a fresh key for every call). */
  seq(i: number, round: number): Promise<unknown>;
  par(i: number, round: number): Promise<unknown>;
  read(i: number): Promise<unknown>;
  fill(n: number): Promise<void>;
  range(): Promise<number>;
  /** Absent when the subject has no watch (raw lmdb): the watch rows then have no baseline. */
  watchLatency?(n: number): Promise<number[]>;
}

function ourSubject(store: Store, prefix: string): Subject {
  const v = value(VALUE_BYTES, 1);
  return {
    seq: (i, round) => store.create(`${prefix}seq/${round}/${i}`, v),
    par: (i, round) => store.create(`${prefix}par/${round}/${i}`, v),
    read: (i) => store.get(`${prefix}par/0/${i % 1000}`),
    async fill(n) {
      await Promise.all(
        Array.from({ length: 64 }, async (_, w) => {
          for (let i = w; i < n; i += 64) await store.create(`${prefix}range/${String(i).padStart(6, '0')}`, v);
        }),
      );
    },
    async range() {
      const r = await store.range(`${prefix}range/`);
      return r.kvs.length;
    },
    async watchLatency(n) {
      const ac = new AbortController();
      const from = await store.currentRevision();
      const it = store.watch(`${prefix}watch/`, { afterRevision: from, signal: ac.signal })[Symbol.asyncIterator]();
      const lat: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const done = it.next();
        await store.create(`${prefix}watch/${i}`, v);
        let ev = await done;
        while (!ev.done && ev.value.type === 'progress') ev = await it.next();
        lat.push(performance.now() - t0);
      }
      ac.abort();
      await it.return?.();
      return lat;
    },
  };
}

function rawLmdbSubject(path: string): Subject & { close(): Promise<void> } {
  const db = openLmdb({ path, encoding: 'binary' });
  const v = Buffer.from(value(VALUE_BYTES, 1));
  return {
    seq: (i, round) => db.put(`seq/${round}/${i}`, v),
    par: (i, round) => db.put(`par/${round}/${i}`, v),
    read: async (i) => db.get(`par/0/${i % 1000}`),
    async fill(n) {
      await Promise.all(
        Array.from({ length: 64 }, async (_, w) => {
          for (let i = w; i < n; i += 64) await db.put(`range/${String(i).padStart(6, '0')}`, v);
        }),
      );
    },
    async range() {
      let n = 0;
      for (const _ of db.getRange({ start: 'range/', end: 'range0' })) n++;
      return n;
    },
    close: () => db.close(),
  };
}

function rawEtcdSubject(client: Etcd3, prefix: string): Subject {
  const v = Buffer.from(value(VALUE_BYTES, 1));
  return {
    seq: async (i, round) => await client.put(`${prefix}seq/${round}/${i}`).value(v),
    par: async (i, round) => await client.put(`${prefix}par/${round}/${i}`).value(v),
    read: (i) => client.get(`${prefix}par/0/${i % 1000}`).buffer(),
    async fill(n) {
      await Promise.all(
        Array.from({ length: 64 }, async (_, w) => {
          for (let i = w; i < n; i += 64) await client.put(`${prefix}range/${String(i).padStart(6, '0')}`).value(v);
        }),
      );
    },
    async range() {
      const all = await client.getAll().prefix(`${prefix}range/`).buffers();
      return Object.keys(all).length;
    },
    async watchLatency(n) {
      const watcher = await client.watch().prefix(`${prefix}watch/`).create();
      const lat: number[] = [];
      try {
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          const got = new Promise<void>((resolve) => watcher.once('put', () => resolve()));
          await client.put(`${prefix}watch/${i}`).value(v);
          await got;
          lat.push(performance.now() - t0);
        }
      } finally {
        await watcher.cancel();
      }
      return lat;
    },
  };
}

/**
 * {@link ROUNDS} rounds of one write figure, the baseline first in each. The row carries the
 * medians, the median of the per-round ratios, and their lowest and highest.
 */
async function rounds(
  metric: string,
  unit: string,
  runBaseline: (round: number) => Promise<number>,
  runOurs: (round: number) => Promise<number>,
): Promise<Row> {
  const ours: number[] = [];
  const baseline: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first, so neither always runs on a warmer (or busier) machine.
    let b: number;
    let o: number;
    if (r % 2 === 0) {
      b = await runBaseline(r);
      o = await runOurs(r);
    } else {
      o = await runOurs(r);
      b = await runBaseline(r);
    }
    baseline.push(b);
    ours.push(o);
    ratios.push(o / b);
  }
  return {
    metric,
    ours: median(ours),
    baseline: median(baseline),
    unit,
    ratio: median(ratios),
    spread: [Math.min(...ratios), Math.max(...ratios)],
  };
}

async function measure(ours: Subject, raw: Subject, opts: { seq: number; par: number }): Promise<Row[]> {
  const rows: Row[] = [];
  // Warm up both (JIT, connections, first pages) so the first round is not the baseline's alone.
  await timeConcurrent(WARM_UP_WRITES, 64, (i) => raw.par(i, -1));
  await timeConcurrent(WARM_UP_WRITES, 64, (i) => ours.par(i, -1));
  // Interleave ours and the baseline for each figure, so drift on a shared machine hits both.
  rows.push(
    await rounds(
      'writes sequential',
      'writes/s',
      (round) => timeOps(opts.seq, (i) => raw.seq(i, round)),
      (round) => timeOps(opts.seq, (i) => ours.seq(i, round)),
    ),
  );
  rows.push(
    await rounds(
      'writes 64 in flight',
      'writes/s',
      (round) => timeConcurrent(opts.par, 64, (i) => raw.par(i, round)),
      (round) => timeConcurrent(opts.par, 64, (i) => ours.par(i, round)),
    ),
  );
  const rawRead = await timeConcurrent(READS, 16, raw.read);
  const ourRead = await timeConcurrent(READS, 16, ours.read);
  rows.push({ metric: 'point reads', ours: ourRead, baseline: rawRead, unit: 'reads/s' });
  await raw.fill(RANGE_KEYS);
  await ours.fill(RANGE_KEYS);
  let rawCount = 0;
  let ourCount = 0;
  const rawRanges: number[] = [];
  const ourRanges: number[] = [];
  for (let r = 0; r < 3; r++) {
    rawRanges.push(await timeOnce(async () => (rawCount = await raw.range())));
    ourRanges.push(await timeOnce(async () => (ourCount = await ours.range())));
  }
  if (rawCount !== RANGE_KEYS || ourCount !== RANGE_KEYS)
    throw new Error(`range returned ${ourCount}/${rawCount} keys`);
  rows.push({
    metric: 'range of 10,000 keys (median of 3)',
    ours: median(ourRanges),
    baseline: median(rawRanges),
    unit: 'ms',
    lowerIsBetter: true,
  });
  if (!ours.watchLatency) throw new Error('the store under test has no watch');
  const ourLat = await ours.watchLatency(WATCH_EVENTS);
  const rawLat = raw.watchLatency ? await raw.watchLatency(WATCH_EVENTS) : undefined;
  for (const p of [50, 99]) {
    rows.push({
      metric: `watch latency p${p}`,
      ours: percentile(ourLat, p),
      ...(rawLat ? { baseline: percentile(rawLat, p) } : { noBaseline: 'the raw library has no watch' }),
      unit: 'ms',
      lowerIsBetter: true,
    });
  }
  return rows;
}

function figures(rows: readonly Row[]): Record<string, number> {
  const get = (m: string) => rows.find((r) => r.metric === m)!;
  const seq = get('writes sequential');
  const par = get('writes 64 in flight');
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    'writes.sequential': round(seq.ours),
    'writes.sequential.ratio': round(ratio(seq)),
    'writes.parallel': round(par.ours),
    'writes.parallel.ratio': round(ratio(par)),
    // The headline figure: 64 writers in flight, the load an API server puts on its store.
    'writes.ratio': round(ratio(par)),
    'writes.ratio.min': round(par.spread?.[0] ?? ratio(par)),
    'writes.ratio.max': round(par.spread?.[1] ?? ratio(par)),
    reads: round(get('point reads').ours),
    'reads.ratio': round(ratio(get('point reads'))),
    'range.ms': round(get('range of 10,000 keys (median of 3)').ours),
    'watch.p50.ms': round(get('watch latency p50').ours),
    'watch.p99.ms': round(get('watch latency p99').ours),
    ...(rows.some((r) => r.metric === TXN_ROW) ? { 'writes.txn.ratio': round(ratio(get(TXN_ROW))) } : {}),
  };
}

async function benchEmbedded(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-bench-'));
  try {
    const store = await openLmdbStore({ path: join(dir, 'ours') });
    const raw = rawLmdbSubject(join(dir, 'raw'));
    try {
      return await measure(ourSubject(store, '/registry/bench/'), raw, { seq: SEQ_WRITES, par: PAR_WRITES });
    } finally {
      await store.close();
      await raw.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchEtcd(): Promise<Row[]> {
  const server = await startEtcdServer({ binary: toolPath(TOOLS.etcd) });
  try {
    const store = await openEtcdStore({ endpoints: [server.endpoint], prefix: '/registry' });
    const client = new Etcd3({
      hosts: [server.endpoint],
      grpcOptions: { 'grpc.max_receive_message_length': 64 * 1024 * 1024 },
    });
    try {
      const par = Math.min(PAR_WRITES, 8000);
      const ours = ourSubject(store, '/registry/bench/');
      const rows = await measure(ours, rawEtcdSubject(client, '/raw/'), { seq: SEQ_WRITES, par });
      // A second reference: etcd3's own create-if-absent transaction. Every create of the store
      // is such a transaction, which etcd 3.4 applies at about twice the server cost of a put.
      const v = Buffer.from(value(VALUE_BYTES, 1));
      const txnCreate = (key: string) => client.if(key, 'Create', '==', 0).then(client.put(key).value(v)).commit();
      rows.push(
        await rounds(
          TXN_ROW,
          'writes/s',
          (round) => timeConcurrent(par, 64, (i) => txnCreate(`/rawtxn/par/${round}/${i}`)),
          (round) => timeConcurrent(par, 64, (i) => ours.par(i, round + ROUNDS)),
        ),
      );
      return rows;
    } finally {
      client.close();
      await store.close();
    }
  } finally {
    await server.dispose();
  }
}

export async function runStorageBench(): Promise<void> {
  const embedded = await benchEmbedded();
  printTable('embedded (LMDB) store vs raw lmdb puts/gets (same durability: synced commits)', embedded);
  const etcd = await benchEtcd();
  printTable('etcd store vs plain etcd3 client (same etcd server)', etcd);
  const out = {
    embedded: figures(embedded),
    etcd: figures(etcd),
  };
  const flat: Record<string, number> = {};
  for (const [backend, f] of Object.entries(out)) for (const [k, v] of Object.entries(f)) flat[`${backend}.${k}`] = v;
  printFigures(flat);
}
