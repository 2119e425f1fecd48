import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, type ServerOptions, startServer } from '../../src/server/start-server.js';
import { apiOf } from '../support/api.js';
import { issueUserCertificate } from '../support/user-cert.js';

export interface InProcessServer {
  readonly server: RunningServer;
  readonly url: string;
  readonly admin: { ca: string; cert: string; key: string };
  readonly api: ReturnType<typeof apiOf>;
  /** Credentials of a user (not in `system:masters`) the server's CA vouches for. */
  userCredentials(name: string, groups?: readonly string[]): Promise<{ ca: string; cert: string; key: string }>;
  stop(): Promise<void>;
}

/** An Orch server in this process on 127.0.0.1 with a fresh embedded store; `stop` removes it. */
export async function startInProcess(options: ServerOptions & { dataDir?: string } = {}): Promise<InProcessServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'orch-pipeline-')));
  const server = await startServer({ dataDir, securePort: 0, bindAddress: '127.0.0.1', ...options });
  const admin = server.admin!;
  const target = { url: server.url, admin: { ...admin } };
  return {
    server,
    url: server.url,
    admin,
    api: apiOf(target),
    async userCredentials(name, groups = []) {
      return { ca: admin.ca, ...(await issueUserCertificate(dataDir, name, groups)) };
    },
    async stop() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
