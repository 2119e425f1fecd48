// Mode Webhook end to end with the legacy flags: a loopback HTTPS SubjectAccessReview service
// decides before RBAC; allow, deny, no opinion, malformed answers, caching, reviews and metrics.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import { tempDir } from '../authn/authn-fixture.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { request } from '../support/http-client.js';
import { type SarWebhook, startSarWebhook, status } from './sar-webhook.js';

const RBAC = `/apis/${ORCH_DOMAIN.group('rbac.authorization')}/v1`;
const AUTHZ = `/apis/${ORCH_DOMAIN.group('authorization')}/v1`;
const FAST = { durationMs: 5, factor: 1.5, jitter: 0, steps: 3 };

describe('authorization webhook (--authorization-mode=Webhook,RBAC)', () => {
  let files: Awaited<ReturnType<typeof tempDir>>;
  let webhook: SarWebhook;
  let s: InProcessServer;
  const registry = new Registry();

  const credentials = new Map<string, Awaited<ReturnType<InProcessServer['userCredentials']>>>();
  /** GET /api/v1/namespaces as `user` (one client certificate of the server's CA per user). */
  const listNamespaces = async (user: string) => {
    if (!credentials.has(user)) credentials.set(user, await s.userCredentials(user, ['team']));
    return request(s.url, '/api/v1/namespaces', { ca: s.admin.ca, as: credentials.get(user) });
  };

  before(async () => {
    files = await tempDir('orch-authz-webhook-');
    webhook = await startSarWebhook();
    webhook.answer((review) => {
      switch (review.spec.user) {
        case 'alice':
          return status(review, { allowed: true, reason: 'alice may' });
        case 'mallory':
          return status(review, { allowed: false, denied: true, reason: 'mallory is banned' });
        case 'garbage':
        case 'erin':
          return { body: 'this is not JSON' };
        default:
          return status(review, { allowed: false, reason: 'no idea' });
      }
    });
    const configFile = await webhook.writeKubeconfig(files.write);
    s = await startInProcess({
      runControllers: false,
      authorizationModes: ['Webhook', 'RBAC'],
      authorization: { webhook: { configFile }, webhookRetryBackoff: FAST },
      metrics: registry,
    });
    // RBAC lets carol and erin list namespaces: a webhook without opinion leaves it to RBAC.
    await s.api.admin('POST', `${RBAC}/clusterroles`, {
      body: {
        metadata: { name: 'namespace-reader' },
        rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['list'] }],
      },
    });
    await s.api.admin('POST', `${RBAC}/clusterrolebindings`, {
      body: {
        metadata: { name: 'namespace-readers' },
        roleRef: { apiGroup: ORCH_DOMAIN.group('rbac.authorization'), kind: 'ClusterRole', name: 'namespace-reader' },
        subjects: [
          { apiGroup: ORCH_DOMAIN.group('rbac.authorization'), kind: 'User', name: 'carol' },
          { apiGroup: ORCH_DOMAIN.group('rbac.authorization'), kind: 'User', name: 'erin' },
        ],
      },
    });
  });
  after(async () => {
    await s?.stop();
    await webhook?.close();
    await files?.remove();
  });
  beforeEach(() => {
    webhook.calls.length = 0;
  });

  it('asks the webhook with a v1beta1 review over mutual TLS, and an allowance lets the request in', async () => {
    const r = await listNamespaces('alice');
    assert.equal(r.status, 200, r.text);
    assert.equal(webhook.calls.length, 1);
    const call = webhook.calls[0];
    assert.equal(call?.clientCn, 'orch-apiserver');
    assert.equal(call?.path, '/authorize?timeout=30s');
    assert.equal(call?.review.apiVersion, `${ORCH_DOMAIN.group('authorization')}/v1beta1`);
    const { extra, ...spec } = call?.review.spec ?? {};
    assert.deepEqual(spec, {
      resourceAttributes: { verb: 'list', version: 'v1', resource: 'namespaces' },
      user: 'alice',
      group: ['team', 'system:authenticated'],
    });
    assert.deepEqual(Object.keys(extra), [ORCH_DOMAIN.credentialIdExtra]);
  });

  it('remembers answers: allowed and denied requests are not asked again at once', async () => {
    assert.equal((await listNamespaces('alice')).status, 200);
    assert.equal((await listNamespaces('mallory')).status, 403);
    const before = webhook.calls.length;
    assert.equal((await listNamespaces('alice')).status, 200);
    assert.equal((await listNamespaces('mallory')).status, 403);
    assert.equal(webhook.calls.length, before);
  });

  it('a denial is a 403 with the webhook reason, RBAC not asked', async () => {
    const r = await listNamespaces('mallory');
    assert.equal(r.status, 403);
    assert.equal(
      r.json().message,
      'namespaces is forbidden: User "mallory" cannot list resource "namespaces" in API group "" at the cluster scope: mallory is banned',
    );
  });

  it('no opinion passes to RBAC, which allows or refuses', async () => {
    assert.equal((await listNamespaces('carol')).status, 200);
    const r = await listNamespaces('dave');
    assert.equal(r.status, 403);
    assert.equal(
      r.json().message,
      'namespaces is forbidden: User "dave" cannot list resource "namespaces" in API group "" at the cluster scope: no idea',
    );
  });

  it('a malformed answer fails open (NoOpinion): RBAC may allow, else kube’s plain-text 500', async () => {
    assert.equal((await listNamespaces('erin')).status, 200);
    const r = await listNamespaces('garbage');
    assert.equal(r.status, 500);
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(
      r.text,
      `Internal Server Error: "/api/v1/namespaces": invalid response body: not JSON (post subjectaccessreviews.${ORCH_DOMAIN.group('authorization')})\n`,
    );
    assert.equal(webhook.calls.length, 2, 'failures are not cached and not retried');
  });

  it('SubjectAccessReviews report the webhook’s decision and errors', async () => {
    const review = (user: string) =>
      s.api.admin('POST', `${AUTHZ}/subjectaccessreviews`, {
        body: {
          apiVersion: `${ORCH_DOMAIN.group('authorization')}/v1`,
          kind: 'SubjectAccessReview',
          spec: { user, resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'ns', name: 'p' } },
        },
      });
    assert.deepEqual((await review('alice')).json().status, { allowed: true, reason: 'alice may' });
    assert.deepEqual((await review('garbage')).json().status, {
      allowed: false,
      evaluationError: `invalid response body: not JSON (post subjectaccessreviews.${ORCH_DOMAIN.group('authorization')})`,
    });
  });

  it('counts decisions and round-trips with kube’s metrics', async () => {
    const values = async (name: string) =>
      ((await registry.getSingleMetric(name)?.get())?.values ?? []).map(
        (v) => ({ ...v.labels, value: v.value }) as Record<string, string | number>,
      );
    const decisions = await values('apiserver_authorization_decisions_total');
    assert.ok(decisions.some((d) => d.type === 'Webhook' && d.name === 'default' && d.decision === 'allowed'));
    assert.ok(decisions.some((d) => d.type === 'Webhook' && d.name === 'default' && d.decision === 'denied'));
    const evaluations = await values('apiserver_authorization_webhook_evaluations_total');
    assert.deepEqual(evaluations.map((e) => `${e.name}/${e.result}`).sort(), ['default/error', 'default/success']);
    const failOpen = await values('apiserver_authorization_webhook_evaluations_fail_open_total');
    assert.deepEqual(
      failOpen.map((e) => `${e.name}/${e.result}`),
      ['default/error'],
    );
    const duration = await registry.getSingleMetric('apiserver_authorization_webhook_duration_seconds')?.get();
    assert.ok(
      duration?.values.some(
        (v) =>
          (v as { metricName?: string }).metricName?.endsWith('_count') && v.labels.result === 'success' && v.value > 0,
      ),
    );
  });

  it('refuses to start when the webhook client configuration is unusable', async () => {
    await assert.rejects(
      startInProcess({
        runControllers: false,
        dataDir: `${files.dir}/bad-data`,
        authorizationModes: ['Webhook'],
        authorization: { webhook: { configFile: `${files.dir}/missing.kubeconfig` } },
      }),
      /^AuthorizationConfigError: --authorization-webhook-config-file: ENOENT/,
    );
  });
});
