import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { bundledProgram } from '../support/program-bundle.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SCRIPT = 'test/leaderelection/candidate-process.ts';

/** One line the candidate process printed. */
export interface CandidateEvent {
  readonly event: 'ready' | 'belief' | 'started' | 'stopped' | 'new-leader';
  readonly t: number;
  readonly leader?: boolean;
  readonly until?: number;
  readonly holder?: string;
}

export interface CandidateProcess {
  readonly identity: string;
  readonly pid: number;
  readonly events: CandidateEvent[];
  /** Resolves with the first event (from now on, or already seen) matching `pred`. */
  waitFor(what: string, pred: (e: CandidateEvent) => boolean, timeoutMs?: number): Promise<CandidateEvent>;
  /** SIGSTOP / SIGCONT: the whole process, timers included, stops and resumes. */
  pause(): void;
  resume(): void;
  /** SIGTERM and wait for the exit (the lease is released if held). */
  stop(): Promise<void>;
  output(): string;
}

export interface CandidateOptions {
  readonly kubeconfig: string;
  readonly identity: string;
  /** Lease name in the system namespace; default `orch-controller-manager`. */
  readonly lease?: string;
  readonly leaseDurationMs?: number;
  readonly renewDeadlineMs?: number;
  readonly retryPeriodMs?: number;
  readonly skewMs?: number;
  readonly coordinated?: boolean;
  readonly emulationVersion?: string;
}

/** Starts `candidate-process.ts` and waits until it campaigns. Killed when the test process exits. */
export async function startCandidate(o: CandidateOptions): Promise<CandidateProcess> {
  const args = [
    ...bundledProgram(SCRIPT),
    `--kubeconfig=${o.kubeconfig}`,
    `--identity=${o.identity}`,
    `--lease=${o.lease ?? 'orch-controller-manager'}`,
    `--lease-duration=${o.leaseDurationMs ?? 6000}`,
    `--renew-deadline=${o.renewDeadlineMs ?? 4000}`,
    `--retry-period=${o.retryPeriodMs ?? 500}`,
    `--skew-ms=${o.skewMs ?? 0}`,
    `--emulation-version=${o.emulationVersion ?? '1.32.0'}`,
    ...(o.coordinated ? ['--coordinated'] : []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const events: CandidateEvent[] = [];
  const waiters = new Set<() => void>();
  let out = '';
  let partial = '';
  child.stdout!.on('data', (d: Buffer) => {
    partial += d.toString('utf8');
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      out += `${line}\n`;
      try {
        events.push(JSON.parse(line) as CandidateEvent);
      } catch {
        // Not an event line.
      }
    }
    for (const w of [...waiters]) w();
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const waitFor = (what: string, pred: (e: CandidateEvent) => boolean, timeoutMs = 30_000) =>
    new Promise<CandidateEvent>((resolveEvent, reject) => {
      const check = () => {
        const e = events.find(pred);
        if (!e) return false;
        clearTimeout(timer);
        waiters.delete(check);
        resolveEvent(e);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${o.identity}: timed out waiting for ${what}; output:\n${out}`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });
  const proc: CandidateProcess = {
    identity: o.identity,
    pid: child.pid ?? 0,
    events,
    waitFor,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }
      await exited;
      process.removeListener('exit', killOnExit);
    },
    output: () => out,
  };
  await waitFor('ready', (e) => e.event === 'ready');
  return proc;
}

/**
 * The wall-clock intervals in which a candidate may have acted as leader: from each sample that
 * found it leading to the deadline it had then (a later renewal extends it), cut short by a
 * sample that found it no longer leading.
 */
export function beliefIntervals(events: readonly CandidateEvent[]): [number, number][] {
  const intervals: [number, number][] = [];
  for (const e of events) {
    if (e.event !== 'belief') continue;
    const last = intervals[intervals.length - 1];
    if (!e.leader) {
      if (last) last[1] = Math.min(last[1], e.t);
      continue;
    }
    if (e.until === undefined) continue;
    if (last && e.t <= last[1]) last[1] = Math.max(last[1], e.until);
    else intervals.push([e.t, e.until]);
  }
  return intervals;
}

/** Pairs of intervals of different owners that overlap. */
export function overlaps(byOwner: Record<string, [number, number][]>): string[] {
  const found: string[] = [];
  const owners = Object.keys(byOwner);
  for (let i = 0; i < owners.length; i++) {
    for (let j = i + 1; j < owners.length; j++) {
      for (const [a0, a1] of byOwner[owners[i]]) {
        for (const [b0, b1] of byOwner[owners[j]]) {
          if (a0 < b1 && b0 < a1) found.push(`${owners[i]} [${a0}, ${a1}] and ${owners[j]} [${b0}, ${b1}]`);
        }
      }
    }
  }
  return found;
}
