import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiOf } from '../support/api.js';
import { h2request, request } from '../support/http-client.js';
import { bundledProgram } from '../support/program-bundle.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

function runCli(args: string[]) {
  return spawnSync(process.execPath, [...bundledProgram('src/cli/orch-apiserver.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 20000,
  });
}

describe('orch-apiserver secure serving', () => {
  let server: ServerProcess;
  before(async () => {
    server = await startServerProcess();
  });
  after(async () => server?.dispose());

  it('logs one ready line with the URL and the admin kubeconfig path', () => {
    const lines = server
      .output()
      .split('\n')
      .filter((l) => l.includes('serving on'));
    assert.equal(lines.length, 1);
    assert.match(lines[0], /serving on https:\/\/127\.0\.0\.1:\d+ .*admin kubeconfig: .*admin\.kubeconfig/);
  });

  it('serves HTTP/2 through ALPN and HTTP/1.1 on the same port', async () => {
    const h2 = await h2request(server.url, '/version', { ca: server.admin.ca, as: server.admin });
    assert.equal(h2.alpn, 'h2');
    assert.equal(h2.status, 200);
    assert.equal(h2.json().major, '1');
    const h1 = await request(server.url, '/version', { ca: server.admin.ca, as: server.admin });
    assert.equal(h1.status, 200);
    assert.equal(h1.json().minor, '32');
  });

  it('generates a CA, serving and admin certificates and a kubeconfig under the data directory', () => {
    for (const f of [
      'pki/ca.crt',
      'pki/ca.key',
      'pki/apiserver.crt',
      'pki/apiserver.key',
      'pki/admin.crt',
      'pki/admin.key',
      'admin.kubeconfig',
    ]) {
      assert.ok(existsSync(join(server.dataDir, f)), `${f} exists`);
    }
    const kc = readFileSync(server.kubeconfig, 'utf8');
    assert.match(kc, new RegExp(`server: ${server.url.replace(/\./g, '\\.')}`));
  });

  it('lets anonymous users read health endpoints and /version under the default RBAC, and nothing else', async () => {
    const { anonymous } = apiOf(server);
    for (const p of ['/healthz', '/livez', '/readyz', '/version']) {
      assert.equal((await anonymous('GET', p)).status, 200, p);
    }
    const r = await anonymous('GET', '/api/v1/namespaces');
    assert.equal(r.status, 403);
    assert.equal(
      r.json().message,
      'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
  });

  it("turns anonymous requests off under AlwaysAllow, with kube-apiserver's warning", async () => {
    const open = await startServerProcess({ args: ['--authorization-mode=AlwaysAllow'] });
    try {
      const r = await apiOf(open).anonymous('GET', '/healthz');
      assert.equal(r.status, 401);
      assert.equal(r.json().reason, 'Unauthorized');
      assert.equal((await apiOf(open).admin('GET', '/healthz')).status, 200);
      assert.match(open.output(), /AnonymousAuth is not allowed with the AlwaysAllow authorizer/);
    } finally {
      await open.dispose();
    }
  });

  it('rejects a client certificate from a foreign CA with 401', async () => {
    const { generateForeignClient } = await import('../support/foreign-cert.js');
    const foreign = await generateForeignClient();
    const r = await request(server.url, '/api/v1/namespaces', {
      ca: server.admin.ca,
      as: { ...server.admin, ...foreign },
    });
    assert.equal(r.status, 401);
    assert.equal(r.json().kind, 'Status');
    assert.equal(r.json().reason, 'Unauthorized');
  });

  it('reuses the certificates and the data on a restart with the same data directory', async () => {
    const caBefore = readFileSync(join(server.dataDir, 'pki/ca.crt'), 'utf8');
    assert.equal(await server.stop('SIGTERM'), 0);
    const again = await startServerProcess({ dataDir: server.dataDir });
    try {
      assert.equal(readFileSync(join(server.dataDir, 'pki/ca.crt'), 'utf8'), caBefore);
      const r = await request(again.url, '/api/v1/namespaces/default', { ca: again.admin.ca, as: again.admin });
      assert.equal(r.status, 200);
    } finally {
      await again.stop('SIGTERM');
    }
  });
});

describe('orch-apiserver flags', () => {
  it('exits non-zero with a one-line error on an unknown flag', () => {
    const r = runCli(['--no-such-flag']);
    assert.notEqual(r.status, 0);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0], /unknown flag: --no-such-flag/);
  });

  it('exits non-zero with a one-line error on a bad value', () => {
    const r = runCli(['--secure-port=abc']);
    assert.notEqual(r.status, 0);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0], /secure-port/);
  });

  it('rejects an unsupported authorization mode and an unknown feature gate', () => {
    assert.notEqual(runCli(['--authorization-mode=Bogus']).status, 0);
    const r = runCli(['--feature-gates=NoSuchGate=true']);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /NoSuchGate/);
  });

  it('refuses a --runtime-config naming what is not served, with one line and exit 1', () => {
    const rows: [string, string][] = [
      ['foo.orch.io/v1', 'Error: unknown api groups foo.orch.io'],
      ['coordination.orch.io/v2=true', 'Error: group version coordination.orch.io/v2 that has not been registered'],
      [
        'coordination.orch.io/v1/foos=false',
        'Error: resource foos of group version coordination.orch.io/v1 that has not been registered',
      ],
    ];
    const dataDir = join(mkdtempSync(join(tmpdir(), 'orch-rc-')), 'data');
    try {
      for (const [value, line] of rows) {
        const r = runCli([`--runtime-config=${value}`, '--secure-port=0', `--data-dir=${dataDir}`]);
        assert.equal(r.status, 1, r.stderr);
        assert.deepEqual(r.stderr.trim().split('\n'), [line]);
        assert.equal(existsSync(dataDir), false, 'start-up went on after the flags were refused');
      }
    } finally {
      rmSync(dirname(dataDir), { recursive: true, force: true });
    }
  });

  it('prints usage for --help', () => {
    const r = runCli(['--help']);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /--secure-port/);
    assert.match(r.stdout, /--storage-backend/);
  });
});
