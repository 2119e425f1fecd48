import { readFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { isMemberProcess, type StopOptions, spawnMember, stopPid } from './cluster-processes.js';
import { type ClusterState, type MemberState, memberNamed, writeClusterState } from './cluster-state.js';
import { etcdMemberStatus, type ProbeResult, probeEtcd, probeReadyz } from './member-probes.js';

/**
 * Stops every member `up` recorded, by PID (API servers and the balancer first, etcd last), and
 * records them as stopped. A PID that no longer belongs to the member's process is left alone.
 */
export async function stopCluster(state: ClusterState, options: StopOptions = {}): Promise<void> {
  const order: MemberState['kind'][] = ['balancer', 'apiserver', 'etcd'];
  for (const kind of order) {
    await Promise.all(state.members.filter((m) => m.kind === kind).map((m) => stopPid(m.pid, m.marker, options)));
    for (const m of state.members) if (m.kind === kind) m.pid = undefined;
  }
  await writeClusterState(state);
}

/** Stops (SIGTERM, or SIGKILL with `kill`) one member by name and records it as stopped. */
export async function stopMember(state: ClusterState, name: string, options: StopOptions = {}): Promise<void> {
  const m = memberNamed(state, name);
  await stopPid(m.pid, m.marker, options);
  m.pid = undefined;
  await writeClusterState(state);
}

/** Starts a stopped member again with its recorded command line (same ports and data). */
export async function startMember(state: ClusterState, name: string, cwd: string): Promise<void> {
  const m = memberNamed(state, name);
  if (isMemberProcess(m.pid, m.marker)) return;
  m.pid = spawnMember(m, cwd);
  await writeClusterState(state);
}

/** One member's line in `status`. */
export interface MemberStatus {
  readonly name: string;
  readonly kind: MemberState['kind'];
  readonly pid: number | undefined;
  readonly running: boolean;
  readonly address: string;
  readonly health: ProbeResult;
}

/** Probes every member: etcd `/health`, API server and balancer `/readyz`. */
export async function clusterStatus(state: ClusterState): Promise<MemberStatus[]> {
  let caPem = '';
  try {
    caPem = await readFile(join(state.certDir, 'ca.crt'), 'utf8');
  } catch {
    // no CA yet: the HTTPS probes fail and say why
  }
  return Promise.all(
    state.members.map(async (m) => {
      const running = isMemberProcess(m.pid, m.marker);
      const scheme = m.kind === 'etcd' ? 'http' : 'https';
      const health = !running
        ? { healthy: false, detail: 'not running' }
        : m.kind === 'etcd'
          ? await probeEtcd(m.port)
          : await probeReadyz(m.port, caPem);
      return {
        name: m.name,
        kind: m.kind,
        pid: running ? m.pid : undefined,
        running,
        address: `${scheme}://127.0.0.1:${m.port}`,
        health,
      };
    }),
  );
}

/** One command on haproxy's runtime API socket; resolves with its answer. */
function balancerCommand(state: ClusterState, command: string, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = createConnection(join(state.dir, 'balancer.sock'));
    let out = '';
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('balancer socket timed out')));
    socket.on('connect', () => socket.end(`${command}\n`));
    socket.on('data', (c) => {
      out += c.toString('utf8');
    });
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

/**
 * Takes an API server out of the balancer's rotation (`disable server`) or puts it back
 * (`enable server`); the process keeps running. For measuring with fewer replicas.
 */
export async function setBalancerServer(state: ClusterState, name: string, enabled: boolean): Promise<void> {
  memberNamed(state, name);
  const answer = await balancerCommand(state, `${enabled ? 'enable' : 'disable'} server apiservers/${name}`, 2000);
  if (answer.trim() !== '')
    throw new Error(`balancer refused to ${enabled ? 'enable' : 'disable'} ${name}: ${answer.trim()}`);
}

/** haproxy's view of its API servers (`show servers state`): server name to UP/DOWN. */
export async function balancerBackends(state: ClusterState, timeoutMs = 2000): Promise<Map<string, string>> {
  const text = await balancerCommand(state, 'show servers state apiservers', timeoutMs);
  const result = new Map<string, string>();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    // be_id be_name srv_id srv_name srv_addr srv_op_state ...; op state 2 is running.
    if (f.length > 5 && f[1] === 'apiservers' && f[3] !== undefined) result.set(f[3], f[5] === '2' ? 'UP' : 'DOWN');
  }
  return result;
}

/** The name of the etcd member that is the raft leader now, as the members report it. */
export async function etcdLeader(state: ClusterState): Promise<string | undefined> {
  const etcd = state.members.filter((m) => m.kind === 'etcd' && isMemberProcess(m.pid, m.marker));
  const statuses = await Promise.all(etcd.map(async (m) => ({ m, s: await etcdMemberStatus(m.port) })));
  const leaderId = statuses.find((x) => x.s)?.s?.leader;
  return statuses.find((x) => x.s?.memberId === leaderId)?.m.name;
}
