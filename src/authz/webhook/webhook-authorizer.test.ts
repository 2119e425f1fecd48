import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import { NO_SELECTORS } from '../../apis/request/authorization-attributes.js';
import { requestSelectorAttributes } from '../../apis/request/selector-attributes.js';
import { AuthorizationMetrics } from '../authorization-metrics.js';
import type { Attributes } from '../authorizer.js';
import type { SubjectAccessReviewVersion } from './subject-access-review.js';
import { type FailurePolicy, type WebhookAuthorizerOptions, webhookAuthorizer } from './webhook-authorizer.js';

/** What the loopback webhook answers per call (the last one repeats). */
type Reply = { status: number; body: unknown; delayMs?: number };

const received: { body: Record<string, unknown>; path: string }[] = [];
let replies: Reply[] = [];
let server: Server;
let url: URL;

before(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: JSON.parse(Buffer.concat(chunks).toString()), path: req.url ?? '' });
      const reply = replies.length > 1 ? (replies.shift() as Reply) : (replies[0] as Reply);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/authorize`);
});
after(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  received.length = 0;
});

const FAST = { durationMs: 1, factor: 1.5, jitter: 0, steps: 2 };
const request = { signal: new AbortController().signal };
const alice = { name: 'alice', uid: '42', groups: ['dev', 'system:authenticated'], extra: { scopes: ['b', 'a'] } };

function sar(version: SubjectAccessReviewVersion, status: Record<string, unknown>) {
  return { apiVersion: `${ORCH_DOMAIN.group('authorization')}/${version}`, kind: 'SubjectAccessReview', status };
}

function resource(over: Partial<Attributes> = {}): Attributes {
  return {
    user: alice,
    verb: 'get',
    isResourceRequest: true,
    path: '/api/v1/namespaces/ns/pods/p',
    namespace: 'ns',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'pods',
    subresource: '',
    name: 'p',
    ...NO_SELECTORS,
    ...over,
  };
}

/** A settable clock. */
function manualClock(start = Date.parse('2025-01-01T00:00:00Z')) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

function authorizer(over: Partial<WebhookAuthorizerOptions> = {}) {
  return webhookAuthorizer({
    name: 'test',
    config: { server: url, insecureSkipTlsVerify: false },
    version: 'v1',
    domain: ORCH_DOMAIN,
    authorizedTtlMs: 300_000,
    unauthorizedTtlMs: 30_000,
    timeoutMs: 2_000,
    failurePolicy: 'NoOpinion',
    retryBackoff: FAST,
    ...over,
  });
}

describe('webhookAuthorizer exchange', () => {
  it('sends a v1 SubjectAccessReview with the user, resource attributes and selectors', async () => {
    replies = [{ status: 200, body: sar('v1', { allowed: true, reason: 'fine' }) }];
    const a = authorizer();
    const selectors = requestSelectorAttributes('spec.nodeName=n1,metadata.name!=x', 'app in (web),!tier,gen>1');
    const r = await a.authorize(resource({ verb: 'list', name: '', ...selectors }), request);
    a.close();
    assert.deepEqual(r, { decision: 'allow', reason: 'fine' });
    assert.equal(received[0]?.path, '/authorize?timeout=2s');
    assert.deepEqual(received[0]?.body, {
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.orch.io/v1',
      metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: {
          namespace: 'ns',
          verb: 'list',
          version: 'v1',
          resource: 'pods',
          fieldSelector: {
            requirements: [
              { key: 'metadata.name', operator: 'NotIn', values: ['x'] },
              { key: 'spec.nodeName', operator: 'In', values: ['n1'] },
            ],
          },
          labelSelector: {
            requirements: [
              { key: 'app', operator: 'In', values: ['web'] },
              { key: 'tier', operator: 'DoesNotExist' },
            ],
          },
        },
        user: 'alice',
        groups: ['dev', 'system:authenticated'],
        extra: { scopes: ['b', 'a'] },
        uid: '42',
      },
      status: { allowed: false },
    });
  });

  it('sends v1beta1 with `group` and non-resource attributes', async () => {
    replies = [{ status: 200, body: sar('v1beta1', { denied: true, reason: 'nope' }) }];
    const a = authorizer({ version: 'v1beta1' });
    const r = await a.authorize(
      resource({ isResourceRequest: false, path: '/healthz', verb: 'get', user: { name: 'bob', groups: ['g'] } }),
      request,
    );
    a.close();
    assert.deepEqual(r, { decision: 'deny', reason: 'nope' });
    assert.deepEqual(received[0]?.body.spec, {
      nonResourceAttributes: { path: '/healthz', verb: 'get' },
      user: 'bob',
      group: ['g'],
    });
    assert.equal(received[0]?.body.apiVersion, 'authorization.orch.io/v1beta1');
  });

  const decisions: { name: string; status: Record<string, unknown>; want: Record<string, unknown> }[] = [
    { name: 'allowed', status: { allowed: true }, want: { decision: 'allow', reason: '' } },
    { name: 'denied', status: { allowed: false, denied: true, reason: 'r' }, want: { decision: 'deny', reason: 'r' } },
    {
      name: 'no opinion with a reason',
      status: { allowed: false, reason: 'not mine' },
      want: { decision: 'no-opinion', reason: 'not mine' },
    },
    { name: 'no opinion', status: {}, want: { decision: 'no-opinion', reason: '' } },
    {
      name: 'allowed and denied',
      status: { allowed: true, denied: true, reason: 'both' },
      want: {
        decision: 'deny',
        reason: 'both',
        evaluationError: 'webhook subject access review returned both allow and deny response',
      },
    },
  ];
  for (const c of decisions) {
    it(`decides ${c.name}`, async () => {
      replies = [{ status: 200, body: sar('v1', c.status) }];
      const a = authorizer();
      assert.deepEqual(await a.authorize(resource(), request), c.want);
      a.close();
    });
  }

  it('takes an answer without apiVersion and kind', async () => {
    replies = [{ status: 200, body: { status: { allowed: true } } }];
    const a = authorizer();
    assert.equal((await a.authorize(resource(), request)).decision, 'allow');
    a.close();
  });
});

describe('webhookAuthorizer failures and failure policy', () => {
  const failures: { name: string; reply: Reply | undefined; error: RegExp; calls: number; result: string }[] = [
    {
      name: 'an unreachable webhook',
      reply: undefined,
      error: /^Post "http:\/\/127\.0\.0\.1:1\/authorize\?timeout=200ms": connect ECONNREFUSED/,
      calls: 0,
      result: 'error',
    },
    {
      name: 'a 500, retried',
      reply: { status: 500, body: 'boom' },
      error:
        /^an error on the server \("boom"\) has prevented the request from succeeding \(post subjectaccessreviews\.authorization\.orch\.io\)$/,
      calls: 2,
      result: 'error',
    },
    {
      name: 'an answer that is not JSON',
      reply: { status: 200, body: 'yes' },
      error: /^invalid response body: not JSON/,
      calls: 1,
      result: 'error',
    },
    {
      name: 'a malformed status',
      reply: { status: 200, body: sar('v1', { allowed: 'yes' }) },
      error:
        /^json: cannot unmarshal string into Go struct field SubjectAccessReviewStatus\.status\.allowed of type bool$/,
      calls: 1,
      result: 'error',
    },
    {
      name: 'an answer of another kind',
      reply: { status: 200, body: { apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', status: {} } },
      error:
        /^the webhook answered authentication\.orch\.io\/v1, Kind=TokenReview; expected authorization\.orch\.io\/v1, Kind=SubjectAccessReview$/,
      calls: 1,
      result: 'error',
    },
    {
      name: 'an answer of another version',
      reply: { status: 200, body: sar('v1beta1', { allowed: true }) },
      error: /expected authorization\.orch\.io\/v1, Kind=SubjectAccessReview$/,
      calls: 1,
      result: 'error',
    },
    {
      name: 'a webhook slower than the timeout',
      reply: { status: 200, body: sar('v1', { allowed: true }), delayMs: 1_500 },
      error: /^Post "http:\/\/127\.0\.0\.1:\d+\/authorize\?timeout=200ms": context deadline exceeded/,
      calls: 1,
      result: 'timeout',
    },
  ];
  for (const policy of ['NoOpinion', 'Deny'] as FailurePolicy[]) {
    for (const c of failures) {
      it(`${policy}: ${c.name}`, async () => {
        if (c.reply) replies = [c.reply];
        const registry = new Registry();
        const a = authorizer({
          failurePolicy: policy,
          timeoutMs: 200,
          metrics: new AuthorizationMetrics(registry),
          ...(c.reply
            ? {}
            : { config: { server: new URL('http://127.0.0.1:1/authorize'), insecureSkipTlsVerify: false } }),
        });
        const r = await a.authorize(resource(), request);
        a.close();
        assert.equal(r.decision, policy === 'Deny' ? 'deny' : 'no-opinion');
        assert.equal(r.reason, '');
        assert.match(r.evaluationError ?? '', c.error);
        assert.equal(received.length, c.calls);
        const evaluations = await registry.getSingleMetric('apiserver_authorization_webhook_evaluations_total')?.get();
        const byResult = Object.fromEntries((evaluations?.values ?? []).map((v) => [v.labels.result, v.value]));
        assert.deepEqual(Object.keys(byResult), [c.result]);
        const failOpen = await registry
          .getSingleMetric('apiserver_authorization_webhook_evaluations_fail_open_total')
          ?.get();
        assert.deepEqual(
          (failOpen?.values ?? []).map((v) => [v.labels.name, v.labels.result, v.value]),
          policy === 'NoOpinion' ? [['test', c.result, 1]] : [],
        );
      });
    }
  }
});

describe('webhookAuthorizer cache', () => {
  it('keeps allowed answers for the authorized TTL and others for the unauthorized TTL', async () => {
    const clock = manualClock();
    const a = authorizer({ clock, authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000 });
    replies = [{ status: 200, body: sar('v1', { allowed: true }) }];
    const allowed = resource({ name: 'allowed' });
    const denied = resource({ name: 'denied' });
    await a.authorize(allowed, request);
    replies = [{ status: 200, body: sar('v1', { denied: true }) }];
    await a.authorize(denied, request);
    assert.equal(received.length, 2);
    clock.advance(29_999);
    await a.authorize(allowed, request);
    await a.authorize(denied, request);
    assert.equal(received.length, 2, 'both answers still cached');
    clock.advance(1);
    assert.equal((await a.authorize(denied, request)).decision, 'deny');
    assert.equal(received.length, 3, 'the denial expired after 30s');
    clock.advance(300_000 - 30_000 - 1);
    await a.authorize(allowed, request);
    assert.equal(received.length, 3, 'the allowance is kept for 5m');
    clock.advance(1);
    await a.authorize(allowed, request);
    assert.equal(received.length, 4, 'and asked again after');
    a.close();
  });

  it('keys answers by the whole spec and caches nothing with a TTL of 0 or after a failure', async () => {
    const a = authorizer({ authorizedTtlMs: 0, unauthorizedTtlMs: 30_000 });
    replies = [{ status: 200, body: sar('v1', { allowed: true }) }];
    await a.authorize(resource(), request);
    await a.authorize(resource(), request);
    assert.equal(received.length, 2, 'allowed answers not cached with TTL 0');
    replies = [{ status: 200, body: sar('v1', {}) }];
    await a.authorize(resource({ verb: 'watch' }), request);
    await a.authorize(resource({ verb: 'watch', user: { ...alice, groups: ['other'] } }), request);
    await a.authorize(resource({ verb: 'watch' }), request);
    assert.equal(received.length, 4, 'another user is another key; the first answer is cached');
    replies = [{ status: 500, body: 'down' }];
    await a.authorize(resource({ verb: 'patch' }), request);
    replies = [{ status: 200, body: sar('v1', { allowed: true }) }];
    assert.equal((await a.authorize(resource({ verb: 'patch' }), request)).decision, 'allow');
    a.close();
  });

  it('does not cache requests with very long attributes', async () => {
    const a = authorizer();
    replies = [{ status: 200, body: sar('v1', { allowed: true }) }];
    const long = resource({ name: 'x'.repeat(10_000) });
    await a.authorize(long, request);
    await a.authorize(long, request);
    assert.equal(received.length, 2);
    a.close();
  });
});

describe('webhookAuthorizer match conditions', () => {
  const cases: { name: string; matches: () => boolean; want: Record<string, unknown>; calls: number }[] = [
    { name: 'all true: the webhook is asked', matches: () => true, want: { decision: 'allow', reason: '' }, calls: 1 },
    { name: 'one false: skipped', matches: () => false, want: { decision: 'no-opinion', reason: '' }, calls: 0 },
    {
      name: 'an error: the failure policy decides',
      matches: () => {
        throw new Error('cel evaluation error: boom');
      },
      want: { decision: 'deny', reason: '', evaluationError: 'cel evaluation error: boom' },
      calls: 0,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      replies = [{ status: 200, body: sar('v1', { allowed: true }) }];
      const seen: unknown[] = [];
      const a = authorizer({
        failurePolicy: 'Deny',
        matcher: {
          matches: (spec) => {
            seen.push(spec);
            return c.matches();
          },
        },
      });
      assert.deepEqual(await a.authorize(resource(), request), c.want);
      assert.equal(received.length, c.calls);
      assert.equal((seen[0] as { user: string }).user, 'alice');
      a.close();
    });
  }

  it('cannot list rules', async () => {
    const a = authorizer();
    assert.deepEqual(await a.rulesFor?.(alice, 'ns', request), {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      errors: ['webhook authorizer does not support user rule resolution'],
    });
    a.close();
  });
});
