import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { etcdLeader, setBalancerServer, stopCluster, stopMember } from '../../src/cli/cluster/cluster-control.js';
import type { ClusterState } from '../../src/cli/cluster/cluster-state.js';
import { clusterUp } from '../../src/cli/cluster/cluster-up.js';
import { wrkRps } from '../api/load.js';
import type { BenchOptions } from '../cli.js';
import { printFigures } from '../figures.js';
import { median, printTable, type Row } from '../storage/measure.js';
import { TOOLS, toolPath } from '../tools.js';

const WRK_SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TOKEN = 'cluster-bench-token-4f0a8c2d71b9';
const NS = 'bench';

/** Creates per second with wrk: POSTs of a small ConfigMap (`generateName`) on 64 connections. */
function wrkCreates(url: string, seconds: number, dir: string): Promise<number> {
  const script = join(dir, 'create.lua');
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'bench-' }, data: { k: 'v' } };
  writeFileSync(
    script,
    [
      'wrk.method = "POST"',
      `wrk.body = ${JSON.stringify(JSON.stringify(body))}`,
      'wrk.headers["Content-Type"] = "application/json"',
      `wrk.headers["Authorization"] = "Bearer ${TOKEN}"`,
      '',
    ].join('\n'),
  );
  return new Promise((resolve, reject) => {
    execFile(
      'wrk',
      ['-t2', '-c64', `-d${seconds}s`, '-s', script, url],
      { timeout: (seconds + 30) * 1000 },
      (err, out) => {
        if (err) return reject(err);
        const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
        if (non2xx) return reject(new Error(`wrk saw ${non2xx[1]} error responses creating`));
        const m = /Requests\/sec:\s+([\d.]+)/.exec(out);
        resolve(m ? Number(m[1]) : Number.NaN);
      },
    );
  });
}

interface Poster {
  post(path: string, body: unknown): Promise<number>;
  close(): void;
}

function poster(state: ClusterState): Poster {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: 8,
    ca: readFileSync(join(state.certDir, 'ca.crt')),
    cert: readFileSync(join(state.certDir, 'admin.crt')),
    key: readFileSync(join(state.certDir, 'admin.key')),
  });
  const url = new URL(state.url);
  return {
    post: (path, body) =>
      new Promise((resolve) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path,
            method: 'POST',
            agent,
            timeout: 10_000,
            headers: { 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', () => resolve(0));
        req.end(JSON.stringify(body));
      }),
    close: () => agent.destroy(),
  };
}

/**
 * Longest gap (ms) between two acknowledged creates from 4 writers over `ms`, with `fault` run
 * after one second. A failed create is retried with the same name (409 after a retry counts).
 */
async function longestWriteGap(p: Poster, ms: number, fault: () => Promise<void>, tag: string): Promise<number> {
  const stopAt = performance.now() + ms;
  const acks: number[] = [];
  let n = 0;
  const writer = async () => {
    while (performance.now() < stopAt) {
      const name = `${tag}-${n++}`;
      for (let attempt = 0; performance.now() < stopAt + 10_000; attempt++) {
        const status = await p.post(`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name } });
        if (status === 201 || (status === 409 && attempt > 0)) {
          acks.push(performance.now());
          break;
        }
        await sleep(20);
      }
    }
  };
  const writers = Promise.all([writer(), writer(), writer(), writer()]);
  await sleep(1000);
  await fault();
  await writers;
  let gap = 0;
  for (let i = 1; i < acks.length; i++) gap = Math.max(gap, (acks[i] as number) - (acks[i - 1] as number));
  return acks.length > 1 ? gap : Number.NaN;
}

/**
 * One cluster (3 etcd members, 3 API servers, haproxy): creates/s and cached GETs/s through the
 * balancer with 1, 2 and 3 API servers in rotation (ratios against 1 server, rounds alternating),
 * then the longest write pause when the etcd leader is killed against the longest gap without a fault.
 */
export async function runClusterBench(options: BenchOptions): Promise<void> {
  const wrkSeconds = options.quick ? Math.min(2, WRK_SECONDS) : WRK_SECONDS;
  const rounds = options.quick ? Math.min(1, ROUNDS) : ROUNDS;
  const dir = mkdtempSync(join(tmpdir(), 'orch-cluster-bench-'));
  const tokenFile = join(dir, 'tokens.csv');
  writeFileSync(tokenFile, `${TOKEN},bench-user,bench-uid,"system:masters"\n`);
  let state: ClusterState | undefined;
  try {
    state = await clusterUp({
      dir: join(dir, 'cluster'),
      etcdBinary: toolPath(TOOLS.etcd),
      haproxyBinary: toolPath(TOOLS.haproxy),
      apiserverArgs: [`--token-auth-file=${tokenFile}`],
    });
    const s = state;
    const p = poster(s);
    try {
      await p.post('/api/v1/namespaces', { metadata: { name: NS } });
      await p.post(`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'read-me' }, data: { k: 'v' } });
      const names = s.members.filter((m) => m.kind === 'apiserver').map((m) => m.name);
      const use = async (count: number) => {
        for (const [i, name] of names.entries()) await setBalancerServer(s, name, i < count);
        await sleep(300);
      };
      const base = `${s.url}/api/v1/namespaces/${NS}/configmaps`;
      const writes: number[][] = [[], [], []];
      const gets: number[][] = [[], [], []];
      await wrkRps(`${base}/read-me?resourceVersion=0`, 1, TOKEN); // warm up
      for (let round = 0; round < rounds; round++) {
        for (let count = 1; count <= names.length; count++) {
          await use(count);
          writes[count - 1]?.push(await wrkCreates(base, wrkSeconds, dir));
          gets[count - 1]?.push(await wrkRps(`${base}/read-me?resourceVersion=0`, wrkSeconds, TOKEN));
        }
      }
      await use(names.length);
      const quiet = await longestWriteGap(p, 5000, async () => {}, 'quiet');
      const leader = await etcdLeader(s);
      if (!leader) throw new Error('no etcd leader found');
      const pause = await longestWriteGap(p, 6000, () => stopMember(s, leader, { kill: true }), 'leader-loss');
      const rows: Row[] = [];
      for (const [label, figures] of [
        ['creates/s', writes],
        ['cached GETs/s (resourceVersion=0)', gets],
      ] as const) {
        for (let count = 2; count <= names.length; count++) {
          const ratios = (figures[count - 1] ?? []).map((v, i) => v / (figures[0]?.[i] ?? Number.NaN));
          rows.push({
            metric: `${label} through the balancer, ${count} API servers vs 1 (wrk 64 conns)`,
            ours: median(figures[count - 1] ?? []),
            baseline: median(figures[0] ?? []),
            unit: 'req/s',
            ratio: median(ratios),
            spread: [Math.min(...ratios), Math.max(...ratios)],
          });
        }
      }
      rows.push({
        metric: 'longest write pause, etcd leader killed (baseline: longest gap without a fault)',
        ours: pause,
        baseline: quiet,
        unit: 'ms',
        lowerIsBetter: true,
      });
      printTable('cluster: 3 etcd members, API servers behind haproxy (all on one host)', rows);
      printFigures({
        'creates.1': Math.round(median(writes[0] ?? [])),
        'creates.2': Math.round(median(writes[1] ?? [])),
        'creates.3': Math.round(median(writes[2] ?? [])),
        'gets.1': Math.round(median(gets[0] ?? [])),
        'gets.2': Math.round(median(gets[1] ?? [])),
        'gets.3': Math.round(median(gets[2] ?? [])),
        'leaderLoss.pauseMs': Math.round(pause),
        'quiet.gapMs': Math.round(quiet),
      });
    } finally {
      p.close();
    }
  } finally {
    if (state) await stopCluster(state, { kill: true });
    rmSync(dir, { recursive: true, force: true });
  }
}
