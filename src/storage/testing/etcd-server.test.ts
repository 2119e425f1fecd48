import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Etcd3 } from 'etcd3';
import { EtcdNotFoundError, etcdSkipReason, startEtcdServer } from './etcd-server.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (cond()) return true;
    await sleep(50);
  }
  return cond();
}

describe('startEtcdServer', { skip: etcdSkipReason() }, () => {
  it('starts on 127.0.0.1, restarts with the same data and endpoint, and cleans up', async () => {
    const server = await startEtcdServer();
    const client = new Etcd3({ hosts: server.endpoint });
    try {
      assert.match(server.endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
      const firstPid = server.pid;
      assert.ok(firstPid !== undefined && isAlive(firstPid));
      await client.put('/k').value('v1');

      await server.stop();
      assert.equal(server.pid, undefined);
      assert.equal(isAlive(firstPid), false);

      await server.start();
      assert.ok(server.pid !== undefined && server.pid !== firstPid);
      assert.equal(await client.get('/k').string(), 'v1');
    } finally {
      client.close();
      await server.dispose();
    }
    assert.equal(existsSync(server.dataDir), false);
    await server.dispose();
  });

  it('keeps a data directory the caller passed in', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orch-etcd-own-'));
    try {
      const server = await startEtcdServer({ dataDir: dir });
      await server.dispose();
      assert.equal(existsSync(join(dir, 'member')), true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails clearly when the etcd binary does not exist', async () => {
    await assert.rejects(startEtcdServer({ binary: '/nonexistent/etcd' }), EtcdNotFoundError);
  });

  it('does not outlive a parent process that is SIGKILLed or exits without disposing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orch-etcd-parent-'));
    const serverModule = fileURLToPath(new URL('./etcd-server.ts', import.meta.url));
    const script = join(dir, 'parent.mts');
    await writeFile(
      script,
      `import { startEtcdServer } from ${JSON.stringify(serverModule)};
const server = await startEtcdServer();
process.stdout.write(JSON.stringify({ pid: server.pid, dataDir: server.dataDir }) + '\\n');
if (process.argv[2] === 'kill') process.kill(process.pid, 'SIGKILL');
`,
    );
    try {
      for (const mode of ['kill', 'exit']) {
        const child = spawn(process.execPath, ['--import', 'tsx', script, mode], {
          cwd: fileURLToPath(new URL('../../..', import.meta.url)),
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (d: string) => {
          out += d;
        });
        await new Promise((resolve) => child.on('exit', resolve));
        const { pid, dataDir } = JSON.parse(out) as { pid: number; dataDir: string };
        assert.ok(pid > 0 && dataDir.length > 0, `parent started etcd (${mode}): ${out}`);
        assert.equal(await waitUntil(() => !isAlive(pid), 8000), true, `etcd ${pid} still alive after parent ${mode}`);
        assert.equal(await waitUntil(() => !existsSync(dataDir), 5000), true, `${dataDir} left behind (${mode})`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
