import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { KubeconfigError, loadKubeconfig } from './kubeconfig.js';
import { resourceUrlPath } from './rest-client.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('loadKubeconfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-kubeconfig-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, doc: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof doc === 'string' ? doc : stringify(doc));
    return path;
  };
  const config = (user: Record<string, unknown>, cluster: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443', ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [
      { name: 'ctx', context: { cluster: 'c', user: 'u' } },
      { name: 'other', context: { cluster: 'c' } },
    ],
    'current-context': 'ctx',
  });

  it('reads inline client certificate, key and CA of the current context', async () => {
    const path = write(
      'inline',
      config(
        { 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') },
        { 'certificate-authority-data': b64('CA') },
      ),
    );
    assert.deepEqual(await loadKubeconfig(path), {
      server: 'https://127.0.0.1:6443',
      ca: 'CA',
      cert: 'CERT',
      key: 'KEY',
      token: undefined,
    });
  });

  it('reads files relative to the kubeconfig and a token file; a context without user has no credentials', async () => {
    writeFileSync(join(dir, 'ca.pem'), 'CA-FILE');
    writeFileSync(join(dir, 'token'), 'secret-token\n');
    const path = write('files', config({ tokenFile: 'token' }, { 'certificate-authority': 'ca.pem' }));
    const rc = await loadKubeconfig(path);
    assert.equal(rc.ca, 'CA-FILE');
    assert.equal(rc.token, 'secret-token');
    assert.deepEqual(await loadKubeconfig(path, 'other'), {
      server: 'https://127.0.0.1:6443',
      ca: 'CA-FILE',
      cert: undefined,
      key: undefined,
      token: undefined,
    });
  });

  const broken: { name: string; doc: unknown; message: RegExp }[] = [
    { name: 'not YAML', doc: 'a: [', message: /broken-0: / },
    {
      name: 'no current context',
      doc: { ...config({}), 'current-context': '' },
      message: /current-context is not set/,
    },
    { name: 'unknown context', doc: { ...config({}), 'current-context': 'nope' }, message: /context "nope" not found/ },
    {
      name: 'no server',
      doc: { ...config({}), clusters: [{ name: 'c', cluster: {} }] },
      message: /clusters\[c\]\.cluster\.server: server is not set/,
    },
    {
      name: 'unreadable CA file',
      doc: config({}, { 'certificate-authority': 'missing.pem' }),
      message: /certificate-authority: cannot read \S*missing\.pem/,
    },
  ];
  broken.forEach((b, i) => {
    it(`names the problem: ${b.name}`, async () => {
      await assert.rejects(loadKubeconfig(write(`broken-${i}`, b.doc)), (e: unknown) => {
        assert.ok(e instanceof KubeconfigError);
        assert.match(e.message, b.message);
        return true;
      });
    });
  });
});

describe('resourceUrlPath', () => {
  it('builds core and group paths, namespaced or not', () => {
    assert.equal(
      resourceUrlPath({ group: '', version: 'v1', resource: 'namespaces', name: 'a' }),
      '/api/v1/namespaces/a',
    );
    assert.equal(
      resourceUrlPath({
        group: 'coordination.orch.io',
        version: 'v1',
        resource: 'leases',
        namespace: 'orch-system',
        name: 'x_1',
      }),
      '/apis/coordination.orch.io/v1/namespaces/orch-system/leases/x_1',
    );
  });
});
