import assert from 'node:assert/strict';
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { apiDomain } from '../../apis/api-domain.js';
import { CelEnvironmentSet } from '../../cel/environment-set.js';
import type { Logger } from '../../util/logger.js';
import { JwtAuthenticatorSet } from '../jwt/jwt-authenticator-set.js';
import { AuthenticationCelCompiler } from './authentication-cel-compiler.js';
import { AuthenticationConfigController } from './authentication-config-controller.js';
import { type LoadedAuthenticationConfig, parseAuthenticationConfig } from './load-authentication-config.js';
import { AuthenticationConfigReloadMetrics } from './reload-metrics.js';

const domain = apiDomain();
const ctx = {
  compiler: new AuthenticationCelCompiler(new CelEnvironmentSet()),
  disallowedIssuers: [],
  domain,
  anonymousConfigurableEndpoints: true,
};
const head = 'apiVersion: apiserver.config.orch.io/v1beta1\nkind: AuthenticationConfiguration\n';
/** A valid file; its authenticators never need the network (no JWT authenticators). */
const valid = (n: number) => `${head}# version ${n}\njwt: []\nanonymous:\n  enabled: true\n`;

describe('AuthenticationConfigController', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-authn-controller-'));
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function setup(name: string, pollIntervalMs = 60_000) {
    const path = join(dir, name);
    await writeFile(path, valid(1));
    const registry = new Registry();
    const logged: string[] = [];
    const logger: Logger = {
      info: (m) => logged.push(m),
      warn: (m) => logged.push(m),
      error: (m, f) => logged.push(`${m}: ${String(f?.error)}`),
    };
    const stop = new AbortController();
    const built: JwtAuthenticatorSet[] = [];
    const build = (loaded: LoadedAuthenticationConfig) => {
      const set = new JwtAuthenticatorSet({
        authenticators: loaded.authenticators,
        signingAlgs: ['RS256'],
        apiAudiences: [],
        credentialIdKey: 'cred',
        lifetime: stop.signal,
        logger,
      });
      built.push(set);
      return set;
    };
    const initial = parseAuthenticationConfig(path, valid(1), domain, ctx);
    const controller = new AuthenticationConfigController({
      path,
      initial,
      initialSet: build(initial),
      parse: (text) => parseAuthenticationConfig(path, text, domain, ctx),
      build,
      metrics: new AuthenticationConfigReloadMetrics(registry, 'orch-apiserver-test'),
      logger,
      lifetime: stop.signal,
      pollIntervalMs,
      debounceMs: 10,
    });
    const count = async (status: string) =>
      (
        await registry.getSingleMetric('apiserver_authentication_config_controller_automatic_reloads_total')?.get()
      )?.values.find((v) => v.labels.status === status)?.value ?? 0;
    return { path, controller, count, logged, built, stop };
  }

  it('swaps in a valid new file and ignores an unchanged one', async () => {
    const { path, controller, count, built, stop } = await setup('a.yaml');
    const first = controller.current;
    await controller.reloadNow();
    assert.equal(controller.current, first);
    assert.equal(await count('success'), 0);
    await writeFile(path, valid(2));
    await controller.reloadNow();
    assert.notEqual(controller.current, first);
    assert.equal(controller.current, built[1]);
    assert.equal(await count('success'), 1);
    stop.abort();
  });

  it('keeps the running configuration over unreadable, undecodable, invalid and anonymous-changing files', async () => {
    const { path, controller, count, logged, stop } = await setup('b.yaml');
    const first = controller.current;
    await unlink(path);
    await controller.reloadNow();
    await writeFile(path, 'jwt: [');
    await controller.reloadNow();
    await controller.reloadNow(); // The same bad text is not retried.
    await writeFile(path, `${head}jwt:\n- issuer:\n    url: http://x\n`);
    await controller.reloadNow();
    await writeFile(path, `${head}jwt: []\nanonymous:\n  enabled: false\n`);
    await controller.reloadNow();
    assert.equal(controller.current, first);
    assert.equal(await count('failure'), 4);
    assert.equal(await count('success'), 0);
    assert.match(
      logged[0] as string,
      /^failed to read authentication config file: open .*b\.yaml: no such file or directory$/,
    );
    assert.match(
      logged[1] as string,
      /^failed to load authentication config: failed to load authentication configuration from file/,
    );
    assert.match(logged[2] as string, /jwt\[0\]\.issuer\.url: Invalid value: "http:\/\/x": URL scheme must be https/);
    assert.match(logged[3] as string, /anonymous: Forbidden: changed from initial configuration file$/);
    stop.abort();
  });

  it('notices a change through the file watch, without waiting for the poll', async () => {
    const { path, controller, count, stop } = await setup('c.yaml');
    controller.start();
    await writeFile(path, valid(3));
    const deadline = Date.now() + 5_000;
    while ((await count('success')) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await count('success'), 1);
    stop.abort();
  });

  it('re-reads the file on the poll interval', async () => {
    const { path, controller, count, stop } = await setup('d.yaml', 50);
    controller.start();
    // Replace the file behind the watch's back: the poll still finds it.
    await writeFile(path, valid(4));
    const deadline = Date.now() + 5_000;
    while ((await count('success')) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await count('success'), 1);
    stop.abort();
  });
});
