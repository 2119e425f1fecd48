import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { bundledProgram } from './program-bundle.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface ControllerManagerProcess {
  readonly pid: number;
  /** `https://127.0.0.1:<port>` of its health and metrics endpoints. */
  readonly url: string;
  output(): string;
  /** GET of a path on its secure port (self-signed: not verified). */
  get(path: string): Promise<{ status: number; text: string }>;
  /** The `running_managed_controllers` series it reports: controller names. */
  running(): Promise<string[]>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolvePort(port));
    });
  });
}

/**
 * Starts `orch-controller-manager` (or `orch-cloud-controller-manager`), bundled from source, on 127.0.0.1
 * and waits for its start line; killed when the test process exits, whatever happens.
 */
export async function startControllerManagerProcess(o: {
  readonly cloud?: boolean;
  readonly args: readonly string[];
  readonly port: number;
  readonly timeoutMs?: number;
}): Promise<ControllerManagerProcess> {
  const cli = o.cloud ? 'src/cli/orch-cloud-controller-manager.ts' : 'src/cli/orch-controller-manager.ts';
  const child: ChildProcess = spawn(process.execPath, [...bundledProgram(cli), ...o.args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  await new Promise<void>((ready, reject) => {
    const timer = setTimeout(() => reject(new Error(`not started in time; output:\n${out}`)), o.timeoutMs ?? 30_000);
    const check = () => {
      if (/controller-manager started/.test(out)) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before starting; output:\n${out}`));
    });
  });
  const url = `https://127.0.0.1:${o.port}`;
  const get = (path: string) =>
    new Promise<{ status: number; text: string }>((done, reject) => {
      const req = request(new URL(path, url), { rejectUnauthorized: false }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => done({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end();
    });
  return {
    pid: child.pid!,
    url,
    output: () => out,
    get,
    async running() {
      const text = (await get('/metrics')).text;
      return [...text.matchAll(/^running_managed_controllers\{controller_name="([^"]+)",[^}]*\} 1$/gm)].map(
        (m) => m[1],
      );
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      process.removeListener('exit', killOnExit);
      return code;
    },
  };
}
