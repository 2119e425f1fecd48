import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wrkRps } from '../api/load.js';
import { type BenchServer, startBenchServer } from '../api/server-proc.js';
import type { BenchOptions } from '../cli.js';
import { printFigures } from '../figures.js';
import { median, printTable, type Row } from '../storage/measure.js';
import { BENCH_NODE, BENCH_SECRET, NODE_NAMESPACE, NODES, PODS, seedNodeGraph } from './node-seed.js';
import { type Creds, inParallel, post } from './seed-http.js';

const NAMESPACES = 200;
const ROLES_PER_NAMESPACE = 10;
const CLUSTER_ROLE_BINDINGS = 200;
const WRK_SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const TOKEN = 'authz-bench-token-3f9e1b7c2d5a';
const NODE_TOKEN = 'authz-bench-node-token-8c41e0d97b26';
const RBAC = '/apis/rbac.authorization.orch.io/v1';
const GROUP = 'rbac.authorization.orch.io';

/**
 * 200 namespaces, each with 10 Roles and 10 RoleBindings (to other users and groups), plus 200
 * ClusterRoleBindings; the bench user is bound in one namespace. Only the last binding of that
 * namespace names the user, so a decision walks past others of the namespace.
 */
async function seedPolicy(base: string, admin: Creds): Promise<void> {
  const jobs: (() => Promise<unknown>)[] = [];
  for (let n = 0; n < NAMESPACES; n++) {
    const ns = `ns-${n}`;
    await post(base, admin, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    for (let r = 0; r < ROLES_PER_NAMESPACE; r++) {
      jobs.push(() =>
        post(base, admin, `${RBAC}/namespaces/${ns}/roles`, {
          apiVersion: `${GROUP}/v1`,
          kind: 'Role',
          metadata: { name: `role-${r}` },
          rules: [{ apiGroups: [''], resources: ['configmaps', `things-${r}`], verbs: ['get', 'list'] }],
        }),
      );
      const isBench = n === 0 && r === ROLES_PER_NAMESPACE - 1;
      jobs.push(() =>
        post(base, admin, `${RBAC}/namespaces/${ns}/rolebindings`, {
          apiVersion: `${GROUP}/v1`,
          kind: 'RoleBinding',
          metadata: { name: `binding-${r}` },
          roleRef: { apiGroup: GROUP, kind: 'Role', name: `role-${r}` },
          subjects: [
            { kind: 'User', apiGroup: GROUP, name: isBench ? 'bench-user' : `user-${n}-${r}` },
            { kind: 'Group', apiGroup: GROUP, name: `group-${r}` },
          ],
        }),
      );
    }
  }
  for (let c = 0; c < CLUSTER_ROLE_BINDINGS; c++) {
    jobs.push(() =>
      post(base, admin, `${RBAC}/clusterrolebindings`, {
        apiVersion: `${GROUP}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: `crb-${c}` },
        roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: `cluster-role-${c % 10}` },
        subjects: [{ kind: 'User', apiGroup: GROUP, name: `cluster-user-${c}` }],
      }),
    );
  }
  jobs.push(() =>
    post(base, admin, '/api/v1/namespaces/ns-0/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'bench' },
      data: { key: 'value' },
    }),
  );
  await inParallel(jobs, 16);
}

/** One measured request: who GETs what, under which mode, against AlwaysAllow. */
interface Case {
  readonly key: string;
  readonly mode: string;
  readonly path: string;
  readonly token: string;
  readonly metric: string;
}

const CASES: readonly Case[] = [
  {
    key: 'rbac',
    mode: 'RBAC',
    path: '/api/v1/namespaces/ns-0/configmaps/bench?resourceVersion=0',
    token: TOKEN,
    metric: `cached GET under RBAC (${NAMESPACES * ROLES_PER_NAMESPACE} Roles, ${NAMESPACES * ROLES_PER_NAMESPACE} RoleBindings, ${CLUSTER_ROLE_BINDINGS} ClusterRoleBindings), wrk 64 conns`,
  },
  {
    key: 'node',
    mode: 'Node,RBAC',
    path: `/api/v1/namespaces/${NODE_NAMESPACE}/secrets/${BENCH_SECRET}?resourceVersion=0`,
    token: NODE_TOKEN,
    metric: `cached secret GET by a node under Node,RBAC (${PODS} pods on ${NODES} nodes), wrk 64 conns`,
  },
];

/**
 * Cached GETs under each authorization mode against the same GETs under `AlwaysAllow`, one
 * server per mode on copies of the same data, measurements alternating with their baseline over
 * rounds; wrk with 64 connections: a
 * token-authenticated user reading one ConfigMap under `RBAC` (4,400 policy objects), and node
 * `node-7` (`system:node:node-7` in `system:nodes`) reading the secret of one of its pods under
 * `Node,RBAC` with 1,000 pods bound across 100 nodes in the node graph.
 */
export async function runAuthzBench(options: BenchOptions): Promise<void> {
  const wrkSeconds = options.quick ? Math.min(2, WRK_SECONDS) : WRK_SECONDS;
  const rounds = options.quick ? Math.min(2, ROUNDS) : ROUNDS;
  const dir = mkdtempSync(join(tmpdir(), 'orch-authz-bench-'));
  try {
    const dataDir = join(dir, 'data');
    const tokenFile = join(dir, 'tokens.csv');
    writeFileSync(
      tokenFile,
      `${TOKEN},bench-user,bench-uid,"bench-group"\n${NODE_TOKEN},system:node:${BENCH_NODE},node-uid,"system:nodes"\n`,
    );
    const args = (mode: string) => [`--token-auth-file=${tokenFile}`, `--authorization-mode=${mode}`];
    const seeding = await startBenchServer(dataDir, args('RBAC'));
    try {
      await seedPolicy(seeding.url, seeding.admin);
      await seedNodeGraph(seeding.url, seeding.admin);
    } finally {
      await seeding.stop();
    }
    const rps: Record<string, number[]> = {};
    // One copy of the seeded data per mode, each server running throughout: every measurement
    // and its baseline are taken back to back, so load from elsewhere on the machine hits both.
    const modes = ['AlwaysAllow', ...CASES.map((c) => c.mode)];
    const servers = new Map<string, BenchServer>();
    try {
      for (const [i, mode] of modes.entries()) {
        const copy = join(dir, `data-${i}`);
        cpSync(dataDir, copy, { recursive: true });
        servers.set(mode, await startBenchServer(copy, args(mode)));
      }
      const urlOf = (mode: string) => servers.get(mode)!.url;
      for (const c of CASES) {
        for (const mode of ['AlwaysAllow', c.mode]) await wrkRps(`${urlOf(mode)}${c.path}`, 1, c.token); // warm up
      }
      for (const c of CASES) {
        rps[c.key] = [];
        rps[`${c.key}.alwaysallow`] = [];
      }
      for (let round = 0; round < rounds; round++) {
        for (const c of CASES) {
          // Alternate which goes first.
          const order = round % 2 === 0 ? ['AlwaysAllow', c.mode] : [c.mode, 'AlwaysAllow'];
          for (const mode of order) {
            const r = await wrkRps(`${urlOf(mode)}${c.path}`, wrkSeconds, c.token);
            rps[mode === 'AlwaysAllow' ? `${c.key}.alwaysallow` : c.key]!.push(r);
          }
        }
      }
    } finally {
      await Promise.all([...servers.values()].map((s) => s.stop()));
    }
    const rows: Row[] = [];
    const figures: Record<string, number> = {};
    for (const c of CASES) {
      const ours = rps[c.key]!;
      const base = rps[`${c.key}.alwaysallow`]!;
      const ratios = ours.map((r, i) => r / base[i]!);
      rows.push({
        metric: c.metric,
        ours: median(ours),
        baseline: median(base),
        unit: 'req/s',
        ratio: median(ratios),
        spread: [Math.min(...ratios), Math.max(...ratios)],
      });
      figures[`${c.key}.rps`] = Math.round(median(ours));
      figures[`${c.key}.alwaysallow.rps`] = Math.round(median(base));
      figures[`${c.key}.ratio`] = Math.round(median(ratios) * 1000) / 1000;
    }
    printTable('authorization: RBAC and Node against AlwaysAllow', rows);
    printFigures(figures);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
