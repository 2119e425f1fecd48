import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { apiDomain } from '../../apis/api-domain.js';
import { mergeConfigFiles, parseConfigFile } from './client-config-file.js';
import { ClientConfigError, configEnvVar, defaultConfigFile, loadClientConfig } from './load-client-config.js';

const domain = apiDomain();
const kube = apiDomain('k8s.io');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const V1 = `client.authentication.${domain.name}/v1`;

describe('configEnvVar and defaultConfigFile', () => {
  it('follow the product name of the profile', () => {
    assert.equal(configEnvVar(kube), 'KUBECONFIG');
    assert.equal(configEnvVar(domain), `${domain.componentName('x').slice(0, -2).toUpperCase()}CONFIG`);
    assert.equal(defaultConfigFile(kube, '/home/a'), '/home/a/.kube/config');
  });
});

describe('parseConfigFile', () => {
  const cases: { name: string; doc: unknown; problems: [string, RegExp][] }[] = [
    { name: 'empty document', doc: '', problems: [] },
    { name: 'not a mapping', doc: '[1]', problems: [['', /expected a mapping/]] },
    { name: 'bad YAML', doc: 'a: [', problems: [['', /not valid YAML/]] },
    {
      name: 'every problem with its path',
      doc: {
        clusters: [{ name: 'c', cluster: { server: 5, 'insecure-skip-tls-verify': 'yes' } }, { cluster: {} }],
        users: [
          { name: 'u', user: { exec: { args: 'x', env: [{ value: 'v' }], interactiveMode: 'Sometimes' } } },
          { name: 'u', user: {} },
          { name: 'w', user: { exec: { command: 'p', apiVersion: V1 } } },
        ],
        contexts: 'no',
        'current-context': 3,
      },
      problems: [
        ['clusters[0].cluster.server', /must be a string/],
        ['clusters[0].cluster.insecure-skip-tls-verify', /must be a boolean/],
        ['clusters[1].name', /non-empty string/],
        ['users[0].user.exec.command', /command must be specified/],
        ['users[0].user.exec.apiVersion', /apiVersion must be specified/],
        ['users[0].user.exec.args', /list of strings/],
        ['users[0].user.exec.env[0].name', /env variable name must be specified/],
        ['users[0].user.exec.interactiveMode', /invalid interactiveMode "Sometimes"/],
        ['users[1].name', /duplicate name "u"/],
        ['users[2].user.exec.interactiveMode', /interactiveMode must be specified/],
        ['contexts', /must be a list/],
        ['current-context', /must be a string/],
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const text = typeof c.doc === 'string' ? c.doc : stringify(c.doc);
      const { problems } = parseConfigFile('/cfg/file', text);
      assert.deepEqual(problems.map((p) => p.path).sort(), c.problems.map(([path]) => path).sort());
      for (const [path, message] of c.problems) {
        const p = problems.find((q) => q.path === path);
        assert.equal(p?.file, '/cfg/file');
        assert.match(p?.message ?? '', message);
      }
    });
  }

  it('resolves relative paths against the file, leaves absolute ones and bare commands', () => {
    const { config, problems } = parseConfigFile(
      '/cfg/dir/config',
      stringify({
        clusters: [{ name: 'c', cluster: { server: 'https://x', 'certificate-authority': 'pki/ca.crt' } }],
        users: [
          {
            name: 'rel',
            user: {
              'client-certificate': 'a.crt',
              'client-key': '/abs/a.key',
              tokenFile: '../tok',
              exec: { command: './bin/plugin', apiVersion: V1, interactiveMode: 'Never' },
            },
          },
          { name: 'bare', user: { exec: { command: 'plugin', apiVersion: V1, interactiveMode: 'Never' } } },
        ],
      }),
    );
    assert.deepEqual(problems, []);
    assert.equal(config.clusters.get('c')?.certificateAuthority, '/cfg/dir/pki/ca.crt');
    const rel = config.users.get('rel');
    assert.equal(rel?.clientCertificate, '/cfg/dir/a.crt');
    assert.equal(rel?.clientKey, '/abs/a.key');
    assert.equal(rel?.tokenFile, '/cfg/tok');
    assert.equal(rel?.exec?.command, '/cfg/dir/bin/plugin');
    assert.equal(config.users.get('bare')?.exec?.command, 'plugin');
  });
});

describe('mergeConfigFiles', () => {
  const file = (name: string, doc: unknown) => parseConfigFile(name, stringify(doc)).config;
  it('keeps the first entry of each name and the first current-context set', () => {
    const merged = mergeConfigFiles([
      file('/a', { clusters: [{ name: 'c', cluster: { server: 'https://a' } }], contexts: [] }),
      file('/b', {
        clusters: [
          { name: 'c', cluster: { server: 'https://b' } },
          { name: 'd', cluster: { server: 'https://d' } },
        ],
        contexts: [{ name: 'x', context: { cluster: 'd' } }],
        'current-context': 'x',
      }),
      file('/c', { 'current-context': 'y', contexts: [{ name: 'x', context: { cluster: 'c' } }] }),
    ]);
    assert.equal(merged.clusters.get('c')?.server, 'https://a');
    assert.equal(merged.clusters.get('c')?.file, '/a');
    assert.equal(merged.clusters.get('d')?.server, 'https://d');
    assert.equal(merged.contexts.get('x')?.cluster, 'd');
    assert.equal(merged.currentContext, 'x');
  });
});

describe('loadClientConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-client-config-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, doc: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof doc === 'string' ? doc : stringify(doc));
    return path;
  };
  const cluster = (name: string, body: Record<string, unknown>) => ({ name, cluster: body });
  writeFileSync(join(dir, 'ca.pem'), 'CA-FILE');
  writeFileSync(join(dir, 'tok'), 'file-token\n');

  it('merges the variable list (missing files skipped) and resolves the current context', async () => {
    const a = write('a', {
      clusters: [cluster('c', { server: 'https://a:1', 'certificate-authority': 'ca.pem' })],
      users: [{ name: 'u', user: { tokenFile: 'tok' } }],
    });
    const b = write('b', {
      clusters: [cluster('c', { server: 'https://b:1' })],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u', namespace: 'team' } }],
      'current-context': 'ctx',
    });
    const env = { [configEnvVar(domain)]: [a, join(dir, 'absent'), b].join(delimiter) };
    const cfg = await loadClientConfig({ domain, env });
    assert.deepEqual(cfg.files, [a, b]);
    assert.equal(cfg.contextName, 'ctx');
    assert.equal(cfg.namespace, 'team');
    assert.deepEqual(cfg.rest, {
      server: 'https://a:1',
      ca: 'CA-FILE',
      cert: undefined,
      key: undefined,
      token: 'file-token',
    });
    const other = await loadClientConfig({ domain, env, namespace: 'ns2' });
    assert.equal(other.namespace, 'ns2');
  });

  it('selects --context, reads inline data and insecure-skip-tls-verify', async () => {
    const f = write('inline', {
      clusters: [
        cluster('c', { server: 'https://c:1' }),
        cluster('i', { server: 'https://i:1', 'insecure-skip-tls-verify': true }),
      ],
      users: [{ name: 'u', user: { 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') } }],
      contexts: [
        { name: 'one', context: { cluster: 'c' } },
        { name: 'two', context: { cluster: 'i', user: 'u' } },
      ],
      'current-context': 'one',
    });
    const cfg = await loadClientConfig({ domain, file: f, context: 'two' });
    assert.equal(cfg.namespace, 'default');
    assert.deepEqual(cfg.rest, {
      server: 'https://i:1',
      ca: undefined,
      cert: 'CERT',
      key: 'KEY',
      token: undefined,
      insecureSkipTlsVerify: true,
    });
  });

  it('prefers a static token to an exec plugin, as client-go does', async () => {
    const f = write('token-and-exec', {
      clusters: [cluster('c', { server: 'https://c:1' })],
      users: [{ name: 'u', user: { token: 'T', exec: { command: 'p', apiVersion: V1, interactiveMode: 'Never' } } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    });
    const cfg = await loadClientConfig({ domain, file: f });
    assert.equal(cfg.rest.token, 'T');
    assert.equal(cfg.rest.credentials, undefined);
  });

  it('gives exec users a credential source', async () => {
    const f = write('exec', {
      clusters: [cluster('c', { server: 'https://c:1' })],
      users: [{ name: 'u', user: { exec: { command: 'p', apiVersion: `${V1}beta1` } } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    });
    const cfg = await loadClientConfig({ domain, file: f });
    assert.equal(cfg.rest.token, undefined);
    assert.equal(typeof cfg.rest.credentials?.current, 'function');
  });

  const broken: { name: string; doc: unknown; context?: string; messages: RegExp[] }[] = [
    { name: 'no current context', doc: { contexts: [] }, messages: [/current-context: current-context is not set/] },
    {
      name: 'unknown context',
      doc: { 'current-context': 'nope', contexts: [] },
      messages: [/contexts: context "nope" not found/],
    },
    {
      name: 'every problem of the chosen context at once',
      doc: {
        clusters: [cluster('c', { 'proxy-url': 'http://proxy:3128', 'certificate-authority': 'missing.pem' })],
        users: [{ name: 'u', user: { username: 'admin', password: 'pw', 'client-key-data': b64('KEY') } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      },
      messages: [
        /clusters\[c\]\.cluster\.server: server is not set/,
        /clusters\[c\]\.cluster\.proxy-url: proxy-url is not supported/,
        /clusters\[c\]\.cluster\.certificate-authority: cannot read .*missing\.pem: ENOENT/,
        /users\[u\]\.user\.username: basic authentication \(username\/password\) is not supported/,
      ],
    },
    {
      name: 'an exec apiVersion of another group',
      doc: {
        clusters: [cluster('c', { server: 'https://c:1' })],
        users: [
          {
            name: 'u',
            user: { exec: { command: 'p', apiVersion: 'client.authentication.example/v1', interactiveMode: 'Never' } },
          },
        ],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      },
      messages: [
        /users\[u\]\.user\.exec\.apiVersion: exec plugin: invalid apiVersion "client\.authentication\.example\/v1"/,
      ],
    },
    {
      name: 'a missing user and an http server',
      doc: {
        clusters: [cluster('c', { server: 'http://c:1' })],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'ghost' } }],
        'current-context': 'x',
      },
      messages: [/user "ghost" of context "x" not found/, /server must be an https URL/],
    },
  ];
  broken.forEach((b, i) => {
    it(`lists every problem: ${b.name}`, async () => {
      const file = write(`broken-${i}`, b.doc);
      await assert.rejects(loadClientConfig({ domain, file, context: b.context }), (e: unknown) => {
        assert.ok(e instanceof ClientConfigError);
        assert.equal(e.problems.length, b.messages.length, e.message);
        for (const m of b.messages) assert.match(e.message, m);
        assert.ok(e.message.startsWith(file));
        assert.doesNotMatch(e.message, /pw|S0VZ/);
        return true;
      });
    });
  });

  it('requires an explicit file to exist; the variable list skips missing files', async () => {
    await assert.rejects(loadClientConfig({ domain, file: join(dir, 'nope') }), /nope: cannot read: ENOENT/);
    await assert.rejects(
      loadClientConfig({ domain, env: { [configEnvVar(domain)]: join(dir, 'nope') } }),
      /current-context is not set/,
    );
  });
});
