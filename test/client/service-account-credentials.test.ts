import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import type { ApiObject } from '../../src/apis/object.js';
import type { ApiClient } from '../../src/client/api/api-client.js';
import { HttpApiClient } from '../../src/client/api/http-api-client.js';
import { type CredentialTimers, ServiceAccountCredentials } from '../../src/client/api/service-account-credentials.js';
import { loadKubeconfig, type RestConfig } from '../../src/client/rest/kubeconfig.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import type { Logger } from '../../src/util/logger.js';

const D = ORCH_DOMAIN;
const signal = new AbortController().signal;

/** Timers that never fire by themselves: the test runs the scheduled refresh when it wants. */
function manualTimers(): CredentialTimers & { scheduled: { fn: () => void; ms: number }[] } {
  const scheduled: { fn: () => void; ms: number }[] = [];
  return {
    scheduled,
    now: () => Date.now(),
    setTimeout(fn, ms) {
      const entry = { fn, ms };
      scheduled.push(entry);
      return entry;
    },
    clearTimeout(h) {
      const i = scheduled.indexOf(h as never);
      if (i >= 0) scheduled.splice(i, 1);
    },
  };
}

async function whoami(client: ApiClient): Promise<{ username?: string; groups?: string[] }> {
  const reviews = client.resource(D.group('authentication'), 'v1', 'selfsubjectreviews')!;
  const r = (await reviews.create(
    '',
    { apiVersion: `${D.group('authentication')}/v1`, kind: 'SelfSubjectReview', metadata: {} } as ApiObject,
    signal,
  )) as ApiObject & { status?: { userInfo?: { username?: string; groups?: string[] } } };
  return r.status?.userInfo ?? {};
}

describe('service-account credentials for controllers (UseServiceAccountCredentials)', () => {
  let dataDir: string;
  let server: RunningServer;
  let config: RestConfig;
  let root: HttpApiClient;
  const lines: string[] = [];
  const logger: Logger = {
    info: (m, f) => lines.push(`${m} ${JSON.stringify(f ?? {})}`),
    warn: (m, f) => lines.push(`${m} ${JSON.stringify(f ?? {})}`),
    error: (m, f) => lines.push(`${m} ${JSON.stringify(f ?? {})}`),
  };

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-sa-creds-'));
    server = await startServer({ dataDir, securePort: 0, bindAddress: '127.0.0.1', runControllers: false });
    config = await loadKubeconfig(server.kubeconfigPath!);
    root = await HttpApiClient.connect({ config, domain: D, fieldManager: 'test-controller-manager', qps: -1 });
  });
  after(async () => {
    root?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates the service account, authenticates as it, and refreshes its token at 80% of its lifetime', async () => {
    // namespace-controller's default role may list and watch everything.
    const timers = manualTimers();
    const creds = new ServiceAccountCredentials({
      root,
      config,
      domain: D,
      expirationSeconds: 3600,
      client: { qps: -1 },
      logger,
      timers,
    });
    try {
      const client = await creds.clientFor({ serviceAccount: 'namespace-controller', name: 'namespace' });
      assert.equal(await creds.clientFor({ serviceAccount: 'namespace-controller' }), client, 'one client per account');
      assert.equal(client.fieldManager, 'namespace-controller');
      const sa = await root
        .resource('', 'v1', 'serviceaccounts')!
        .get(D.systemNamespace, 'namespace-controller', signal);
      assert.equal(sa.metadata.name, 'namespace-controller');
      const me = await whoami(client);
      assert.equal(me.username, `system:serviceaccount:${D.systemNamespace}:namespace-controller`);
      assert.ok(me.groups?.includes(`system:serviceaccounts:${D.systemNamespace}`));

      // One refresh scheduled, at 80% of the hour the token lives.
      assert.equal(timers.scheduled.length, 1);
      const first = timers.scheduled[0];
      assert.ok(Math.abs(first.ms - 0.8 * 3600_000) < 10_000, `refresh in ${first.ms} ms`);
      const before = await creds.tokenState('namespace-controller');

      // A watch started with the old token keeps running through the refresh.
      const cms = root.resource('', 'v1', 'configmaps')!;
      const watch = await client.resource('', 'v1', 'configmaps')!.watch(D.systemNamespace, {}, signal);
      timers.scheduled.splice(0, 1);
      first.fn();
      const deadline = Date.now() + 10_000;
      while ((await creds.tokenState('namespace-controller'))?.refreshes !== 1) {
        assert.ok(Date.now() < deadline, 'the token was refreshed');
        await new Promise((r) => setTimeout(r, 20));
      }
      const afterRefresh = await creds.tokenState('namespace-controller');
      assert.ok(afterRefresh!.expiresAt.getTime() >= before!.expiresAt.getTime());
      assert.equal(timers.scheduled.length, 1, 'the next refresh is scheduled');
      await cms.create(
        D.systemNamespace,
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'during-refresh' } } as ApiObject,
        signal,
      );
      for await (const ev of watch) {
        if (ev.object.metadata.name === 'during-refresh') {
          watch.stop();
        }
      }
      // Requests after the refresh use the new token.
      assert.equal((await whoami(client)).username, `system:serviceaccount:${D.systemNamespace}:namespace-controller`);
    } finally {
      await creds.close();
    }
    assert.ok(
      lines.every((l) => !/eyJ[A-Za-z0-9_-]{10,}/.test(l)),
      `no token in the logs: ${lines.join('\n')}`,
    );
  });

  it('uses an existing service account and reports a refused token request as the StatusError', async () => {
    const accounts = root.resource('', 'v1', 'serviceaccounts')!;
    await accounts.create(
      D.systemNamespace,
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'existing-controller', labels: { keep: 'me' } } },
      signal,
    );
    const creds = new ServiceAccountCredentials({ root, config, domain: D, client: { qps: -1 }, logger });
    try {
      const client = await creds.clientFor({ serviceAccount: 'existing-controller' });
      assert.equal((await whoami(client)).username, `system:serviceaccount:${D.systemNamespace}:existing-controller`);
      const sa = await accounts.get(D.systemNamespace, 'existing-controller', signal);
      assert.deepEqual(sa.metadata.labels, { keep: 'me' });
    } finally {
      await creds.close();
    }
    const tooShort = new ServiceAccountCredentials({ root, config, domain: D, expirationSeconds: 1, logger });
    await assert.rejects(tooShort.clientFor({ serviceAccount: 'short-lived' }), (e: Error) => {
      assert.equal(e.name, 'StatusError');
      assert.doesNotMatch(e.message, /eyJ/);
      return true;
    });
    await tooShort.close();
  });
});
