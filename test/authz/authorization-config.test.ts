// --authorization-config end to end: a chain of two webhooks (match conditions, each failure
// policy) and RBAC against loopback HTTPS SubjectAccessReview services; start-up refusals and
// the flag conflicts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import { tempDir } from '../authn/authn-fixture.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { request } from '../support/http-client.js';
import { bundledProgram } from '../support/program-bundle.js';
import { type ReceivedReview, type SarWebhook, startSarWebhook, status, type WebhookAnswer } from './sar-webhook.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const RBAC_GROUP = ORCH_DOMAIN.group('rbac.authorization');
const FAST = { durationMs: 5, factor: 1.5, jitter: 0, steps: 2 };
const head = `apiVersion: ${ORCH_DOMAIN.group('apiserver.config')}/v1\nkind: AuthorizationConfiguration\n`;

/** A webhook entry of the configuration file. */
function webhookEntry(o: {
  name: string;
  kubeconfig: string;
  failurePolicy: 'Deny' | 'NoOpinion';
  conditions?: string[];
  version?: 'v1' | 'v1beta1';
}): string {
  const conditions = (o.conditions ?? []).map((c) => `    - expression: ${JSON.stringify(c)}\n`).join('');
  return `- type: Webhook
  name: ${o.name}
  webhook:
    timeout: 1s
    authorizedTTL: 10s
    unauthorizedTTL: 10s
    subjectAccessReviewVersion: ${o.version ?? 'v1'}
    matchConditionSubjectAccessReviewVersion: v1
    failurePolicy: ${o.failurePolicy}
    connectionInfo:
      type: OrchConfigFile
      orchConfigFile: ${o.kubeconfig}
${conditions ? `    matchConditions:\n${conditions}` : ''}`;
}

/** How both webhooks answer, by path and user. */
function answers(review: ReceivedReview, path: string): WebhookAnswer {
  const user = review.spec.user as string;
  if (user === 'slow') return { ...status(review, { allowed: true }), delayMs: 2_000 };
  if (user === 'garbage') return { body: 'not a review' };
  if (path.startsWith('/guard')) {
    if (user === 'alice') return status(review, { allowed: true, reason: 'guard says yes' });
    if (user === 'mallory') return status(review, { allowed: false, denied: true, reason: 'guard says no' });
  }
  if (path.startsWith('/advisor') && user === 'adv-allow') return status(review, { allowed: true });
  return status(review, {});
}

describe('authorization configuration file', () => {
  let files: Awaited<ReturnType<typeof tempDir>>;
  let webhook: SarWebhook;
  let s: InProcessServer;
  let configFile: string;
  let guardConfig: string;
  let advisorConfig: string;
  const registry = new Registry();
  const credentials = new Map<string, Awaited<ReturnType<InProcessServer['userCredentials']>>>();
  const calls = (prefix: string) => webhook.calls.filter((c) => c.path.startsWith(prefix));

  /** GET the config maps of `namespace` as `user`. */
  const listConfigMaps = async (user: string, namespace: string) => {
    if (!credentials.has(user)) credentials.set(user, await s.userCredentials(user));
    return request(s.url, `/api/v1/namespaces/${namespace}/configmaps`, { ca: s.admin.ca, as: credentials.get(user) });
  };

  before(async () => {
    files = await tempDir('orch-authz-config-');
    webhook = await startSarWebhook();
    webhook.answer(answers);
    guardConfig = await webhook.writeKubeconfig(files.write, '/guard', 'guard.kubeconfig');
    advisorConfig = await webhook.writeKubeconfig(files.write, '/advisor', 'advisor.kubeconfig');
    configFile = await files.write(
      'authorization.yaml',
      `${head}authorizers:
${webhookEntry({
  name: 'guard',
  kubeconfig: guardConfig,
  failurePolicy: 'Deny',
  conditions: [
    "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'guarded'",
    "request.user != 'cel-error' || request.extra['missing'][0] == 'x'",
  ],
})}${webhookEntry({ name: 'advisor', kubeconfig: advisorConfig, failurePolicy: 'NoOpinion', version: 'v1beta1' })}- type: RBAC
  name: rbac
`,
    );
    s = await startInProcess({
      runControllers: false,
      authorization: { configFile, webhookRetryBackoff: FAST },
      metrics: registry,
    });
    // RBAC lets the users whose webhook failed open read config maps in `open`.
    const created = [
      await s.api.admin('POST', '/api/v1/namespaces', { body: { metadata: { name: 'open' } } }),
      await s.api.admin('POST', `/apis/${RBAC_GROUP}/v1/namespaces/open/roles`, {
        body: {
          metadata: { name: 'configmap-reader' },
          rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }],
        },
      }),
      await s.api.admin('POST', `/apis/${RBAC_GROUP}/v1/namespaces/open/rolebindings`, {
        body: {
          metadata: { name: 'readers' },
          roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: 'configmap-reader' },
          subjects: ['slow', 'garbage'].map((name) => ({ apiGroup: RBAC_GROUP, kind: 'User', name })),
        },
      }),
    ];
    assert.deepEqual(
      created.map((r) => r.status),
      [201, 201, 201],
    );
  });
  after(async () => {
    await s?.stop();
    await webhook?.close();
    await files?.remove();
  });
  beforeEach(() => {
    webhook.calls.length = 0;
  });

  it('calls a webhook whose match conditions all hold, with a v1 review; it allows', async () => {
    const r = await listConfigMaps('alice', 'guarded');
    assert.equal(r.status, 200, r.text);
    assert.equal(calls('/guard').length, 1);
    const call = calls('/guard')[0];
    assert.equal(call?.path, '/guard?timeout=1s');
    assert.equal(call?.clientCn, 'orch-apiserver');
    assert.equal(call?.review.apiVersion, `${ORCH_DOMAIN.group('authorization')}/v1`);
    assert.deepEqual(call?.review.spec.resourceAttributes, {
      namespace: 'guarded',
      verb: 'list',
      version: 'v1',
      resource: 'configmaps',
    });
    assert.deepEqual(call?.review.spec.groups, ['system:authenticated']);
  });

  it('a denial stops the chain with the webhook’s reason', async () => {
    const r = await listConfigMaps('mallory', 'guarded');
    assert.equal(r.status, 403);
    assert.equal(
      r.json().message,
      'configmaps is forbidden: User "mallory" cannot list resource "configmaps" in API group "" in the namespace "guarded": guard says no',
    );
    assert.equal(calls('/advisor').length, 0);
  });

  it('skips a webhook when a match condition is false; the next one (v1beta1) decides', async () => {
    assert.equal((await listConfigMaps('adv-allow', 'open')).status, 200);
    assert.equal(calls('/guard').length, 0);
    assert.equal(calls('/advisor').length, 1);
    assert.deepEqual(calls('/advisor')[0]?.review.spec.group, ['system:authenticated']);
    const r = await listConfigMaps('nobody', 'open');
    assert.equal(r.status, 403, 'no opinion anywhere is a 403');
  });

  it('failurePolicy Deny: a match condition error refuses the request without calling the webhook', async () => {
    const r = await listConfigMaps('cel-error', 'guarded');
    assert.equal(r.status, 500);
    assert.equal(
      r.text,
      `Internal Server Error: "/api/v1/namespaces/guarded/configmaps": cel evaluation error: expression 'request.user != 'cel-error' || request.extra['missing'][0] == 'x'' resulted in error: no such key: missing\n`,
    );
    assert.equal(calls('/guard').length, 0);
  });

  it('failurePolicy Deny: a timeout or a malformed answer refuses the request', async () => {
    const slow = await listConfigMaps('slow', 'guarded');
    assert.equal(slow.status, 500);
    assert.match(
      slow.text,
      /^Internal Server Error: "\/api\/v1\/namespaces\/guarded\/configmaps": Post "https:\/\/127\.0\.0\.1:\d+\/guard\?timeout=1s": context deadline exceeded/,
    );
    const garbage = await listConfigMaps('garbage', 'guarded');
    assert.equal(garbage.status, 500);
    assert.match(garbage.text, /invalid response body: not JSON/);
    assert.equal(calls('/advisor').length, 0, 'the chain stopped at the guard');
  });

  it('failurePolicy NoOpinion: a timeout or a malformed answer passes to RBAC', async () => {
    const slowOpen = await listConfigMaps('slow', 'open');
    assert.equal(slowOpen.status, 200, slowOpen.text);
    assert.equal((await listConfigMaps('garbage', 'open')).status, 200);
    assert.equal(calls('/advisor').length, 2);
  });

  it('SubjectAccessReviews report a match condition error', async () => {
    const r = await s.api.admin('POST', `/apis/${ORCH_DOMAIN.group('authorization')}/v1/subjectaccessreviews`, {
      body: {
        apiVersion: `${ORCH_DOMAIN.group('authorization')}/v1`,
        kind: 'SubjectAccessReview',
        spec: { user: 'cel-error', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'guarded' } },
      },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().status.denied, true);
    assert.match(r.json().status.evaluationError, /^cel evaluation error: .* no such key: missing$/);
  });

  it('exports kube’s metrics per authorizer', async () => {
    const labelsOf = async (name: string) =>
      ((await registry.getSingleMetric(name)?.get())?.values ?? []).map((v) =>
        Object.values(v.labels).map(String).join('/'),
      );
    assert.ok((await labelsOf('apiserver_authorization_match_condition_exclusions_total')).includes('Webhook/guard'));
    assert.ok(
      (await labelsOf('apiserver_authorization_match_condition_evaluation_errors_total')).includes('Webhook/guard'),
    );
    const evaluations = await labelsOf('apiserver_authorization_webhook_evaluations_total');
    for (const want of ['guard/success', 'guard/timeout', 'guard/error', 'advisor/timeout', 'advisor/error']) {
      assert.ok(evaluations.includes(want), `${want} in ${evaluations}`);
    }
    const failOpen = await labelsOf('apiserver_authorization_webhook_evaluations_fail_open_total');
    assert.deepEqual(failOpen.sort(), ['advisor/error', 'advisor/timeout']);
    const decisions = await labelsOf('apiserver_authorization_decisions_total');
    for (const want of [
      'Webhook/guard/allowed',
      'Webhook/guard/denied',
      'Webhook/advisor/allowed',
      'RBAC/rbac/allowed',
    ]) {
      assert.ok(decisions.includes(want), `${want} in ${decisions}`);
    }
  });

  describe('start-up refusals', () => {
    it('lists every problem of an invalid file', async () => {
      const bad = await files.write(
        'bad.yaml',
        `${head}authorizers:
- type: Webhook
  name: Guard
  webhook:
    timeout: 1m
    subjectAccessReviewVersion: v1
    failurePolicy: Sometimes
    connectionInfo:
      type: OrchConfigFile
      orchConfigFile: relative.kubeconfig
    matchConditions:
    - expression: request.user
- type: RBAC
  name: roles
- type: RBAC
  name: rbac
`,
      );
      await assert.rejects(
        startInProcess({
          runControllers: false,
          dataDir: join(files.dir, 'bad-data'),
          authorization: { configFile: bad },
        }),
        (e: unknown) => {
          assert.deepEqual((e as { problems?: string[] }).problems, [
            `authorizers[0].name: Invalid value: "Guard": authorizer name is invalid: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
            'authorizers[0].timeout: Invalid value: "1m0s": must be > 0s and <= 30s',
            'authorizers[0].matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified',
            'authorizers[0].failurePolicy: Unsupported value: "Sometimes": supported values: "NoOpinion", "Deny"',
            'authorizers[0].connectionInfo.orchConfigFile: Invalid value: "relative.kubeconfig": must be an absolute path',
            'authorizers[0].matchConditions[0].expression: Invalid value: "request.user": must evaluate to bool but got string',
            'authorizers[2].type: Duplicate value: "RBAC"',
            'expected name rbac for authorizer RBAC instead of roles',
          ]);
          return true;
        },
      );
    });

    it('needs the StructuredAuthorizationConfiguration gate', async () => {
      await assert.rejects(
        startInProcess({
          runControllers: false,
          dataDir: join(files.dir, 'gate-data'),
          authorization: { configFile },
          featureGates: { StructuredAuthorizationConfiguration: false },
        }),
        {
          message:
            '--authorization-config cannot be used without enabling StructuredAuthorizationConfiguration feature flag',
        },
      );
    });

    it('orch-apiserver exits when --authorization-config meets --authorization-mode or a webhook flag', () => {
      for (const extra of ['--authorization-mode=RBAC', '--authorization-webhook-version=v1']) {
        const r = spawnSync(
          process.execPath,
          [
            ...bundledProgram('src/cli/orch-apiserver.ts'),
            `--data-dir=${join(files.dir, 'cli-data')}`,
            `--authorization-config=${configFile}`,
            extra,
          ],
          { cwd: ROOT, encoding: 'utf8', timeout: 30_000 },
        );
        assert.equal(r.status, 1, r.stderr);
        assert.equal(
          r.stderr,
          'Error: --authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined\n',
        );
      }
    });
  });
});

describe('authorization configuration reload', () => {
  let files: Awaited<ReturnType<typeof tempDir>>;
  let webhook: SarWebhook;
  let s: InProcessServer;
  let configFile: string;
  let gate: string;
  const registry = new Registry();
  let alice: Awaited<ReturnType<InProcessServer['userCredentials']>>;
  const rbacEntry = '- type: RBAC\n  name: rbac\n';

  const aliceStatus = async () =>
    (await request(s.url, '/api/v1/namespaces/team/configmaps', { ca: s.admin.ca, as: alice })).status;
  const reloads = async () =>
    Object.fromEntries(
      (
        (await registry.getSingleMetric('apiserver_authorization_config_controller_automatic_reloads_total')?.get())
          ?.values ?? []
      ).map((v) => [v.labels.status, v.value]),
    );
  /** Writes the file and waits until the watch made the server count one more reload of `status`. */
  const rewrite = async (text: string, status: 'success' | 'failure') => {
    const before = (await reloads())[status] ?? 0;
    await files.write('authorization.yaml', text);
    const deadline = Date.now() + 10_000;
    while (((await reloads())[status] ?? 0) <= before && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal((await reloads())[status], before + 1, `one more ${status}`);
  };

  before(async () => {
    files = await tempDir('orch-authz-reload-');
    webhook = await startSarWebhook();
    webhook.answer((review) => status(review, { allowed: review.spec.user === 'alice' }));
    gate = webhookEntry({
      name: 'gate',
      kubeconfig: await webhook.writeKubeconfig(files.write),
      failurePolicy: 'Deny',
    });
    configFile = await files.write('authorization.yaml', `${head}authorizers:\n${gate}${rbacEntry}`);
    s = await startInProcess({ runControllers: false, authorization: { configFile }, metrics: registry });
    alice = await s.userCredentials('alice');
  });
  after(async () => {
    await s?.stop();
    await webhook?.close();
    await files?.remove();
  });

  it('follows the file: without the webhook, RBAC alone decides', async () => {
    assert.equal(await aliceStatus(), 200);
    await rewrite(`${head}authorizers:\n${rbacEntry}`, 'success');
    assert.equal(await aliceStatus(), 403);
    const last = await registry
      .getSingleMetric('apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds')
      ?.get();
    const stamp = last?.values.find((v) => v.labels.status === 'success');
    assert.match(String(stamp?.labels.apiserver_id_hash), /^sha256:[0-9a-f]{64}$/);
    assert.ok(Math.abs((stamp?.value ?? 0) - Date.now() / 1000) < 60);
  });

  it('keeps the running chain when a reload is invalid, adds Node or removes RBAC', async () => {
    const invalid = `${head}authorizers:\n${gate.replace('timeout: 1s', 'timeout: 31s')}${rbacEntry}`;
    const addsNode = `${head}authorizers:\n- type: Node\n  name: node\n${rbacEntry}`;
    const removesRbac = `${head}authorizers:\n${gate}`;
    for (const text of [invalid, addsNode, removesRbac]) {
      await rewrite(text, 'failure');
      assert.equal(await aliceStatus(), 403, 'still RBAC alone');
    }
  });

  it('accepts a reordered chain', async () => {
    await rewrite(`${head}authorizers:\n${rbacEntry}${gate}`, 'success');
    assert.equal(await aliceStatus(), 200);
  });
});

describe('authorization configuration with the Node authorizer', () => {
  let files: Awaited<ReturnType<typeof tempDir>>;
  let s: InProcessServer;
  const registry = new Registry();
  const nodeAndRbac = `${head}authorizers:\n- type: Node\n  name: node\n- type: RBAC\n  name: rbac\n`;

  before(async () => {
    files = await tempDir('orch-authz-node-config-');
    const configFile = await files.write('authorization.yaml', nodeAndRbac);
    s = await startInProcess({ runControllers: false, authorization: { configFile }, metrics: registry });
  });
  after(async () => {
    await s?.stop();
    await files?.remove();
  });

  it('takes the server’s Node authorizer: a node may read its own Node, not another', async () => {
    const n1 = await s.userCredentials('system:node:n1', ['system:nodes']);
    const own = await request(s.url, '/api/v1/nodes/n1', { ca: s.admin.ca, as: n1 });
    assert.equal(own.status, 404, 'authorized (the node does not exist)');
    const other = await request(s.url, '/api/v1/nodes/n2', { ca: s.admin.ca, as: n1 });
    assert.equal(other.status, 403);
    const decisions = await registry.getSingleMetric('apiserver_authorization_decisions_total')?.get();
    assert.ok(decisions?.values.some((v) => v.labels.type === 'Node' && v.labels.decision === 'allowed'));
  });

  it('refuses a reload that removes Node, keeping it', async () => {
    await files.write('authorization.yaml', `${head}authorizers:\n- type: RBAC\n  name: rbac\n`);
    const deadline = Date.now() + 10_000;
    const failures = async () =>
      (
        await registry.getSingleMetric('apiserver_authorization_config_controller_automatic_reloads_total')?.get()
      )?.values.find((v) => v.labels.status === 'failure')?.value ?? 0;
    while ((await failures()) < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    assert.equal(await failures(), 1);
    const n1 = await s.userCredentials('system:node:n1', ['system:nodes']);
    assert.equal((await request(s.url, '/api/v1/nodes/n1', { ca: s.admin.ca, as: n1 })).status, 404);
  });
});
