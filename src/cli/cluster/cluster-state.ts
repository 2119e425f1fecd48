import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What kind of process a cluster member is. */
export type MemberKind = 'etcd' | 'apiserver' | 'balancer';

/** One process `up` started: enough to check, stop and start it again. */
export interface MemberState {
  readonly kind: MemberKind;
  /** Unique in the cluster: `etcd-0`, `apiserver-1`, `balancer`. */
  readonly name: string;
  /** The executable and its arguments (every path inside the state directory). */
  readonly command: string;
  readonly args: readonly string[];
  /** The port clients use (etcd client port, API server secure port, balancer port). */
  readonly port: number;
  /** etcd only: the peer port. */
  readonly peerPort?: number;
  readonly logFile: string;
  /** A path inside the state directory on the process's command line: proves a PID is still ours. */
  readonly marker: string;
  /** PID of the running process; undefined once stopped by this tool. */
  pid: number | undefined;
}

/** The whole cluster as written to `<dir>/cluster.json`. */
export interface ClusterState {
  readonly dir: string;
  /** `http://127.0.0.1:<port>` of every etcd member. */
  readonly etcdEndpoints: readonly string[];
  /** `https://127.0.0.1:<port>` of the balancer. */
  readonly url: string;
  /** The admin kubeconfig pointing at the balancer. */
  readonly kubeconfig: string;
  /** The shared certificate directory (CA, serving pair, service-account signing key). */
  readonly certDir: string;
  readonly members: MemberState[];
}

/** Thrown when the state directory holds no (or an unreadable) cluster description. */
export class ClusterStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterStateError';
  }
}

/** Path of the state file in `dir`. */
export function stateFile(dir: string): string {
  return join(dir, 'cluster.json');
}

/** Reads `<dir>/cluster.json`; undefined when there is none. */
export async function readClusterState(dir: string): Promise<ClusterState | undefined> {
  let text: string;
  try {
    text = await readFile(stateFile(dir), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const parsed = JSON.parse(text) as ClusterState;
    if (!Array.isArray(parsed.members)) throw new Error('members is not a list');
    return parsed;
  } catch (e) {
    throw new ClusterStateError(`${stateFile(dir)}: not a cluster state file: ${(e as Error).message}`);
  }
}

/** Writes the state atomically (temporary file, then rename). */
export async function writeClusterState(state: ClusterState): Promise<void> {
  const path = stateFile(state.dir);
  await writeFile(`${path}.tmp`, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}

/** The member called `name`; throws when there is none. */
export function memberNamed(state: ClusterState, name: string): MemberState {
  const m = state.members.find((x) => x.name === name);
  if (!m)
    throw new ClusterStateError(
      `no cluster member named ${name} (have ${state.members.map((x) => x.name).join(', ')})`,
    );
  return m;
}
