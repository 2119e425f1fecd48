import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { SERVER_ENVIRONMENT } from '../../src/cli/server-environment.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface BenchServer {
  readonly url: string;
  readonly pid: number;
  readonly startMs: number;
  readonly admin: { ca: string; cert: string; key: string };
  rssBytes(): number;
  /** The anonymous part of the RSS (heap, buffers): without the store's memory-mapped file pages. */
  anonRssBytes(): number;
  /** CPU time (user + system) the server has used so far, in milliseconds. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** Starts the built server (`dist/`) as its own process, as users run it, and times start-up. */
export async function startBenchServer(dataDir: string, args: string[] = []): Promise<BenchServer> {
  const t0 = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [join(ROOT, 'dist/cli/orch-apiserver.js'), `--data-dir=${dataDir}`, '--secure-port=0', ...args],
    // As `npm start` runs it.
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...SERVER_ENVIRONMENT } },
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let out = '';
  const url = await new Promise<string>((res, rej) => {
    const onData = (d: Buffer) => {
      out += d;
      const m = /serving on (https:\/\/\S+)/.exec(out);
      if (m) res(m[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (c) => rej(new Error(`server exited ${c}: ${out}`)));
  });
  const startMs = performance.now() - t0;
  const kc = parseYaml(readFileSync(join(dataDir, 'admin.kubeconfig'), 'utf8'));
  const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
  return {
    url,
    pid: child.pid!,
    startMs,
    admin: {
      ca: b64(kc.clusters[0].cluster['certificate-authority-data']),
      cert: b64(kc.users[0].user['client-certificate-data']),
      key: b64(kc.users[0].user['client-key-data']),
    },
    rssBytes() {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : Number.NaN;
    },
    cpuMs() {
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime, fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    anonRssBytes() {
      const m = /RssAnon:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : Number.NaN;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
