import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { bundledProgram } from '../support/program-bundle.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const orchctlProgram = () => bundledProgram('src/cli/orchctl.ts');

/** The real kubectl is installed (parity checks are skipped without it). */
export const HAVE_KUBECTL = existsSync('/usr/bin/kubectl');

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function env(extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!('KUBECONFIG' in extra)) delete e.KUBECONFIG;
  if (!('ORCHCONFIG' in extra)) delete e.ORCHCONFIG;
  return e;
}

function run(file: string, args: readonly string[], extra: Readonly<Record<string, string>>): Promise<CommandResult> {
  return new Promise((done) => {
    execFile(file, [...args], { cwd: ROOT, timeout: 60000, env: env(extra) }, (err, stdout, stderr) => {
      const code = err
        ? typeof (err as { code?: unknown }).code === 'number'
          ? (err as { code: number }).code
          : 1
        : 0;
      done({ code, stdout, stderr });
    });
  });
}

/** Runs the real `orchctl` command (bundled from src/cli/orchctl.ts); never throws for a non-zero exit. */
export function orchctl(
  args: readonly string[],
  extraEnv: Readonly<Record<string, string>> = {},
): Promise<CommandResult> {
  return run(process.execPath, [...orchctlProgram(), ...args], extraEnv);
}

/**
 * Runs kubectl with the same arguments. Pass a `KUBECACHEDIR` of the test's own: kubectl keys its
 * discovery cache by host and port, and a port reused from another test's server would answer
 * from that server's cached discovery.
 */
export function kubectlRun(
  args: readonly string[],
  extraEnv: Readonly<Record<string, string>> = {},
): Promise<CommandResult> {
  return run('/usr/bin/kubectl', args, extraEnv);
}

/** A long-running command (`get -w`) whose output is collected as it arrives. */
export interface RunningCommand {
  stdout(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** The exit code, or undefined while running. */
  exitCode(): number | undefined;
  /** Resolves with the exit code when the command ends. */
  exited(): Promise<number | null>;
  stop(): Promise<void>;
}

/** Starts `orchctl` (or kubectl with `kubectl: true`) without waiting for it to end. */
export function startCommand(
  args: readonly string[],
  o: { kubectl?: boolean; env?: Readonly<Record<string, string>> } = {},
): RunningCommand {
  const options = { cwd: ROOT, env: env(o.env ?? {}), stdio: ['ignore', 'pipe', 'pipe'] as ('ignore' | 'pipe')[] };
  const child: ChildProcess = o.kubectl
    ? spawn('/usr/bin/kubectl', [...args], options)
    : spawn(process.execPath, [...orchctlProgram(), ...args], options);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d) => {
    out.stdout += d;
  });
  child.stderr!.on('data', (d) => {
    out.stderr += d;
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    stdout: () => out.stdout,
    exitCode: () => child.exitCode ?? undefined,
    exited: () => exited,
    async waitFor(pattern, timeoutMs = 15000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out.stdout)) {
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(`${args.join(' ')}: no ${pattern}\nstdout:\n${out.stdout}\nstderr:\n${out.stderr}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Ages (`5s`, `3m12s`, `2d`) replaced and column spacing collapsed: tables printed a moment apart compare equal. */
export function withoutAges(text: string): string {
  return text
    .replace(/\b(\d+[smhdy])+\b/g, '<age>')
    .replace(/ {2,}/g, '  ')
    .replace(/ +\n/g, '\n');
}
