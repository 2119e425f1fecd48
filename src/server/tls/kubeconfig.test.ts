import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { buildRequestAuthenticator } from '../../authn/request-authenticator.js';
import { X509Authenticator } from '../../authn/x509-authenticator.js';
import type { HttpExchange } from '../serving/exchange.js';
import { withServer } from '../serving/testing/server-fixture.js';
import { writeAdminKubeconfig } from './kubeconfig.js';
import { createTestPki, type TestPki } from './testing/test-pki.js';

const KUBECTL = '/usr/bin/kubectl';
const run = promisify(execFile);

let pki: TestPki;
before(async () => {
  pki = await createTestPki();
});
after(() => pki.cleanup());

async function writeFor(serverUrl: string): Promise<string> {
  const path = join(pki.dir, 'nested', 'admin.kubeconfig');
  await writeAdminKubeconfig({
    path,
    serverUrl,
    caPem: pki.certs.servingCa!,
    clientCertPem: pki.certs.admin!.cert,
    clientKeyPem: pki.certs.admin!.key,
  });
  return path;
}

describe('writeAdminKubeconfig', () => {
  it('writes a private kubeconfig with inlined credentials and a current context', async () => {
    const path = await writeFor('https://127.0.0.1:6443');
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    const text = await readFile(path, 'utf8');
    // The server's one YAML encoder: keys sorted, sequences flush with their key, as kubectl writes.
    assert.match(text, /^apiVersion: v1\nclusters:\n- cluster:\n {4}certificate-authority-data: \S+\n {4}server: /);
    const doc = parse(text);
    const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
    assert.equal(doc.apiVersion, 'v1');
    assert.equal(doc.kind, 'Config');
    assert.equal(doc['current-context'], 'orch');
    assert.deepEqual(doc.contexts, [{ name: 'orch', context: { cluster: 'orch', user: 'orch-admin' } }]);
    assert.equal(doc.clusters.length, 1);
    assert.equal(doc.clusters[0].name, 'orch');
    assert.equal(doc.clusters[0].cluster.server, 'https://127.0.0.1:6443');
    assert.equal(decode(doc.clusters[0].cluster['certificate-authority-data']), pki.certs.servingCa);
    assert.equal(doc.users.length, 1);
    assert.equal(doc.users[0].name, 'orch-admin');
    assert.equal(decode(doc.users[0].user['client-certificate-data']), pki.certs.admin!.cert);
    assert.equal(decode(doc.users[0].user['client-key-data']), pki.certs.admin!.key);
  });

  it('is accepted as is by kubectl, which authenticates as orch-admin', {
    skip: !existsSync(KUBECTL),
    timeout: 30_000,
  }, async () => {
    const authn = buildRequestAuthenticator({ authenticators: [new X509Authenticator()] });
    const seen: { protocol: string; user: string; url: string }[] = [];
    const handler = async (ex: HttpExchange): Promise<void> => {
      const result = await authn.authenticate(ex);
      seen.push({ protocol: ex.protocol, user: result.kind === 'user' ? result.user.name : result.kind, url: ex.url });
      if (ex.url.split('?')[0] !== '/version') {
        ex.respond(404, { 'content-type': 'application/json' }, '{}');
        return;
      }
      const info = {
        major: '1',
        minor: '32',
        gitVersion: 'v1.32.0-orch',
        gitCommit: 'test',
        gitTreeState: 'clean',
        buildDate: '2026-01-01T00:00:00Z',
        goVersion: 'node',
        compiler: 'tsc',
        platform: 'linux/amd64',
      };
      ex.respond(200, { 'content-type': 'application/json' }, JSON.stringify(info));
    };
    await withServer(pki.certs, handler, async (server) => {
      const path = await writeFor(server.url);
      const { stdout } = await run(KUBECTL, ['--kubeconfig', path, 'version', '--output=json'], {
        env: { PATH: process.env.PATH ?? '', HOME: pki.dir },
        timeout: 20_000,
      });
      const out = JSON.parse(stdout);
      assert.equal(out.serverVersion.gitVersion, 'v1.32.0-orch');
      assert.ok(seen.length >= 1);
      for (const s of seen) {
        assert.match(s.url, /^\/version(\?|$)/);
        assert.deepEqual([s.protocol, s.user], ['h2', 'orch-admin']);
      }
    });
  });
});
