import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { balancerConfig } from './balancer-config.js';
import { stopCluster } from './cluster-control.js';
import { freePorts, isMemberProcess, logTail, spawnMember } from './cluster-processes.js';
import { type ClusterState, type MemberState, readClusterState, writeClusterState } from './cluster-state.js';
import { probeEtcd, probeReadyz } from './member-probes.js';
import { ownHostnameLauncher, withOwnHostname } from './replica-hostname.js';

/** Options of {@link clusterUp}. */
export interface ClusterUpOptions {
  /** State directory: PIDs, ports, data directories, logs, the admin kubeconfig. */
  readonly dir: string;
  /** Number of etcd members (default 3). */
  readonly etcdMembers?: number;
  /** Number of API server replicas (default 3). */
  readonly apiservers?: number;
  /** etcd executable (default `$ORCH_ETCD_BIN`, else /usr/bin/etcd). */
  readonly etcdBinary?: string;
  /** haproxy executable (default `$ORCH_HAPROXY_BIN`, else /usr/sbin/haproxy). */
  readonly haproxyBinary?: string;
  /** etcd `--heartbeat-interval` / `--election-timeout` in ms (default 100 / 1000, etcd's own). */
  readonly etcdHeartbeatMs?: number;
  readonly etcdElectionTimeoutMs?: number;
  /** Extra `orch-apiserver` flags for every replica. */
  readonly apiserverArgs?: readonly string[];
  /**
   * The node arguments that run `orch-apiserver`, before its flags (default: the built file
   * beside this one, else the TypeScript source through tsx).
   */
  readonly apiserverProgram?: readonly string[];
  /**
   * The `--etcd-servers` of one replica (default: every etcd member's client URL). Lets a replica
   * reach etcd through its own path, e.g. a proxy that can be cut to isolate that replica alone.
   */
  readonly apiserverEtcdServers?: (replica: string, etcdEndpoints: readonly string[]) => readonly string[];
  /**
   * Give each API server replica its own host name (its member name), so that each keeps its own
   * identity Lease: kube-apiserver names that Lease after the host name and has no flag for it,
   * and kube's multi-replica setups (kind) run each replica on its own host. Default: when the
   * host allows it (an unprivileged user namespace, see {@link ownHostnameLauncher}); `true`
   * fails the start when it does not; `false` keeps the machine's name (one shared Lease).
   */
  readonly ownHostnames?: boolean;
  /** How long to wait for each step to become healthy (default 120 s). */
  readonly timeoutMs?: number;
  /** Progress lines (default: none). */
  readonly log?: (line: string) => void;
}

/** Thrown when a member does not become healthy; the message carries the end of its log. */
export class ClusterStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterStartError';
  }
}

/**
 * Starts an etcd cluster, API server replicas on it (one shared `--cert-dir`, so one CA, one
 * admin certificate and one service-account signing key) and haproxy in front, all on
 * 127.0.0.1 with ports chosen now, and records everything in `<dir>/cluster.json`. Fails when a
 * cluster recorded there still runs. On failure everything started is stopped again.
 */
export async function clusterUp(options: ClusterUpOptions): Promise<ClusterState> {
  const dir = resolve(options.dir);
  const log = options.log ?? (() => {});
  const previous = await readClusterState(dir);
  if (previous?.members.some((m) => isMemberProcess(m.pid, m.marker))) {
    throw new ClusterStartError(`a cluster recorded in ${dir} is still running; run down first`);
  }
  if (previous) {
    // etcd keeps its members' peer URLs in its data: start again on the recorded ports.
    log(`starting the cluster recorded in ${dir} again`);
    await startRecorded(previous, options);
    return previous;
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const etcdCount = options.etcdMembers ?? 3;
  const apiCount = options.apiservers ?? 3;
  const ports = await freePorts(etcdCount * 2 + apiCount + 1);
  const etcdBinary = options.etcdBinary ?? process.env.ORCH_ETCD_BIN ?? '/usr/bin/etcd';
  const haproxyBinary = options.haproxyBinary ?? process.env.ORCH_HAPROXY_BIN ?? '/usr/sbin/haproxy';
  const certDir = join(dir, 'pki');
  const balancerPort = ports[etcdCount * 2 + apiCount] as number;

  const etcd = etcdMembers({ dir, count: etcdCount, ports, binary: etcdBinary, options });
  const etcdEndpoints = etcd.map((m) => `http://127.0.0.1:${m.port}`);
  const entry = options.apiserverProgram ?? apiserverEntry();
  const unshare = options.ownHostnames === false ? undefined : ownHostnameLauncher();
  if (options.ownHostnames === true && !unshare) {
    throw new ClusterStartError('ownHostnames: this host does not let an unprivileged user run unshare --user --uts');
  }
  log(unshare ? 'API server replicas run with their own host names' : 'API server replicas share the host name');
  const apiservers: MemberState[] = Array.from({ length: apiCount }, (_, i) => {
    const name = `apiserver-${i}`;
    const port = ports[etcdCount * 2 + i] as number;
    const launch = (command: string, args: string[]) =>
      unshare ? withOwnHostname(unshare, name, command, args) : { command, args };
    return {
      kind: 'apiserver',
      name,
      ...launch(process.execPath, [
        ...entry,
        `--data-dir=${join(dir, name)}`,
        '--bind-address=127.0.0.1',
        `--secure-port=${port}`,
        `--cert-dir=${certDir}`,
        '--storage-backend=etcd3',
        `--etcd-servers=${(options.apiserverEtcdServers?.(name, etcdEndpoints) ?? etcdEndpoints).join(',')}`,
        ...(options.apiserverArgs ?? []),
      ]),
      port,
      logFile: join(dir, `${name}.log`),
      marker: join(dir, name),
      pid: undefined,
    };
  });
  const balancerFile = join(dir, 'balancer.cfg');
  const balancer: MemberState = {
    kind: 'balancer',
    name: 'balancer',
    command: haproxyBinary,
    args: ['-f', balancerFile],
    port: balancerPort,
    logFile: join(dir, 'balancer.log'),
    marker: join(dir, 'balancer'),
    pid: undefined,
  };
  const state: ClusterState = {
    dir,
    etcdEndpoints,
    url: `https://127.0.0.1:${balancerPort}`,
    kubeconfig: join(dir, 'admin.kubeconfig'),
    certDir,
    members: [...etcd, ...apiservers, balancer],
  };
  for (const m of etcd) await mkdir(join(dir, m.name), { recursive: true, mode: 0o700 });
  await writeFile(
    balancerFile,
    balancerConfig({ port: balancerPort, backends: apiservers, statsSocket: join(dir, 'balancer.sock') }),
  );
  await writeClusterState(state);
  await startRecorded(state, options);
  return state;
}

/**
 * Starts every recorded member that is not running: etcd, then the first API server (which
 * generates the shared certificates), the other API servers, the balancer; each step waits until
 * its members are healthy. Writes the balancer kubeconfig. On failure everything is stopped.
 */
async function startRecorded(state: ClusterState, options: ClusterUpOptions): Promise<void> {
  const log = options.log ?? (() => {});
  const timeoutMs = options.timeoutMs ?? 120_000;
  const cwd = repoRoot();
  const of = (kind: MemberState['kind']) => state.members.filter((m) => m.kind === kind);
  const start = async (group: readonly MemberState[]) => {
    for (const m of group) if (!isMemberProcess(m.pid, m.marker)) m.pid = spawnMember(m, cwd);
    await writeClusterState(state);
  };
  const caFile = join(state.certDir, 'ca.crt');
  try {
    const etcd = of('etcd');
    await start(etcd);
    await waitAll(etcd, (m) => probeEtcd(m.port), timeoutMs);
    log(`etcd: ${state.etcdEndpoints.join(', ')}`);
    const apiservers = of('apiserver');
    const [first, ...rest] = apiservers;
    for (const group of first ? [[first], rest] : []) {
      await start(group);
      const caPem = await waitForFile(caFile, group, timeoutMs);
      await waitAll(group, (m) => probeReadyz(m.port, caPem), timeoutMs);
    }
    log(`API servers: ${apiservers.map((m) => `https://127.0.0.1:${m.port}`).join(', ')}`);
    const balancer = of('balancer');
    await start(balancer);
    const caPem = await readFile(caFile, 'utf8');
    await waitAll(balancer, (m) => probeReadyz(m.port, caPem), timeoutMs);
    if (first) await writeBalancerKubeconfig(join(state.dir, first.name, 'admin.kubeconfig'), state);
    log(`balancer: ${state.url}; admin kubeconfig: ${state.kubeconfig}`);
  } catch (e) {
    await stopCluster(state, { kill: true });
    throw e;
  }
}

function etcdMembers(args: {
  dir: string;
  count: number;
  ports: readonly number[];
  binary: string;
  options: ClusterUpOptions;
}): MemberState[] {
  const { dir, count, ports, binary, options } = args;
  const peer = (i: number) => `http://127.0.0.1:${ports[count + i]}`;
  const initialCluster = Array.from({ length: count }, (_, i) => `etcd-${i}=${peer(i)}`).join(',');
  const token = `orch-${randomBytes(6).toString('hex')}`;
  return Array.from({ length: count }, (_, i) => {
    const name = `etcd-${i}`;
    const client = `http://127.0.0.1:${ports[i]}`;
    return {
      kind: 'etcd' as const,
      name,
      command: binary,
      args: [
        `--name=${name}`,
        `--data-dir=${join(dir, name)}`,
        `--listen-client-urls=${client}`,
        `--advertise-client-urls=${client}`,
        `--listen-peer-urls=${peer(i)}`,
        `--initial-advertise-peer-urls=${peer(i)}`,
        `--initial-cluster=${initialCluster}`,
        `--initial-cluster-token=${token}`,
        '--initial-cluster-state=new',
        `--heartbeat-interval=${options.etcdHeartbeatMs ?? 100}`,
        `--election-timeout=${options.etcdElectionTimeoutMs ?? 1000}`,
        `--max-request-bytes=${3 * 1024 * 1024}`,
        '--experimental-watch-progress-notify-interval=5s',
        '--logger=zap',
        '--log-level=warn',
      ],
      port: ports[i] as number,
      peerPort: ports[count + i] as number,
      logFile: join(dir, `${name}.log`),
      marker: join(dir, name),
      pid: undefined,
    };
  });
}

/** How to run `orch-apiserver` from here: the built file, or the TypeScript source through tsx. */
function apiserverEntry(): string[] {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return [join(dirname(here), '..', 'orch-apiserver.js')];
  return ['--import', 'tsx', join(dirname(here), '..', 'orch-apiserver.ts')];
}

/** The repository (or package) root: `--import tsx` resolves from the working directory. */
function repoRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
}

async function waitAll(
  members: readonly MemberState[],
  probe: (m: MemberState) => Promise<{ healthy: boolean; detail: string }>,
  timeoutMs: number,
): Promise<void> {
  await Promise.all(members.map((m) => waitHealthy(m, probe, timeoutMs)));
}

async function waitHealthy(
  m: MemberState,
  probe: (m: MemberState) => Promise<{ healthy: boolean; detail: string }>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'not probed';
  while (Date.now() < deadline) {
    if (!isMemberProcess(m.pid, m.marker)) {
      throw new ClusterStartError(`${m.name} exited during start:\n${logTail(m.logFile)}`);
    }
    const r = await probe(m);
    if (r.healthy) return;
    last = r.detail;
    await sleep(200);
  }
  throw new ClusterStartError(`${m.name} not healthy within ${timeoutMs} ms (${last}):\n${logTail(m.logFile)}`);
}

async function waitForFile(path: string, members: readonly MemberState[], timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      return await readFile(path, 'utf8');
    } catch {
      for (const m of members) {
        if (!isMemberProcess(m.pid, m.marker)) {
          throw new ClusterStartError(`${m.name} exited during start:\n${logTail(m.logFile)}`);
        }
      }
      await sleep(200);
    }
  }
  throw new ClusterStartError(`${path} was not written within ${timeoutMs} ms`);
}

/** Copies a replica's admin kubeconfig with every cluster's server set to the balancer. */
async function writeBalancerKubeconfig(from: string, state: ClusterState): Promise<void> {
  const doc = parse(await readFile(from, 'utf8')) as { clusters?: { cluster?: { server?: string } }[] };
  for (const c of doc.clusters ?? []) if (c.cluster) c.cluster.server = state.url;
  await writeFile(state.kubeconfig, stringify(doc), { mode: 0o600 });
}
