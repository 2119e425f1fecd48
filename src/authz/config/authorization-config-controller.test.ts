import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import { NO_SELECTORS } from '../../apis/request/authorization-attributes.js';
import { CelEnvironmentSet } from '../../cel/environment-set.js';
import { versionedCelLibraries } from '../../cel/library/index.js';
import { AuthorizationMetrics } from '../authorization-metrics.js';
import type { Attributes, Authorizer } from '../authorizer.js';
import { MatchConditionCompiler } from '../webhook/match-conditions.js';
import { buildAuthorizationChain } from './authorization-chain.js';
import { AuthorizationConfigController } from './authorization-config-controller.js';
import { type LoadedAuthorizationConfig, loadAuthorizationConfig } from './load-authorization-config.js';
import { AuthorizationConfigReloadMetrics } from './reload-metrics.js';

const compiler = new MatchConditionCompiler(new CelEnvironmentSet({ libraries: versionedCelLibraries() }));
const head = 'apiVersion: apiserver.config.orch.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n';
const RBAC_FIRST = `${head}- type: RBAC\n  name: rbac\n- type: AlwaysDeny\n  name: alwaysdeny\n`;
const DENY_FIRST = `${head}- type: AlwaysDeny\n  name: alwaysdeny\n- type: RBAC\n  name: rbac\n`;
const alice: Attributes = {
  user: { name: 'alice', groups: [] },
  verb: 'get',
  isResourceRequest: true,
  path: '',
  namespace: 'ns',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: 'p',
  ...NO_SELECTORS,
};
const request = { signal: new AbortController().signal };

/** An RBAC stand-in that allows alice. */
const rbac: Authorizer = {
  async authorize(a) {
    return a.user.name === 'alice' ? { decision: 'allow', reason: '' } : { decision: 'no-opinion', reason: '' };
  },
};

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-authz-reload-'));
});
after(() => rm(dir, { recursive: true, force: true }));

/** A controller over a fresh file holding `text`, with a manual poll tick and clock. */
async function setup(text: string, name: string, o: { watchFile?: boolean } = {}) {
  const path = join(dir, name);
  await writeFile(path, text);
  const registry = new Registry();
  const metrics = new AuthorizationMetrics(registry);
  const initial = await loadAuthorizationConfig(text, { domain: ORCH_DOMAIN, compiler });
  const initialTypes = new Set(initial.authorizers.map((a) => a.type));
  const build = (loaded: LoadedAuthorizationConfig) =>
    buildAuthorizationChain(loaded, { modules: { rbac }, domain: ORCH_DOMAIN, metrics });
  let now = Date.parse('2025-03-01T12:00:00Z');
  const ticks: (() => void)[] = [];
  const lifetime = new AbortController();
  const errors: string[] = [];
  const controller = new AuthorizationConfigController({
    path,
    initial,
    initialChain: build(initial),
    load: (data) => loadAuthorizationConfig(data, { domain: ORCH_DOMAIN, compiler, initialTypes }),
    build,
    metrics: new AuthorizationConfigReloadMetrics(registry, 'server-1'),
    logger: { info() {}, warn() {}, error: (_m, f) => errors.push(String(f?.error)) },
    lifetime: lifetime.signal,
    clock: { now: () => new Date(now) },
    every: (ms, fn) => {
      assert.equal(ms, 60_000);
      ticks.push(fn);
      return () => {};
    },
    watchFile: o.watchFile ?? false,
    debounceMs: 10,
  });
  controller.start();
  const reloads = async () =>
    Object.fromEntries(
      (
        (await registry.getSingleMetric('apiserver_authorization_config_controller_automatic_reloads_total')?.get())
          ?.values ?? []
      ).map((v) => [v.labels.status, v.value]),
    );
  const lastReload = async () =>
    (
      await registry
        .getSingleMetric('apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds')
        ?.get()
    )?.values.map((v) => [v.labels.status, v.labels.apiserver_id_hash, v.value]);
  const decision = async () => (await controller.authorizer.authorize(alice, request)).decision;
  return {
    path,
    controller,
    errors,
    reloads,
    lastReload,
    decision,
    tick: () => {
      for (const t of ticks) t();
    },
    advance: (ms: number) => (now += ms),
    stop: () => lifetime.abort(),
  };
}

describe('AuthorizationConfigController', () => {
  it('swaps in a reordered chain, counting the reload with the time and hashed server id', async () => {
    const t = await setup(RBAC_FIRST, 'reorder.yaml');
    assert.equal(await t.decision(), 'allow');
    await writeFile(t.path, DENY_FIRST);
    t.advance(5_000);
    await t.controller.reloadNow();
    assert.equal(await t.decision(), 'deny');
    assert.deepEqual(await t.reloads(), { success: 1 });
    const hash = `sha256:${createHash('sha256').update('server-1').digest('hex')}`;
    assert.deepEqual(await t.lastReload(), [['success', hash, Date.parse('2025-03-01T12:00:05Z') / 1000]]);
    t.stop();
  });

  it('re-reads the file every poll interval', async () => {
    const t = await setup(RBAC_FIRST, 'poll.yaml');
    await writeFile(t.path, DENY_FIRST);
    t.tick();
    await t.controller.reloadNow();
    assert.equal(await t.decision(), 'deny');
    t.stop();
  });

  it('ignores the same text and a text with the same configuration', async () => {
    const t = await setup(RBAC_FIRST, 'same.yaml');
    await t.controller.reloadNow();
    await writeFile(t.path, `# a comment\n${RBAC_FIRST}\n`);
    await t.controller.reloadNow();
    assert.deepEqual(await t.reloads(), {});
    assert.equal(await t.decision(), 'allow');
    t.stop();
  });

  const refused: { name: string; text: string; error: string }[] = [
    {
      name: 'an invalid configuration',
      text: `${RBAC_FIRST}- type: Webhook\n  name: w\n`,
      error: 'authorizers[2].webhook: Required value: required when type=Webhook',
    },
    {
      name: 'a text that does not decode',
      text: `${RBAC_FIRST}  extra: 1\n`,
      error:
        'failed to load AuthorizationConfiguration from file: strict decoding error: unknown field "authorizers[1].extra"',
    },
    {
      name: 'adding Node',
      text: `${RBAC_FIRST}- type: Node\n  name: node\n`,
      error: 'authorizer type Node is not allowed if it was not enabled at initial server startup',
    },
    {
      name: 'removing RBAC',
      text: `${head}- type: AlwaysDeny\n  name: alwaysdeny\n`,
      error: 'missing required types: [RBAC]',
    },
  ];
  for (const c of refused) {
    it(`keeps the running chain on ${c.name}`, async () => {
      const t = await setup(RBAC_FIRST, `refused-${c.name.replaceAll(' ', '-')}.yaml`);
      await writeFile(t.path, c.text);
      await t.controller.reloadNow();
      assert.equal(await t.decision(), 'allow');
      assert.deepEqual(await t.reloads(), { failure: 1 });
      assert.deepEqual(t.errors, [c.error]);
      // The same text is not tried again; a valid one is.
      await t.controller.reloadNow();
      assert.deepEqual(await t.reloads(), { failure: 1 });
      await writeFile(t.path, DENY_FIRST);
      await t.controller.reloadNow();
      assert.equal(await t.decision(), 'deny');
      assert.deepEqual(await t.reloads(), { failure: 1, success: 1 });
      t.stop();
    });
  }

  it('counts a file that cannot be read as a failure, every time', async () => {
    const t = await setup(RBAC_FIRST, 'gone.yaml');
    await unlink(t.path);
    await t.controller.reloadNow();
    await t.controller.reloadNow();
    assert.deepEqual(await t.reloads(), { failure: 2 });
    assert.deepEqual(t.errors, [
      `open ${t.path}: no such file or directory`,
      `open ${t.path}: no such file or directory`,
    ]);
    assert.equal(await t.decision(), 'allow');
    t.stop();
  });

  it('reloads when the file changes', async () => {
    const t = await setup(RBAC_FIRST, 'watched.yaml', { watchFile: true });
    await writeFile(t.path, DENY_FIRST);
    const deadline = Date.now() + 5_000;
    while ((await t.decision()) !== 'deny' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await t.decision(), 'deny');
    t.stop();
  });
});
