import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants as fsConstants, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, delimiter, isAbsolute, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Thrown by {@link startEtcdServer} when no `etcd` executable can be found. */
export class EtcdNotFoundError extends Error {
  constructor(readonly searched: string) {
    super(
      `etcd executable not found (${searched}); install etcd 3.4+ (Debian: apt-get install etcd-server) ` +
        'or set ORCH_ETCD_BIN to its path',
    );
    this.name = 'EtcdNotFoundError';
  }
}

export interface EtcdServerOptions {
  /**
   * The data directory. When unset a fresh temporary directory is created and removed by
   * {@link EtcdServerHandle.dispose}; a directory passed here is left in place.
   */
  readonly dataDir?: string;
  /** Aborts the initial start (the process is killed). */
  readonly signal?: AbortSignal;
  /** The etcd executable: default `$ORCH_ETCD_BIN`, else `etcd` looked up on PATH. */
  readonly binary?: string;
  /**
   * etcd's `--max-request-bytes` (default 3 MiB). etcd's own default of 1.5 MiB rejects a
   * 1.5 MiB value once the key and our value header are added.
   */
  readonly maxRequestBytes?: number;
  /**
   * etcd's `--experimental-watch-progress-notify-interval` (default 250 ms, etcd's own default is
   * 10 min): how often idle watches that asked for progress notifications receive one.
   */
  readonly progressNotifyIntervalMs?: number;
  /** Further etcd flags, appended after ours (a later flag overrides an earlier one). */
  readonly extraArgs?: readonly string[];
  /** How long to wait for the server to report healthy (default 20 s). */
  readonly startTimeoutMs?: number;
  /** How long to wait after SIGTERM before SIGKILL (default 5 s). */
  readonly stopTimeoutMs?: number;
}

/** A single-member etcd listening on 127.0.0.1 only, for tests and benchmarks. */
export interface EtcdServerHandle {
  /** `http://127.0.0.1:<client port>`; stable across {@link stop}/{@link start}. */
  readonly endpoint: string;
  /** PID of the running etcd process; undefined while stopped. */
  readonly pid: number | undefined;
  readonly dataDir: string;
  /** SIGTERM by PID, SIGKILL after the stop timeout; resolves once the process has exited. */
  stop(): Promise<void>;
  /** Start again on the same ports and data (no-op while running); resolves once healthy. */
  start(signal?: AbortSignal): Promise<void>;
  /** {@link stop}, then remove the data directory if this helper created it. Idempotent. */
  dispose(): Promise<void>;
}

/**
 * Starts `etcd` on 127.0.0.1 with free client and peer ports and waits until `/health` reports
 * healthy. Single member, with short raft timings so restarts elect a leader in ~0.3 s.
 *
 * The process cannot outlive the caller: an `exit` handler SIGKILLs it, and a tiny watchdog shell
 * (holding a pipe to this process) terminates it when this process dies in any other way,
 * including SIGKILL. Both also remove a data directory this helper created.
 *
 * Throws {@link EtcdNotFoundError} when no etcd executable exists.
 */
export async function startEtcdServer(options: EtcdServerOptions = {}): Promise<EtcdServerHandle> {
  const binary = resolveEtcdBinary(options.binary);
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'orch-etcd-')));
  let lastError: unknown;
  // A port picked by binding port 0 can be taken again before etcd binds it; retry a few times.
  for (let attempt = 0; attempt < 3; attempt++) {
    const [clientPort, peerPort] = await freePorts(2);
    const server = new EtcdServer({ ...options, binary, dataDir, ownsDataDir, clientPort, peerPort });
    try {
      await server.start(options.signal);
      return server;
    } catch (e) {
      lastError = e;
      await server.stop();
      if (!(e instanceof EtcdStartError) || !e.portInUse) break;
      // Start over with a clean directory: the failed member may have written its identity.
      if (ownsDataDir) {
        await rm(dataDir, { recursive: true, force: true });
        await mkdir(dataDir, { mode: 0o700 });
      }
    }
  }
  if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
  throw lastError;
}

/** etcd exited or never became healthy. */
export class EtcdStartError extends Error {
  constructor(
    message: string,
    readonly portInUse: boolean,
  ) {
    super(message);
    this.name = 'EtcdStartError';
  }
}

interface ServerConfig extends EtcdServerOptions {
  readonly binary: string;
  readonly dataDir: string;
  readonly ownsDataDir: boolean;
  readonly clientPort: number;
  readonly peerPort: number;
}

class EtcdServer implements EtcdServerHandle {
  readonly endpoint: string;
  readonly dataDir: string;
  private child: ChildProcess | undefined;
  private watchdog: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private stderrTail: string[] = [];
  private disposed = false;
  private exitHookInstalled = false;
  private readonly onProcessExit = (): void => this.killNow();

  constructor(private readonly config: ServerConfig) {
    this.endpoint = `http://127.0.0.1:${config.clientPort}`;
    this.dataDir = config.dataDir;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(signal?: AbortSignal): Promise<void> {
    if (this.disposed) throw new Error('etcd server handle was disposed');
    if (this.child) return;
    signal?.throwIfAborted();
    const peerUrl = `http://127.0.0.1:${this.config.peerPort}`;
    const args = [
      '--name=orch-test',
      `--data-dir=${this.dataDir}`,
      `--listen-client-urls=${this.endpoint}`,
      `--advertise-client-urls=${this.endpoint}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=orch-test=${peerUrl}`,
      '--initial-cluster-state=new',
      '--heartbeat-interval=20',
      '--election-timeout=200',
      `--max-request-bytes=${this.config.maxRequestBytes ?? 3 * 1024 * 1024}`,
      `--experimental-watch-progress-notify-interval=${this.config.progressNotifyIntervalMs ?? 250}ms`,
      '--logger=zap',
      '--log-outputs=stderr',
      '--log-level=error',
      ...(this.config.extraArgs ?? []),
    ];
    const child = spawn(this.config.binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    this.stderrTail = [];
    this.exited = once(child, 'exit').then(() => undefined);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderrTail.push(...chunk.split('\n').filter((l) => l.length > 0));
      if (this.stderrTail.length > 40) this.stderrTail.splice(0, this.stderrTail.length - 40);
    });
    // The server must never keep the test process alive; the exit handler and watchdog reap it.
    child.unref();
    (child.stderr as { unref?: () => void } | null)?.unref?.();
    if (!this.exitHookInstalled) {
      process.on('exit', this.onProcessExit);
      this.exitHookInstalled = true;
    }
    if (child.pid !== undefined) {
      const removeDir = this.config.ownsDataDir ? this.dataDir : undefined;
      this.watchdog = spawnWatchdog(child.pid, this.config.binary, removeDir);
    }
    try {
      await this.waitHealthy(child, signal);
    } catch (e) {
      await this.stop();
      throw e;
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.killWatchdog();
    if (child.exitCode === null && child.signalCode === null) {
      // Keep the event loop alive until the (otherwise unref'd) process has exited.
      child.ref();
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), this.config.stopTimeoutMs ?? 5000);
      });
      const outcome = await Promise.race([this.exited, timeout]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        child.kill('SIGKILL');
        await this.exited;
      }
    }
    this.child = undefined;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.stop();
    this.disposed = true;
    process.off('exit', this.onProcessExit);
    if (this.config.ownsDataDir) await rm(this.dataDir, { recursive: true, force: true });
  }

  /** Synchronous last resort when this process exits without stopping the server. */
  private killNow(): void {
    this.killWatchdog();
    const pid = this.child?.pid;
    if (pid !== undefined && this.child?.exitCode === null) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (this.config.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  private killWatchdog(): void {
    const dog = this.watchdog;
    this.watchdog = undefined;
    if (!dog) return;
    // Kill it before closing its stdin: EOF on stdin is its signal to kill etcd.
    dog.kill('SIGKILL');
    dog.stdin?.destroy();
  }

  private async waitHealthy(child: ChildProcess, signal: AbortSignal | undefined): Promise<void> {
    const deadline = Date.now() + (this.config.startTimeoutMs ?? 20_000);
    let exited = false;
    void this.exited.then(() => {
      exited = true;
    });
    while (Date.now() < deadline) {
      signal?.throwIfAborted();
      if (exited || child.exitCode !== null) {
        const log = this.stderrTail.join('\n');
        throw new EtcdStartError(
          `etcd exited during start (code ${child.exitCode}, signal ${child.signalCode}):\n${log}`,
          /address already in use/.test(log),
        );
      }
      if (await this.isHealthy()) return;
      await sleep(25);
    }
    throw new EtcdStartError(
      `etcd did not become healthy within the start timeout:\n${this.stderrTail.join('\n')}`,
      false,
    );
  }

  private async isHealthy(): Promise<boolean> {
    try {
      const res = await fetch(`${this.endpoint}/health`, { signal: AbortSignal.timeout(1000) });
      const body = (await res.json()) as { health?: string };
      return res.ok && body.health === 'true';
    } catch {
      return false;
    }
  }
}

/**
 * A shell that blocks reading a pipe from this process; when this process dies the pipe closes
 * and the shell terminates etcd (checking that the PID still belongs to etcd) and removes the
 * data directory when this helper created it.
 */
function spawnWatchdog(pid: number, binary: string, removeDir: string | undefined): ChildProcess {
  const comm = basename(binary).slice(0, 15);
  const alive = '[ "$(cat /proc/$1/comm 2>/dev/null)" = "$2" ]';
  const script = [
    'read _ignored',
    `if ${alive}; then kill -TERM "$1" 2>/dev/null; fi`,
    `i=0; while [ $i -lt 30 ] && ${alive}; do sleep 0.1; i=$((i+1)); done`,
    `if ${alive}; then kill -KILL "$1" 2>/dev/null; sleep 0.2; fi`,
    'if [ -n "$3" ]; then rm -rf -- "$3"; fi',
  ].join('\n');
  const dog = spawn('/bin/sh', ['-c', script, 'orch-etcd-watchdog', String(pid), comm, removeDir ?? ''], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  dog.unref();
  (dog.stdin as { unref?: () => void } | null)?.unref?.();
  dog.stdin?.on('error', () => {});
  return dog;
}

/**
 * The etcd executable {@link startEtcdServer} would run (`binary`, else `$ORCH_ETCD_BIN`, else
 * `etcd` on PATH), or undefined when there is none. Lets test files decide to skip up front.
 */
export function findEtcdBinary(binary?: string): string | undefined {
  const wanted = binary ?? process.env.ORCH_ETCD_BIN ?? 'etcd';
  if (isAbsolute(wanted) || wanted.includes('/')) return isExecutable(wanted) ? wanted : undefined;
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((d) => d.length > 0);
  for (const dir of [...dirs, '/usr/bin', '/usr/local/bin']) {
    const candidate = join(dir, wanted);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function resolveEtcdBinary(explicit: string | undefined): string {
  const found = findEtcdBinary(explicit);
  if (found !== undefined) return found;
  const wanted = explicit ?? process.env.ORCH_ETCD_BIN ?? 'etcd';
  throw new EtcdNotFoundError(isAbsolute(wanted) || wanted.includes('/') ? wanted : `${wanted} on PATH`);
}

/**
 * The `skip` option for etcd test suites: a message when etcd is missing and `CI` is unset;
 * false otherwise (so on CI a missing etcd fails the suite through {@link EtcdNotFoundError}).
 */
export function etcdSkipReason(binary?: string): string | false {
  if (findEtcdBinary(binary) !== undefined || process.env.CI) return false;
  return 'etcd is not installed (apt-get install etcd-server, or set ORCH_ETCD_BIN); skipped because CI is unset';
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = createServer();
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      return server;
    }),
  );
  const ports = servers.map((s) => {
    const addr = s.address();
    if (addr === null || typeof addr === 'string') throw new Error('unexpected listen address');
    return addr.port;
  });
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return ports;
}
