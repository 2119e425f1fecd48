import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { haveWrk, wrkRps } from '../api/load.js';
import { startBenchServer } from '../api/server-proc.js';
import { median, printTable, type Row } from '../storage/measure.js';

const NAMESPACES = 200;
const ROLES_PER_NAMESPACE = 10;
const CLUSTER_ROLE_BINDINGS = 200;
const WRK_SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 5);
const ROUNDS = 3;
const TOKEN = 'authz-bench-token-3f9e1b7c2d5a';
const RBAC = '/apis/rbac.authorization.orch.io/v1';
const GROUP = 'rbac.authorization.orch.io';

type Creds = { ca: string; cert: string; key: string };

function post(base: string, creds: Creds, path: string, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, base),
      {
        method: 'POST',
        ca: creds.ca,
        cert: creds.cert,
        key: creds.key,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          (res.statusCode ?? 0) < 300
            ? resolve()
            : reject(new Error(`POST ${path}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Runs `jobs` with at most `width` in flight. */
async function inParallel(jobs: (() => Promise<void>)[], width: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
}

/**
 * 200 namespaces, each with 10 Roles and 10 RoleBindings (to other users and groups), plus 200
 * ClusterRoleBindings; the bench user is bound in one namespace. Only the last binding of that
 * namespace names the user, so a decision walks past others of the namespace.
 */
async function seedPolicy(base: string, admin: Creds): Promise<void> {
  const jobs: (() => Promise<void>)[] = [];
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

/**
 * Cached GETs of one ConfigMap by a token-authenticated user under `RBAC` (4,400 policy objects)
 * against the same GETs under `AlwaysAllow`, one server after the other on the same data, rounds
 * alternating; wrk with 64 connections.
 */
export async function runAuthzBench(): Promise<void> {
  if (!(await haveWrk())) throw new Error('wrk is required: apt-get install -y wrk');
  const dir = mkdtempSync(join(tmpdir(), 'orch-authz-bench-'));
  try {
    const dataDir = join(dir, 'data');
    const tokenFile = join(dir, 'tokens.csv');
    writeFileSync(tokenFile, `${TOKEN},bench-user,bench-uid,"bench-group"\n`);
    const args = (mode: string) => [`--token-auth-file=${tokenFile}`, `--authorization-mode=${mode}`];
    const seeding = await startBenchServer(dataDir, args('RBAC'));
    try {
      await seedPolicy(seeding.url, seeding.admin);
    } finally {
      await seeding.stop();
    }
    const path = '/api/v1/namespaces/ns-0/configmaps/bench?resourceVersion=0';
    const rps: Record<string, number[]> = { RBAC: [], AlwaysAllow: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of ['AlwaysAllow', 'RBAC']) {
        const server = await startBenchServer(dataDir, args(mode));
        try {
          await wrkRps(`${server.url}${path}`, 1, TOKEN); // warm up
          rps[mode]!.push(await wrkRps(`${server.url}${path}`, WRK_SECONDS, TOKEN));
        } finally {
          await server.stop();
        }
      }
    }
    const ratios = rps.RBAC!.map((r, i) => r / rps.AlwaysAllow![i]!);
    const rows: Row[] = [
      {
        metric: `cached GET under RBAC (${NAMESPACES * ROLES_PER_NAMESPACE} Roles, ${NAMESPACES * ROLES_PER_NAMESPACE} RoleBindings, ${CLUSTER_ROLE_BINDINGS} ClusterRoleBindings), wrk 64 conns`,
        ours: median(rps.RBAC!),
        baseline: median(rps.AlwaysAllow!),
        unit: 'req/s',
        ratio: median(ratios),
        spread: [Math.min(...ratios), Math.max(...ratios)],
      },
    ];
    printTable('authorization: RBAC against AlwaysAllow', rows);
    console.log(
      JSON.stringify({
        'rbac.rps': Math.round(median(rps.RBAC!)),
        'alwaysallow.rps': Math.round(median(rps.AlwaysAllow!)),
        'rbac.ratio': Math.round(median(ratios) * 1000) / 1000,
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
