import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, printTable, type Row, ratio } from '../storage/measure.js';
import { type Creds, haveWrk, openWatchers, timedGet, wrkRps } from './load.js';
import { seedConfigMaps } from './seed.js';
import { startBenchServer } from './server-proc.js';

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 100_000);
const WATCHERS = Number(process.env.BENCH_WATCHERS ?? 1000);
const WATCH_WRITES = Number(process.env.BENCH_WATCH_WRITES ?? 100);
const WRK_SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 5);
const WRK_TOKEN = 'api-bench-wrk-token-5d1c8e2f9a7b';
/** HTTP/2 connections the watchers share (kube clients multiplex their watches over one). */
const WATCH_SESSIONS = Number(process.env.BENCH_WATCH_SESSIONS ?? 1);

/** A bare node:https server answering every request with the same bytes: the GET baseline. */
async function bareServer(cert: string, key: string, body: Buffer) {
  const server = createHttpsServer({ cert, key }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `https://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

/**
 * Opens {@link WATCHERS} watches on `watchPath`, then creates {@link WATCH_WRITES} objects one
 * at a time by POST to `postPath`, each after the previous one reached every watcher. Returns,
 * for every event at every watcher, the milliseconds from the start of its POST to its arrival.
 */
async function fanOutLatencies(base: string, postPath: string, watchPath: string, creds: Creds): Promise<number[]> {
  const watchers = await openWatchers(base, watchPath, WATCHERS, creds, WATCH_SESSIONS);
  // One kept-alive connection for the writes, so no write pays a TLS handshake.
  const agent = new HttpsAgent({ keepAlive: true, maxSockets: 1 });
  const create = (name: string) =>
    new Promise<void>((resolve, reject) => {
      const req = httpsRequest(
        new URL(postPath, base),
        { method: 'POST', agent, ...creds, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`create ${res.statusCode}`))));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } }));
    });
  const delivered = async (name: string) => {
    const deadline = performance.now() + 5000;
    while ((watchers.arrivals.get(name)?.length ?? 0) < WATCHERS && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 1));
  };
  const lat: number[] = [];
  try {
    // Warm-up writes (not measured): the connection, and the first runs of every code path.
    for (let i = 0; i < 3; i++) {
      await create(`warm-${i}`);
      await delivered(`warm-${i}`);
    }
    for (let i = 0; i < WATCH_WRITES; i++) {
      const name = `w-${i}`;
      const t0 = performance.now();
      await create(name);
      await delivered(name);
      for (const t of watchers.arrivals.get(name) ?? []) lat.push(t - t0);
    }
  } finally {
    watchers.close();
    agent.destroy();
  }
  return lat;
}

/** Starts the bare fan-out server (bare-fanout-server.ts) as its own process. */
async function startBareFanOut(certPath: string, keyPath: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'bare-fanout-server.ts'), certPath, keyPath],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  process.once('exit', () => child.kill('SIGKILL'));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bare fan-out server exited ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

export async function runApiBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-api-bench-'));
  const rows: Row[] = [];
  const figures: Record<string, number> = {};
  try {
    // Empty server: baseline RSS.
    const emptyDir = join(dir, 'empty');
    const empty = await startBenchServer(emptyDir);
    const emptyStartMs = empty.startMs;
    const emptyRss = empty.rssBytes();
    const emptyAnonRss = empty.anonRssBytes();
    await empty.stop();

    const dataDir = join(dir, 'loaded');
    await startBenchServer(dataDir).then((s) => s.stop()); // certificates and system namespaces
    const jsonBytes = await seedConfigMaps(dataDir, 'bench', OBJECTS);
    // wrk authenticates with a static token (it cannot present a client certificate), as a member
    // of system:masters, which the default RBAC mode lets through before any role is consulted.
    const tokenFile = join(dir, 'tokens.csv');
    writeFileSync(tokenFile, `${WRK_TOKEN},wrk,wrk-uid,"system:masters"\n`);
    const server = await startBenchServer(dataDir, [`--token-auth-file=${tokenFile}`]);
    try {
      rows.push({
        metric: `start-to-ready with ${OBJECTS} objects`,
        ours: server.startMs,
        baseline: emptyStartMs,
        unit: 'ms',
        lowerIsBetter: true,
      });
      figures['start.ms'] = Math.round(server.startMs);

      // Full list and 500-item pages.
      const path = '/api/v1/namespaces/bench/configmaps';
      await timedGet(server.url, `${path}?limit=1`, server.admin); // warm the cache
      const full = await timedGet(server.url, path, server.admin);
      if (full.status !== 200) throw new Error(`list failed: ${full.status} ${full.body.toString().slice(0, 200)}`);
      const items = JSON.parse(full.body.toString()).items.length;
      if (items !== OBJECTS) throw new Error(`list returned ${items} items`);
      figures['list.full.ms'] = Math.round(full.ms);
      const pageTimes: number[] = [];
      let cont = '';
      for (let i = 0; i < 20; i++) {
        const r = await timedGet(
          server.url,
          `${path}?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
          server.admin,
        );
        pageTimes.push(r.ms);
        cont = JSON.parse(r.body.toString()).metadata.continue ?? '';
      }
      figures['list.page.ms'] = Math.round(percentile(pageTimes, 50) * 100) / 100;
      rows.push({
        metric: `full list of ${OBJECTS} objects`,
        ours: full.ms,
        baseline: 2000,
        unit: 'ms (baseline: target)',
        lowerIsBetter: true,
      });
      rows.push({
        metric: 'page of 500 (median of 20)',
        ours: figures['list.page.ms'],
        baseline: 50,
        unit: 'ms (baseline: target)',
        lowerIsBetter: true,
      });

      // RSS per stored JSON byte.
      const rss = server.rssBytes();
      figures['rss.per.json.byte'] = Math.round(((rss - emptyRss) / jsonBytes) * 100) / 100;
      rows.push({
        metric: 'RSS growth per JSON byte stored',
        ours: figures['rss.per.json.byte'],
        baseline: 2.5,
        unit: 'x (baseline: target)',
        lowerIsBetter: true,
      });
      // The same without the pages of the store's file the kernel keeps mapped (page cache it
      // can drop at any time): what the heap and buffers cost.
      figures['rss.anon.per.json.byte'] = Math.round(((server.anonRssBytes() - emptyAnonRss) / jsonBytes) * 100) / 100;
      rows.push({
        metric: 'anonymous RSS (heap, buffers) growth per JSON byte',
        ours: figures['rss.anon.per.json.byte'],
        baseline: 2.5,
        unit: 'x (baseline: target)',
        lowerIsBetter: true,
      });

      // GET of one object vs a bare TLS server returning the same bytes.
      if (await haveWrk()) {
        const one = await timedGet(server.url, `${path}/cm-000042?resourceVersion=0`, server.admin);
        const pki = join(dataDir, 'pki');
        const bare = await bareServer(
          readFileSync(join(pki, 'apiserver.crt'), 'utf8'),
          readFileSync(join(pki, 'apiserver.key'), 'utf8'),
          one.body,
        );
        try {
          const bareRps = await wrkRps(`${bare.url}/`, WRK_SECONDS);
          const ourRps = await wrkRps(`${server.url}${path}/cm-000042?resourceVersion=0`, WRK_SECONDS, WRK_TOKEN);
          const row = {
            metric: 'GET one object from the cache (wrk, HTTP/1.1, 64 conns)',
            ours: ourRps,
            baseline: bareRps,
            unit: 'req/s',
          };
          rows.push(row);
          figures['get.rps'] = Math.round(ourRps);
          figures['get.ratio'] = Math.round(ratio(row) * 1000) / 1000;
        } finally {
          await bare.close();
        }
      }

      // 1000 watchers: write-to-event latency, and the same fan-out from a bare HTTP/2 server.
      const rv = JSON.parse(full.body.toString()).metadata.resourceVersion;
      const lat = await fanOutLatencies(server.url, path, `${path}?watch=1&resourceVersion=${rv}`, server.admin);
      const pki = join(dataDir, 'pki');
      const bare = await startBareFanOut(join(pki, 'apiserver.crt'), join(pki, 'apiserver.key'));
      let bareLat: number[];
      try {
        bareLat = await fanOutLatencies(bare.url, '/objects', '/watch', server.admin);
      } finally {
        bare.stop();
      }
      figures['watch.p50.ms'] = Math.round(percentile(lat, 50) * 100) / 100;
      figures['watch.p99.ms'] = Math.round(percentile(lat, 99) * 100) / 100;
      figures['watch.delivered'] = lat.length / (WATCHERS * WATCH_WRITES);
      figures['watch.bare.p50.ms'] = Math.round(percentile(bareLat, 50) * 100) / 100;
      figures['watch.bare.p99.ms'] = Math.round(percentile(bareLat, 99) * 100) / 100;
      rows.push({
        metric: `write-to-event p50, ${WATCHERS} watchers (baseline: bare HTTP/2 fan-out)`,
        ours: figures['watch.p50.ms'],
        baseline: figures['watch.bare.p50.ms'],
        unit: 'ms',
        lowerIsBetter: true,
      });
      rows.push({
        metric: `write-to-event p99, ${WATCHERS} watchers (baseline: bare HTTP/2 fan-out)`,
        ours: figures['watch.p99.ms'],
        baseline: figures['watch.bare.p99.ms'],
        unit: 'ms',
        lowerIsBetter: true,
      });
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  printTable('API server (embedded store)', rows);
  console.log(JSON.stringify(figures));
}
