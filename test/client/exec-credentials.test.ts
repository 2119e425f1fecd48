import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { apiDomain } from '../../src/apis/api-domain.js';
import { HttpApiClient } from '../../src/client/api/http-api-client.js';
import type { ExecRuntime } from '../../src/client/config/exec-credential-provider.js';
import { loadClientConfig } from '../../src/client/config/load-client-config.js';
import { RestClient } from '../../src/client/rest/rest-client.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { issueUserCertificate } from '../support/user-cert.js';

const domain = apiDomain();
const V1 = `client.authentication.${domain.name}/v1`;
const V1BETA1 = `client.authentication.${domain.name}/v1beta1`;
const INFO_VAR = domain.envVar('EXEC_INFO');

/**
 * The plugin: logs each call (request, args, FOO) to PLUGIN_LOG, answers with the token of that
 * call from PLUGIN_TOKENS (the last repeats) or the certificate pair of PLUGIN_CERTS, refuses to
 * run without standard input when PLUGIN_NEEDS_STDIN is set.
 */
const PLUGIN = `#!/usr/bin/env node
import fs from 'node:fs';
const info = JSON.parse(process.env[process.env.PLUGIN_INFO_VAR]);
const log = process.env.PLUGIN_LOG;
fs.appendFileSync(log, JSON.stringify({ info, args: process.argv.slice(2), foo: process.env.FOO }) + '\\n');
const call = fs.readFileSync(log, 'utf8').trim().split('\\n').length;
if (process.env.PLUGIN_NEEDS_STDIN && !info.spec.interactive) {
  process.stderr.write('this plugin needs standard input\\n');
  process.exit(3);
}
const pick = (list) => list[Math.min(call, list.length) - 1];
const status = {};
if (process.env.PLUGIN_CERTS) Object.assign(status, pick(JSON.parse(fs.readFileSync(process.env.PLUGIN_CERTS, 'utf8'))));
else status.token = pick(process.env.PLUGIN_TOKENS.split(','));
if (process.env.PLUGIN_EXPIRES) status.expirationTimestamp = process.env.PLUGIN_EXPIRES;
console.log(JSON.stringify({ apiVersion: process.env.PLUGIN_ANSWER_VERSION || info.apiVersion, kind: 'ExecCredential', status }));
`;

describe('exec credential plugins against a server', { timeout: 120_000 }, () => {
  let dir: string;
  let server: RunningServer;
  let ca: string;
  let certsFile: string;
  let n = 0;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-exec-'));
    const tokenFile = join(dir, 'tokens.csv');
    await writeFile(
      tokenFile,
      [
        'good-v1,exec-v1,u1,system:masters',
        'good-beta,exec-beta,u2,system:masters',
        'second,exec-second,u3,system:masters',
      ].join('\n'),
    );
    server = await startServer({
      dataDir: join(dir, 'data'),
      securePort: 0,
      bindAddress: '127.0.0.1',
      authentication: { tokenAuthFile: tokenFile },
    });
    ca = server.admin!.ca;
    const c1 = await issueUserCertificate(join(dir, 'data'), 'cert-one', ['system:masters']);
    const c2 = await issueUserCertificate(join(dir, 'data'), 'cert-two', ['system:masters']);
    certsFile = join(dir, 'certs.json');
    await writeFile(
      certsFile,
      JSON.stringify([
        { clientCertificateData: c1.cert, clientKeyData: c1.key },
        { clientCertificateData: c2.cert, clientKeyData: c2.key },
      ]),
    );
    await writeFile(join(dir, 'plugin.mjs'), PLUGIN);
    await chmod(join(dir, 'plugin.mjs'), 0o755);
  });
  after(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  interface Case {
    readonly exec: Record<string, unknown>;
    readonly env?: Record<string, string>;
    readonly runtime?: ExecRuntime;
    readonly extension?: unknown;
  }

  /** Writes a config whose user runs the plugin; returns its client and the plugin's call log. */
  async function setup(c: Case) {
    n++;
    const log = join(dir, `calls-${n}.log`);
    await writeFile(log, '');
    const env = { PLUGIN_INFO_VAR: INFO_VAR, PLUGIN_LOG: log, ...c.env };
    const file = join(dir, `config-${n}`);
    await writeFile(
      file,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'c',
            cluster: {
              server: server.url,
              'certificate-authority-data': Buffer.from(ca).toString('base64'),
              ...(c.extension ? { extensions: [{ name: `${V1.split('/')[0]}/exec`, extension: c.extension }] } : {}),
            },
          },
        ],
        users: [
          {
            name: 'u',
            user: {
              exec: {
                command: './plugin.mjs',
                apiVersion: V1,
                interactiveMode: 'IfAvailable',
                env: Object.entries(env).map(([name, value]) => ({ name, value })),
                ...c.exec,
              },
            },
          },
        ],
        contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'ctx',
      }),
    );
    const cfg = await loadClientConfig({
      domain,
      file,
      exec: { stdinIsTerminal: () => false, stderr: 'ignore', ...c.runtime },
    });
    const rest = new RestClient(cfg.rest);
    const calls = async () =>
      (await readFile(log, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { info: { spec: Record<string, unknown> }; args: string[]; foo?: string });
    return { rest, calls, cfg };
  }

  async function whoami(rest: RestClient): Promise<string> {
    const group = domain.group('authentication');
    const r = await rest.call<{ status: { userInfo: { username: string } } }>(
      {
        method: 'POST',
        path: `/apis/${group}/v1/selfsubjectreviews`,
        body: { apiVersion: `${group}/v1`, kind: 'SelfSubjectReview' },
      },
      AbortSignal.timeout(20_000),
    );
    return r.status.userInfo.username;
  }

  it('authenticates with a v1 token plugin, run once while the token is valid', async () => {
    const { rest, calls } = await setup({ exec: {}, env: { PLUGIN_TOKENS: 'good-v1' } });
    try {
      assert.equal(await whoami(rest), 'exec-v1');
      assert.equal(await whoami(rest), 'exec-v1');
      assert.equal((await calls()).length, 1);
    } finally {
      rest.close();
    }
  });

  it('authenticates with a v1beta1 plugin without interactiveMode (IfAvailable)', async () => {
    const { rest, calls } = await setup({
      exec: { apiVersion: V1BETA1, interactiveMode: undefined },
      env: { PLUGIN_TOKENS: 'good-beta' },
      runtime: { stdinIsTerminal: () => true },
    });
    try {
      assert.equal(await whoami(rest), 'exec-beta');
      const [call] = await calls();
      assert.deepEqual(call.info, { kind: 'ExecCredential', apiVersion: V1BETA1, spec: { interactive: true } });
    } finally {
      rest.close();
    }
  });

  it('runs the plugin once for requests that wait together', async () => {
    const { rest, calls } = await setup({ exec: {}, env: { PLUGIN_TOKENS: 'good-v1' } });
    try {
      const names = await Promise.all([1, 2, 3, 4, 5].map(() => whoami(rest)));
      assert.deepEqual(names, Array(5).fill('exec-v1'));
      assert.equal((await calls()).length, 1);
    } finally {
      rest.close();
    }
  });

  it('runs the plugin again after a 401 and retries the request once', async () => {
    const { rest, calls } = await setup({ exec: {}, env: { PLUGIN_TOKENS: 'revoked,second' } });
    try {
      assert.equal(await whoami(rest), 'exec-second');
      assert.equal((await calls()).length, 2);
    } finally {
      rest.close();
    }
  });

  it('runs the plugin again once the credential expired', async () => {
    let now = Date.parse('2029-06-01T00:00:00Z');
    const { rest, calls } = await setup({
      exec: {},
      env: { PLUGIN_TOKENS: 'good-v1,second', PLUGIN_EXPIRES: '2030-01-01T00:00:00Z' },
      runtime: { now: () => now },
    });
    try {
      assert.equal(await whoami(rest), 'exec-v1');
      assert.equal(await whoami(rest), 'exec-v1');
      now = Date.parse('2030-01-01T00:00:01Z');
      assert.equal(await whoami(rest), 'exec-second');
      assert.equal((await calls()).length, 2);
    } finally {
      rest.close();
    }
  });

  it('uses a client certificate from the plugin and reconnects when it changes', async () => {
    let now = Date.parse('2029-06-01T00:00:00Z');
    const { rest, calls } = await setup({
      exec: {},
      env: { PLUGIN_CERTS: certsFile, PLUGIN_EXPIRES: '2030-01-01T00:00:00Z' },
      runtime: { now: () => now },
    });
    try {
      assert.equal(await whoami(rest), 'cert-one');
      now = Date.parse('2031-01-01T00:00:00Z');
      assert.equal(await whoami(rest), 'cert-two');
      assert.equal((await calls()).length, 2);
    } finally {
      rest.close();
    }
  });

  it('passes args and env, and the cluster with its extension under provideClusterInfo', async () => {
    const { rest, calls } = await setup({
      exec: { args: ['--flag', 'value'], provideClusterInfo: true },
      env: { PLUGIN_TOKENS: 'good-v1', FOO: 'bar' },
      extension: { audience: 'orch-test', nested: { n: 1 } },
    });
    try {
      assert.equal(await whoami(rest), 'exec-v1');
      const [call] = await calls();
      assert.deepEqual(call.args, ['--flag', 'value']);
      assert.equal(call.foo, 'bar');
      assert.deepEqual(call.info.spec, {
        interactive: false,
        cluster: {
          server: server.url,
          'certificate-authority-data': Buffer.from(ca).toString('base64'),
          config: { audience: 'orch-test', nested: { n: 1 } },
        },
      });
    } finally {
      rest.close();
    }
  });

  it('serves an HttpApiClient: discovery after a 401 refresh, then a list', async () => {
    const { rest, calls, cfg } = await setup({ exec: {}, env: { PLUGIN_TOKENS: 'revoked,good-v1' } });
    rest.close();
    const client = await HttpApiClient.connect({ config: cfg.rest, domain, fieldManager: 'exec-test', qps: -1 });
    try {
      const list = await client.resource('', 'v1', 'namespaces')!.list('', {}, AbortSignal.timeout(20_000));
      assert.ok(list.items.some((ns) => ns.metadata.name === 'default'));
      assert.equal((await calls()).length, 2);
    } finally {
      client.close();
    }
  });

  it('finds a bare command name on PATH', async () => {
    await writeFile(join(dir, 'orch-test-plugin'), PLUGIN);
    await chmod(join(dir, 'orch-test-plugin'), 0o755);
    const { rest } = await setup({
      exec: { command: 'orch-test-plugin' },
      env: { PLUGIN_TOKENS: 'good-v1' },
      runtime: { environ: { ...process.env, PATH: `${dir}${delimiter}${process.env.PATH}` } },
    });
    try {
      assert.equal(await whoami(rest), 'exec-v1');
    } finally {
      rest.close();
    }
  });

  const failures: { name: string; c: Case; message: RegExp; runs: number }[] = [
    {
      name: 'a missing command names it and shows the installHint',
      c: { exec: { command: './not-there', installHint: 'install it with: make plugin' } },
      message: /getting credentials: exec: executable .*not-there not found[\s\S]*install it with: make plugin/,
      runs: 0,
    },
    {
      name: 'an answer of another apiVersion',
      c: { exec: {}, env: { PLUGIN_TOKENS: 'good-v1', PLUGIN_ANSWER_VERSION: V1BETA1 } },
      message: new RegExp(`exec plugin is configured to use API version ${V1}, plugin returned version ${V1BETA1}`),
      runs: 1,
    },
    {
      name: 'interactiveMode Never with a plugin that needs standard input',
      c: {
        exec: { interactiveMode: 'Never' },
        env: { PLUGIN_TOKENS: 'good-v1', PLUGIN_NEEDS_STDIN: '1' },
        runtime: { stdinIsTerminal: () => true },
      },
      message: /exec: executable .*plugin\.mjs failed with exit code 3/,
      runs: 1,
    },
    {
      name: 'interactiveMode Always without a terminal: the plugin is not run',
      c: { exec: { interactiveMode: 'Always' }, env: { PLUGIN_TOKENS: 'good-v1' } },
      message: /exec plugin cannot support interactive mode: standard input is not a terminal/,
      runs: 0,
    },
  ];
  for (const f of failures) {
    it(`fails the request: ${f.name}`, async () => {
      const { rest, calls } = await setup(f.c);
      try {
        await assert.rejects(whoami(rest), (e: Error) => {
          assert.match(e.message, f.message);
          assert.doesNotMatch(e.message, /good-v1/);
          return true;
        });
        assert.equal((await calls()).length, f.runs);
      } finally {
        rest.close();
      }
    });
  }
});
