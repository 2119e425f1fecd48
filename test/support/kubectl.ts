import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * kubectl's discovery cache for this test process, removed when it exits: kubectl keys its cache
 * by host and port, and a port reused by another test process's server (of the other API domain)
 * would otherwise be answered from that server's discovery (a fixed unwritable path does not help
 * when the tests run as root, who can create it). Within one process the cache is shared, as
 * kubectl's is between commands.
 */
const CACHE_DIR = mkdtempSync(join(tmpdir(), 'orch-kubectl-cache-'));
process.once('exit', () => rmSync(CACHE_DIR, { recursive: true, force: true }));

const kubectlEnv = (extra: Readonly<Record<string, string>> = {}) => ({
  ...process.env,
  KUBECACHEDIR: CACHE_DIR,
  ...extra,
});

/**
 * Runs the real kubectl against a kubeconfig; never throws for a non-zero exit. `env` adds
 * variables (e.g. `KUBE_EDITOR`) to the inherited environment.
 */
export function kubectl(
  kubeconfig: string,
  args: readonly string[],
  input?: string,
  env?: Readonly<Record<string, string>>,
): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, ...args],
      { timeout: 60000, env: kubectlEnv(env) },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** A long-running kubectl (e.g. `get -w`) whose output is collected as it arrives. */
export interface KubectlProcess {
  stdout(): string;
  stderr(): string;
  /** Resolves when `stream`'s output so far matches `pattern`; rejects after `timeoutMs`. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Ends the process (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts the real kubectl without waiting for it to end. */
export function startKubectl(kubeconfig: string, args: readonly string[]): KubectlProcess {
  const child: ChildProcess = spawn('kubectl', ['--kubeconfig', kubeconfig, ...args], {
    env: kubectlEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d) => (out.stdout += d));
  child.stderr!.on('data', (d) => (out.stderr += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    async waitFor(stream, pattern, timeoutMs = 15000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out[stream])) {
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(
            `kubectl ${args.join(' ')}: no ${pattern} on ${stream} (exit ${child.exitCode})\nstdout:\n${out.stdout}\nstderr:\n${out.stderr}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      process.removeListener('exit', killOnExit);
    },
  };
}
