#!/usr/bin/env node
import { resolve } from 'node:path';
import { balancerBackends, clusterStatus, etcdLeader, stopCluster } from './cluster/cluster-control.js';
import { readClusterState } from './cluster/cluster-state.js';
import { clusterUp } from './cluster/cluster-up.js';

const USAGE = `usage: npm run cluster -- up|down|status [--dir=<state directory>] [--apiservers=<n>]
  up      start 3 etcd members, <n> (default 3) orch-apiserver replicas and haproxy on 127.0.0.1
  down    stop what up started, by PID
  status  health of every member
The state directory (default ./.orch-cluster, or $ORCH_CLUSTER_DIR) holds PIDs, ports, data,
logs and admin.kubeconfig (pointing at the balancer).
`;

/** `orch-cluster up|down|status`: a local high-availability cluster on loopback. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  let dir = process.env.ORCH_CLUSTER_DIR ?? '.orch-cluster';
  let apiservers = 3;
  for (const arg of rest) {
    const [name, value] = arg.split('=', 2);
    if (name === '--dir' && value) dir = value;
    else if (name === '--apiservers' && value && /^[1-9]$/.test(value)) apiservers = Number(value);
    else {
      process.stderr.write(`unknown or invalid argument: ${arg}\n${USAGE}`);
      return 2;
    }
  }
  dir = resolve(dir);
  const log = (line: string) => process.stdout.write(`${line}\n`);
  switch (command) {
    case 'up': {
      const state = await clusterUp({ dir, apiservers, log });
      log(`cluster up; try: kubectl --kubeconfig ${state.kubeconfig} get namespaces`);
      return 0;
    }
    case 'down': {
      const state = await readClusterState(dir);
      if (!state) {
        log(`no cluster recorded in ${dir}`);
        return 0;
      }
      await stopCluster(state);
      log('cluster stopped (data kept; remove the state directory to discard it)');
      return 0;
    }
    case 'status': {
      const state = await readClusterState(dir);
      if (!state) {
        log(`no cluster recorded in ${dir}`);
        return 1;
      }
      const [members, leader, backends] = await Promise.all([
        clusterStatus(state),
        etcdLeader(state),
        balancerBackends(state).catch(() => new Map<string, string>()),
      ]);
      for (const m of members) {
        const notes = [
          m.name === leader ? 'etcd leader' : '',
          backends.has(m.name) ? `balancer: ${backends.get(m.name)}` : '',
        ]
          .filter((x) => x !== '')
          .join(', ');
        const pid = m.pid === undefined ? '-' : String(m.pid);
        log(
          `${m.name.padEnd(12)} ${pid.padEnd(8)} ${m.address.padEnd(24)} ${m.health.healthy ? 'healthy' : 'UNHEALTHY'} (${m.health.detail})${notes ? ` [${notes}]` : ''}`,
        );
      }
      log(`kubeconfig: ${state.kubeconfig}`);
      return members.every((m) => m.health.healthy) ? 0 : 1;
    }
    default:
      process.stderr.write(USAGE);
      return command === undefined || command === '--help' || command === 'help' ? 0 : 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
