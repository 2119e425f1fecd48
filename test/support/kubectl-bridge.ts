import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HttpBridge, startHttpBridge } from '../../src/server/testing/http-bridge.js';
import { type InProcessServer, startInProcessServer } from '../../src/server/testing/in-process-server.js';

export const KUBECTL = '/usr/bin/kubectl';

export interface KubectlRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The real kubectl against the server's handler in process, through a plain-HTTP bridge. */
export interface KubectlBridge {
  readonly server: InProcessServer;
  readonly bridge: HttpBridge;
  /** kubectl's home (its cache lives here); a scratch folder for test files too. */
  readonly home: string;
  /** kubectl's arguments to reach the bridge, then `rest`. */
  args(...rest: string[]): string[];
  /** kubectl's environment: no kubeconfig, the home above. */
  env(): NodeJS.ProcessEnv;
  /** Runs kubectl to its end; never throws for a non-zero exit. */
  run(...rest: string[]): Promise<KubectlRun>;
  close(): Promise<void>;
}

export async function startKubectlBridge(prefix: string): Promise<KubectlBridge> {
  const home = mkdtempSync(join(tmpdir(), prefix));
  const server = await startInProcessServer();
  const bridge = await startHttpBridge(server.handler);
  const args = (...rest: string[]) => ['--server', bridge.url, '--cache-dir', join(home, 'cache'), ...rest];
  const env = () => ({ PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: join(home, 'none') });
  return {
    server,
    bridge,
    home,
    args,
    env,
    run: (...rest) =>
      new Promise((resolve) => {
        execFile(KUBECTL, args(...rest), { env: env(), timeout: 30_000 }, (err, stdout, stderr) =>
          resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
        );
      }),
    async close() {
      await bridge.close();
      await server.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
