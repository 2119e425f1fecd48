import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SERVER_ENVIRONMENT } from '../server-environment.js';
import type { MemberState } from './cluster-state.js';

/**
 * Starts a member's process detached from this one (its own process group, output appended to
 * its log file), so it outlives `up`. Returns its PID.
 */
export function spawnMember(member: Pick<MemberState, 'command' | 'args' | 'logFile'>, cwd: string): number {
  const fd = openSync(member.logFile, 'a');
  try {
    // Every member with the API server's environment (etcd, a Go program, ignores it).
    const env = { ...process.env, ...SERVER_ENVIRONMENT };
    const child = spawn(member.command, [...member.args], { cwd, detached: true, env, stdio: ['ignore', fd, fd] });
    child.unref();
    if (child.pid === undefined) throw new Error(`could not start ${member.command}`);
    return child.pid;
  } finally {
    closeSync(fd);
  }
}

/** The kernel's flag for its own threads in `/proc/<pid>/stat`. */
const PF_KTHREAD = 0x00200000;

/**
 * True when `pid` is alive and is the process the member describes: its command line contains
 * the member's first argument that names a path in the state directory (`marker`). Guards
 * against signalling an unrelated process that reused the PID.
 */
export function isMemberProcess(pid: number | undefined, marker: string): boolean {
  if (pid === undefined) return false;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name: state, ppid, pgrp, session, tty, tpgid, flags, ...
    const [state, , , , , , flags] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie (state Z) has exited already; a kernel thread is never a member.
    if (state === 'Z' || (Number(flags) & PF_KTHREAD) !== 0) return false;
    // While a process is inside execve (a member's launcher running the next program), its
    // command line reads empty for a moment: it is still the process that was started.
    return cmdline === '' || cmdline.split('\0').some((a) => a.includes(marker));
  } catch {
    return false;
  }
}

export interface StopOptions {
  /** How long to wait after SIGTERM before SIGKILL (default 10 s). */
  readonly graceMs?: number;
  /** Send SIGKILL at once (a crash, for failover tests). */
  readonly kill?: boolean;
}

/** Signals `pid` (only when it is still the member's process) and waits until it is gone. */
export async function stopPid(pid: number | undefined, marker: string, options: StopOptions = {}): Promise<void> {
  if (!isMemberProcess(pid, marker) || pid === undefined) return;
  signal(pid, options.kill ? 'SIGKILL' : 'SIGTERM');
  const deadline = Date.now() + (options.graceMs ?? 10_000);
  while (isMemberProcess(pid, marker)) {
    if (Date.now() > deadline) {
      signal(pid, 'SIGKILL');
      await sleep(100);
      if (!isMemberProcess(pid, marker)) return;
    }
    await sleep(50);
  }
}

/** Sends `sig` to `pid`, ignoring a process that is already gone. */
export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

/** `count` distinct ports free on 127.0.0.1 right now (bound to port 0, then released). */
export async function freePorts(count: number): Promise<number[]> {
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

/** The last `lines` lines of a log file, for error messages. */
export function logTail(path: string, lines = 15): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
