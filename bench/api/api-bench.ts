import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchOptions } from '../cli.js';
import { printFigures } from '../figures.js';
import { percentile, printTable, type Row, ratio } from '../storage/measure.js';
import { type Creds, openWatchers, timedGet, wrkRps } from './load.js';
import { seedConfigMaps } from './seed.js';
import { type BenchServer, startBenchServer } from './server-proc.js';

const WRK_TOKEN = 'api-bench-wrk-token-5d1c8e2f9a7b';

/** How big one run is: full by default, smaller with `--quick`; each can be set by environment. */
interface ApiBenchSize {
  /** ConfigMaps of the main measurement. */
  readonly objects: number;
  /** ConfigMaps of the first server, measured before, for the scaling ratios. */
  readonly smallObjects: number;
  readonly watchers: number;
  readonly watchWrites: number;
  readonly wrkSeconds: number;
  /** HTTP/2 connections the watchers share (kube clients multiplex their watches over one). */
  readonly watchSessions: number;
}

function benchSize(options: BenchOptions, env: NodeJS.ProcessEnv): ApiBenchSize {
  const num = (name: string, full: number, quick: number) => Number(env[name] ?? (options.quick ? quick : full));
  const objects = num('BENCH_OBJECTS', 100_000, 10_000);
  return {
    objects,
    smallObjects: num('BENCH_SMALL_OBJECTS', Math.round(objects / 10), Math.round(objects / 10)),
    watchers: num('BENCH_WATCHERS', 1000, 100),
    watchWrites: num('BENCH_WATCH_WRITES', 100, 100),
    wrkSeconds: num('BENCH_WRK_SECONDS', 5, 3),
    watchSessions: num('BENCH_WATCH_SESSIONS', 1, 1),
  };
}

/** `10000` → `10k`: the object count in a figure's name. */
function sizeLabel(n: number): string {
  return n % 1000 === 0 ? `${n / 1000}k` : String(n);
}

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
 * Opens `size.watchers` watches on `watchPath`, then creates `size.watchWrites` objects one
 * at a time by POST to `postPath`, each after the previous one reached every watcher. Returns,
 * for every event at every watcher, the milliseconds from the start of its POST to its arrival.
 */
async function fanOutLatencies(
  base: string,
  postPath: string,
  watchPath: string,
  creds: Creds,
  size: ApiBenchSize,
): Promise<number[]> {
  const watchers = await openWatchers(base, watchPath, size.watchers, creds, size.watchSessions);
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
    while ((watchers.arrivals.get(name)?.length ?? 0) < size.watchers && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 1));
  };
  const lat: number[] = [];
  try {
    // Warm-up writes (not measured): the connection, and the first runs of every code path.
    for (let i = 0; i < 3; i++) {
      await create(`warm-${i}`);
      await delivered(`warm-${i}`);
    }
    for (let i = 0; i < size.watchWrites; i++) {
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

/** The empty server's figures: the baseline every RSS growth is measured from. */
interface EmptyServer {
  readonly startMs: number;
  readonly rss: number;
  readonly anonRss: number;
}

/** A data dir with `count` ConfigMaps in namespace `bench`, and the server started on it. */
async function seededServer(
  dataDir: string,
  count: number,
  args: string[],
): Promise<{ server: BenchServer; jsonBytes: number }> {
  await startBenchServer(dataDir).then((s) => s.stop()); // certificates and system namespaces
  const jsonBytes = await seedConfigMaps(dataDir, 'bench', count);
  return { server: await startBenchServer(dataDir, args), jsonBytes };
}

/** Lists, pages and memory of a server holding `objects` ConfigMaps in namespace `bench`. */
interface SizeFigures {
  readonly startMs: number;
  readonly fullMs: number;
  /** The full list's body (its resourceVersion starts the watches). */
  readonly fullBody: Buffer;
  readonly pageMs: number;
  /** RSS and anonymous RSS minus the empty server's. */
  readonly rssGrowth: number;
  readonly anonRssGrowth: number;
  readonly jsonBytes: number;
}

const LIST_PATH = '/api/v1/namespaces/bench/configmaps';
/** How long the server idles before its memory is read again, at rest. */
const REST_MS = 30_000;
/** Alternating rounds of wrk against the bare server and ours, for the GET figures. */
const GET_ROUNDS = 3;

/**
 * Waits until the server has finished its post-start work (the in-process controllers' first
 * lists of every object): its CPU time grows by less than 30 ms in half a second, or 20 s passed.
 * Lists are measured on a server at rest, not against its own start-up.
 */
async function settled(server: BenchServer): Promise<void> {
  const deadline = performance.now() + 20_000;
  let before = server.cpuMs();
  while (performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = server.cpuMs();
    if (now - before < 30) return;
    before = now;
  }
}

/**
 * Once the server settled: one full list (after a warming `limit=1`), then 20 pages of 500 on one
 * kept-alive connection, as a client pages: the median page.
 */
async function measureSize(
  server: BenchServer,
  objects: number,
  jsonBytes: number,
  empty: EmptyServer,
): Promise<SizeFigures> {
  const path = LIST_PATH;
  await settled(server);
  const agent = new HttpsAgent({ keepAlive: true, maxSockets: 1 });
  await timedGet(server.url, `${path}?limit=1`, server.admin, agent); // warm the cache and the connection
  const full = await timedGet(server.url, path, server.admin, agent);
  if (full.status !== 200) throw new Error(`list failed: ${full.status} ${full.body.toString().slice(0, 200)}`);
  const items = JSON.parse(full.body.toString()).items.length;
  if (items !== objects) throw new Error(`list returned ${items} items, not ${objects}`);
  const pageTimes: number[] = [];
  let cont = '';
  for (let i = 0; i < 20; i++) {
    const r = await timedGet(
      server.url,
      `${path}?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
      server.admin,
      agent,
    );
    pageTimes.push(r.ms);
    cont = JSON.parse(r.body.toString()).metadata.continue ?? '';
  }
  agent.destroy();
  return {
    startMs: server.startMs,
    fullMs: full.ms,
    fullBody: full.body,
    pageMs: percentile(pageTimes, 50),
    rssGrowth: server.rssBytes() - empty.rss,
    // The same without the pages of the store's file the kernel keeps mapped (page cache it
    // can drop at any time): what the heap and buffers cost.
    anonRssGrowth: server.anonRssBytes() - empty.anonRss,
    jsonBytes,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The API server (the built `dist/`, as its own process, embedded store) against bare Node
 * servers and the targets: start-to-ready, full list and pages, memory per stored JSON byte, all
 * at two sizes (100,000 and 10,000 ConfigMaps; `--quick`: 10,000 and 1,000) with the ratios
 * between them; cached GETs with wrk against a bare TLS server; watch fan-out latency against a
 * bare HTTP/2 fan-out. Prints the table and one JSON line.
 */
export async function runApiBench(options: BenchOptions): Promise<void> {
  const size = benchSize(options, process.env);
  const small = sizeLabel(size.smallObjects);
  const dir = mkdtempSync(join(tmpdir(), 'orch-api-bench-'));
  const rows: Row[] = [];
  const figures: Record<string, number> = {};
  try {
    // Empty server: baseline RSS.
    const emptyServer = await startBenchServer(join(dir, 'empty'));
    const empty: EmptyServer = {
      startMs: emptyServer.startMs,
      rss: emptyServer.rssBytes(),
      anonRss: emptyServer.anonRssBytes(),
    };
    await emptyServer.stop();
    figures['idle.rss.mb'] = Math.round((empty.rss / 2 ** 20) * 10) / 10;
    figures['start.empty.ms'] = Math.round(empty.startMs);

    // wrk authenticates with a static token (it cannot present a client certificate), as a member
    // of system:masters, which the default RBAC mode lets through before any role is consulted.
    const tokenFile = join(dir, 'tokens.csv');
    writeFileSync(tokenFile, `${WRK_TOKEN},wrk,wrk-uid,"system:masters"\n`);
    const serverArgs = [`--token-auth-file=${tokenFile}`];

    // The smaller size first, on its own data dir and server: the base of the scaling ratios.
    const smallRun = await seededServer(join(dir, 'small'), size.smallObjects, serverArgs);
    let lo: SizeFigures;
    try {
      lo = await measureSize(smallRun.server, size.smallObjects, smallRun.jsonBytes, empty);
    } finally {
      await smallRun.server.stop();
    }
    figures[`start.${small}.ms`] = Math.round(lo.startMs);
    figures[`list.full.${small}.ms`] = Math.round(lo.fullMs);
    figures[`list.page.${small}.ms`] = round2(lo.pageMs);
    figures[`rss.per.json.byte.${small}`] = round2(lo.rssGrowth / lo.jsonBytes);

    const dataDir = join(dir, 'loaded');
    const { server, jsonBytes } = await seededServer(dataDir, size.objects, serverArgs);
    try {
      const hi = await measureSize(server, size.objects, jsonBytes, empty);
      const path = LIST_PATH;
      figures['start.ms'] = Math.round(hi.startMs);
      figures['list.full.ms'] = Math.round(hi.fullMs);
      figures['list.page.ms'] = round2(hi.pageMs);
      figures['rss.per.json.byte'] = round2(hi.rssGrowth / jsonBytes);
      figures['rss.anon.per.json.byte'] = round2(hi.anonRssGrowth / jsonBytes);
      // At rest: V8 gives back the heap the start-up and the list requests used once the server
      // has idled a while (its memory reducer); what stays is what keeping the objects costs.
      await new Promise((r) => setTimeout(r, REST_MS));
      figures['rss.rest.per.json.byte'] = round2((server.rssBytes() - empty.rss) / jsonBytes);
      figures['rss.rest.anon.per.json.byte'] = round2((server.anonRssBytes() - empty.anonRss) / jsonBytes);
      // Growth at the smaller size must be positive for a ratio to mean anything.
      figures['list.full.scale'] = round2(hi.fullMs / lo.fullMs);
      figures['rss.scale'] = lo.rssGrowth > 0 ? round2(hi.rssGrowth / lo.rssGrowth) : Number.NaN;
      const times = size.objects / size.smallObjects;
      rows.push(
        {
          metric: `start-to-ready with ${size.objects} objects (empty server: ${figures['start.empty.ms']} ms)`,
          ours: hi.startMs,
          baseline: 1500,
          unit: 'ms (baseline: target)',
          lowerIsBetter: true,
        },
        {
          metric: 'RSS of the empty server',
          ours: figures['idle.rss.mb'],
          baseline: 80,
          unit: 'MB (baseline: target)',
          lowerIsBetter: true,
        },
        {
          metric: `full list of ${size.objects} objects (server settled after start)`,
          ours: hi.fullMs,
          baseline: 1000,
          unit: 'ms (baseline: target)',
          lowerIsBetter: true,
        },
        {
          metric: 'page of 500 (median of 20, one kept-alive connection)',
          ours: figures['list.page.ms'],
          baseline: 10,
          unit: 'ms (baseline: target)',
          lowerIsBetter: true,
        },
        {
          metric: `full list time, ${size.objects} vs ${size.smallObjects} objects (${Math.round(lo.fullMs)} ms)`,
          ours: figures['list.full.scale'],
          baseline: round2(times * 1.1),
          unit: `x (baseline: target, ${times}x the objects)`,
          lowerIsBetter: true,
        },
        {
          metric: 'RSS growth per JSON byte stored',
          ours: figures['rss.per.json.byte'],
          baseline: 2.0,
          unit: 'x (baseline: target)',
          lowerIsBetter: true,
        },
        {
          metric: `RSS growth, ${size.objects} vs ${size.smallObjects} objects`,
          ours: figures['rss.scale'],
          baseline: round2(times * 1.1),
          unit: `x (baseline: target, ${times}x the objects)`,
          lowerIsBetter: true,
        },
        {
          metric: 'anonymous RSS (heap, buffers) growth per JSON byte',
          ours: figures['rss.anon.per.json.byte'],
          baseline: 2.0,
          unit: 'x (baseline: target)',
          lowerIsBetter: true,
        },
        {
          metric: `RSS growth per JSON byte at rest (${REST_MS / 1000} s after the requests)`,
          ours: figures['rss.rest.per.json.byte'],
          baseline: 2.0,
          unit: 'x (baseline: target)',
          lowerIsBetter: true,
        },
        {
          metric: 'anonymous RSS growth per JSON byte at rest',
          ours: figures['rss.rest.anon.per.json.byte'],
          baseline: 2.0,
          unit: 'x (baseline: target)',
          lowerIsBetter: true,
        },
      );

      // GET of one object vs a bare TLS server returning the same bytes.
      const one = await timedGet(server.url, `${path}/cm-000042?resourceVersion=0`, server.admin);
      if (one.status !== 200) throw new Error(`GET failed: ${one.status} ${one.body.toString().slice(0, 200)}`);
      const pki = join(dataDir, 'pki');
      const bareGet = await bareServer(
        readFileSync(join(pki, 'apiserver.crt'), 'utf8'),
        readFileSync(join(pki, 'apiserver.key'), 'utf8'),
        one.body,
      );
      try {
        const ourUrl = `${server.url}${path}/cm-000042?resourceVersion=0`;
        // Both warmed up first (JIT, connections), then measured in alternating rounds: the
        // median of each, so one round disturbed by the machine moves neither figure.
        await wrkRps(`${bareGet.url}/`, 1);
        await wrkRps(ourUrl, 1, WRK_TOKEN);
        const bareRounds: number[] = [];
        const ourRounds: number[] = [];
        for (let round = 0; round < GET_ROUNDS; round++) {
          bareRounds.push(await wrkRps(`${bareGet.url}/`, size.wrkSeconds));
          ourRounds.push(await wrkRps(ourUrl, size.wrkSeconds, WRK_TOKEN));
        }
        const bareRps = percentile(bareRounds, 50);
        const ourRps = percentile(ourRounds, 50);
        const row = {
          metric: 'GET one object from the cache (wrk, HTTP/1.1, 64 conns; baseline: bare TLS server)',
          ours: ourRps,
          baseline: bareRps,
          unit: `req/s, median of ${GET_ROUNDS} rounds (target ratio >= 0.65)`,
        };
        rows.push(row);
        figures['get.rps'] = Math.round(ourRps);
        figures['get.ratio'] = Math.round(ratio(row) * 1000) / 1000;
      } finally {
        await bareGet.close();
      }

      // Watchers: write-to-event latency, and the same fan-out from a bare HTTP/2 server.
      const rv = JSON.parse(hi.fullBody.toString()).metadata.resourceVersion;
      const lat = await fanOutLatencies(server.url, path, `${path}?watch=1&resourceVersion=${rv}`, server.admin, size);
      const bare = await startBareFanOut(join(pki, 'apiserver.crt'), join(pki, 'apiserver.key'));
      let bareLat: number[];
      try {
        bareLat = await fanOutLatencies(bare.url, '/objects', '/watch', server.admin, size);
      } finally {
        bare.stop();
      }
      figures['watch.p50.ms'] = round2(percentile(lat, 50));
      figures['watch.p99.ms'] = round2(percentile(lat, 99));
      figures['watch.delivered'] = lat.length / (size.watchers * size.watchWrites);
      figures['watch.bare.p50.ms'] = round2(percentile(bareLat, 50));
      figures['watch.bare.p99.ms'] = round2(percentile(bareLat, 99));
      rows.push({
        metric: `write-to-event p50, ${size.watchers} watchers (baseline: bare HTTP/2 fan-out)`,
        ours: figures['watch.p50.ms'],
        baseline: figures['watch.bare.p50.ms'],
        unit: 'ms (target: <= 1.5x the baseline, ratio >= 0.67)',
        lowerIsBetter: true,
      });
      rows.push({
        metric: `write-to-event p99, ${size.watchers} watchers (baseline: bare HTTP/2 fan-out)`,
        ours: figures['watch.p99.ms'],
        baseline: figures['watch.bare.p99.ms'],
        unit: 'ms (target: <= 1.3x the baseline, ratio >= 0.77)',
        lowerIsBetter: true,
      });
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  figures.objects = size.objects;
  const title = options.quick
    ? `API server (embedded store), --quick: ${size.objects} and ${size.smallObjects} objects, ${size.watchers} watchers (targets are for the full run)`
    : 'API server (embedded store)';
  printTable(title, rows);
  printFigures(figures, [
    'objects',
    'idle.rss.mb',
    'start.empty.ms',
    'start.ms',
    `start.${small}.ms`,
    'list.full.ms',
    `list.full.${small}.ms`,
    'list.full.scale',
    'list.page.ms',
    `list.page.${small}.ms`,
    'rss.per.json.byte',
    `rss.per.json.byte.${small}`,
    'rss.scale',
    'rss.anon.per.json.byte',
    'rss.rest.per.json.byte',
    'rss.rest.anon.per.json.byte',
    'get.rps',
    'get.ratio',
    'watch.p50.ms',
    'watch.p99.ms',
    'watch.bare.p50.ms',
    'watch.bare.p99.ms',
    'watch.delivered',
  ]);
}
