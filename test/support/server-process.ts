import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { bundledProgram } from './program-bundle.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface Credentials {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  readonly dataDir: string;
  readonly kubeconfig: string;
  readonly admin: Credentials;
  /** Everything the process printed so far on stdout and stderr. */
  output(): string;
  /** Sends a signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Stop, then remove the data directory (unless it was given). */
  dispose(): Promise<void>;
}

/**
 * Starts `orch-apiserver` as a child process on 127.0.0.1 with a random port and a temporary
 * data directory, and waits for its ready line. The process is killed when the test process
 * exits, whatever happens.
 */
export async function startServerProcess(
  opts: {
    args?: string[];
    dataDir?: string;
    timeoutMs?: number;
    /** A built JavaScript entry point run with plain `node` instead of the bundle of the TypeScript CLI. */
    entry?: string;
  } = {},
): Promise<ServerProcess> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'orch-test-'));
  const ownsDir = opts.dataDir === undefined;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(opts.entry ? [opts.entry] : bundledProgram('src/cli/orch-apiserver.ts')),
      `--data-dir=${dataDir}`,
      '--secure-port=0',
      '--bind-address=127.0.0.1',
      ...(opts.args ?? []),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server not ready in time; output:\n${out}`)),
      opts.timeoutMs ?? 20000,
    );
    const check = () => {
      const m = /serving on (https:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before ready; output:\n${out}`));
    });
  });
  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  const kc = parseYaml(readFileSync(kubeconfig, 'utf8'));
  const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
  const admin: Credentials = {
    ca: b64(kc.clusters[0].cluster['certificate-authority-data']),
    cert: b64(kc.users[0].user['client-certificate-data']),
    key: b64(kc.users[0].user['client-key-data']),
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
    const code = await exited;
    clearTimeout(timer);
    process.removeListener('exit', killOnExit);
    return code;
  };
  return {
    url,
    pid: child.pid!,
    dataDir,
    kubeconfig,
    admin,
    output: () => out,
    stop,
    async dispose() {
      await stop('SIGKILL');
      if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
