import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import {
  loadWebhookClientConfig,
  parseWebhookClientConfig,
  WebhookClientConfigError,
} from './webhook-client-config.js';

const FLAG = '--authentication-token-webhook-config-file';

function kubeconfig(
  cluster: Record<string, unknown>,
  user: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'authn', cluster }],
    users: [{ name: 'apiserver', user }],
    contexts: [{ name: 'webhook', context: { cluster: 'authn', user: 'apiserver' } }],
    'current-context': 'webhook',
    ...extra,
  });
}

describe('parseWebhookClientConfig', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-webhook-config-'));
    await mkdir(join(dir, 'pki'));
    await writeFile(join(dir, 'pki', 'ca.crt'), 'CA PEM\n');
    await writeFile(join(dir, 'pki', 'client.crt'), 'CLIENT PEM\n');
    await writeFile(join(dir, 'pki', 'client.key'), 'KEY PEM\n');
    await writeFile(join(dir, 'token'), 'file-token\n');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads server, CA and client certificate, resolving paths against the file’s directory', async () => {
    const c = await parseWebhookClientConfig(
      kubeconfig(
        { server: 'https://127.0.0.1:8443/authenticate?x=1', 'certificate-authority': 'pki/ca.crt' },
        { 'client-certificate': 'pki/client.crt', 'client-key': join(dir, 'pki', 'client.key') },
      ),
      dir,
      FLAG,
    );
    assert.equal(c.server.href, 'https://127.0.0.1:8443/authenticate?x=1');
    assert.equal(c.ca, 'CA PEM\n');
    assert.equal(c.clientCert, 'CLIENT PEM\n');
    assert.equal(c.clientKey, 'KEY PEM\n');
    assert.equal(c.token, undefined);
    assert.equal(c.insecureSkipTlsVerify, false);
  });

  it('reads -data fields, tokens and token files', async () => {
    const data = (s: string) => Buffer.from(s).toString('base64');
    const c = await parseWebhookClientConfig(
      kubeconfig(
        { server: 'https://h', 'certificate-authority-data': data('CA'), 'tls-server-name': 'authn.local' },
        { 'client-certificate-data': data('C'), 'client-key-data': data('K'), token: 'tok' },
      ),
      dir,
      FLAG,
    );
    assert.deepEqual([c.ca, c.clientCert, c.clientKey, c.token, c.serverName], ['CA', 'C', 'K', 'tok', 'authn.local']);
    const f = await parseWebhookClientConfig(kubeconfig({ server: 'https://h' }, { tokenFile: 'token' }), dir, FLAG);
    assert.equal(f.token, 'file-token');
  });

  const invalid: { name: string; text: () => string; problems: string[] }[] = [
    { name: 'an empty file', text: () => '', problems: ['invalid configuration: no configuration has been provided'] },
    {
      name: 'not YAML',
      text: () => 'a: [',
      problems: [
        'not a valid client configuration: Flow sequence in block collection must be sufficiently indented and end with a ] at line 1, column 5:',
      ],
    },
    {
      name: 'no current context',
      text: () => kubeconfig({ server: 'https://h' }, {}, { 'current-context': '' }),
      problems: ['current-context: Required value'],
    },
    {
      name: 'an unknown current context',
      text: () => kubeconfig({ server: 'https://h' }, {}, { 'current-context': 'nope' }),
      problems: ['current-context: context was not found for specified context: nope'],
    },
    {
      name: 'every problem of a cluster and user at once',
      text: () =>
        kubeconfig(
          { 'certificate-authority': 'pki/missing.crt', 'certificate-authority-data': 'Q0E=' },
          { 'client-certificate': 'pki/client.crt', token: 'a', tokenFile: 'token' },
        ),
      problems: [
        'clusters["authn"].cluster.server: cluster has no server defined',
        'clusters["authn"].cluster: certificate-authority-data and certificate-authority are both specified; only one is allowed',
        'users["apiserver"].user: client-certificate and client-key must be given together',
        'users["apiserver"].user: token and tokenFile are both specified; only one is allowed',
      ],
    },
    {
      name: 'a missing file',
      text: () => kubeconfig({ server: 'https://h', 'certificate-authority': 'pki/missing.crt' }),
      problems: [`clusters["authn"].cluster.certificate-authority: unable to read <dir>/pki/missing.crt: ENOENT`],
    },
    {
      name: 'a bad server',
      text: () => kubeconfig({ server: 'ftp://h' }),
      problems: ['clusters["authn"].cluster.server: unsupported scheme "ftp"; use https'],
    },
    {
      name: 'a context naming a missing cluster',
      text: () =>
        stringify({ contexts: [{ name: 'c', context: { cluster: 'x', user: 'y' } }], 'current-context': 'c' }),
      problems: [
        'contexts["c"].context.cluster: cluster was not found for specified context: x',
        'contexts["c"].context.user: user was not found for specified context: y',
      ],
    },
  ];
  for (const c of invalid) {
    it(`lists the problems of ${c.name}`, async () => {
      await assert.rejects(parseWebhookClientConfig(c.text(), dir, FLAG), (e: unknown) => {
        assert.ok(e instanceof WebhookClientConfigError);
        assert.deepEqual(
          e.problems,
          c.problems.map((p) => `${FLAG}: ${p.replace('<dir>', dir)}`),
        );
        return true;
      });
    });
  }

  it('names the flag when the file cannot be read', async () => {
    await assert.rejects(
      loadWebhookClientConfig(join(dir, 'nope.yaml'), FLAG),
      (e: unknown) => e instanceof WebhookClientConfigError && e.message.startsWith(`${FLAG}: ENOENT`),
    );
  });
});
