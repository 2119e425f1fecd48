import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import { NO_SELECTORS } from '../../apis/request/authorization-attributes.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import { CelEnvironmentSet } from '../../cel/environment-set.js';
import { versionedCelLibraries } from '../../cel/library/index.js';
import { AuthorizationConfigError } from '../authorization-config-error.js';
import { AuthorizationMetrics } from '../authorization-metrics.js';
import type { Attributes, Authorizer } from '../authorizer.js';
import { MatchConditionCompiler } from '../webhook/match-conditions.js';
import { buildAuthorizationChain } from './authorization-chain.js';
import { loadAuthorizationConfig } from './load-authorization-config.js';

const compiler = new MatchConditionCompiler(new CelEnvironmentSet({ libraries: versionedCelLibraries() }));
const request = { signal: new AbortController().signal };
let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-authz-chain-'));
  await writeFile(
    join(dir, 'down.kubeconfig'),
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: c, cluster: {server: "http://127.0.0.1:1/authorize"}}]',
      'contexts: [{name: x, context: {cluster: c}}]',
      'current-context: x',
    ].join('\n'),
  );
  await writeFile(join(dir, 'broken.kubeconfig'), 'clusters: [{name: c, cluster: {}}]\ncurrent-context: nope\n');
});
after(() => rm(dir, { recursive: true, force: true }));

const head = 'apiVersion: apiserver.config.orch.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n';
const webhookEntry = (name: string, file: string, failurePolicy = 'NoOpinion', conditions: string[] = []) =>
  `- type: Webhook\n  name: ${name}\n  webhook:\n    timeout: 1s\n    subjectAccessReviewVersion: v1\n    matchConditionSubjectAccessReviewVersion: v1\n    failurePolicy: ${failurePolicy}\n    connectionInfo:\n      type: OrchConfigFile\n      orchConfigFile: ${join(dir, file)}\n    matchConditions: [${conditions.map((c) => JSON.stringify({ expression: c })).join(', ')}]\n`;

function attributes(user: UserInfo): Attributes {
  return {
    user,
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
}

/** An RBAC stand-in allowing one user. */
const rbac: Authorizer = {
  decide: (a) => (a.user.name === 'alice' ? { decision: 'allow', reason: '' } : { decision: 'no-opinion', reason: '' }),
  async authorize(a) {
    return this.decide?.(a) ?? { decision: 'no-opinion', reason: '' };
  },
};

async function chainOf(text: string, modules = { rbac }, registry = new Registry()) {
  const loaded = await loadAuthorizationConfig(text, { domain: ORCH_DOMAIN, compiler });
  return buildAuthorizationChain(loaded, {
    modules,
    domain: ORCH_DOMAIN,
    metrics: new AuthorizationMetrics(registry),
    retryBackoff: { durationMs: 1, factor: 1, jitter: 0, steps: 1 },
  });
}

describe('authorization chain from a configuration', () => {
  it('asks the authorizers in order after system:masters, counting decisions by type and name', async () => {
    const registry = new Registry();
    const chain = await chainOf(
      `${head}${webhookEntry('down', 'down.kubeconfig')}- type: RBAC\n  name: rbac\n- type: AlwaysDeny\n  name: alwaysdeny\n`,
      { rbac },
      registry,
    );
    const decide = (user: UserInfo) => chain.authorizer.authorize(attributes(user), request);
    assert.equal((await decide({ name: 'root', groups: ['system:masters'] })).decision, 'allow');
    // The webhook is down (NoOpinion): RBAC allows alice; bob reaches AlwaysDeny, the error kept.
    assert.deepEqual(await decide({ name: 'alice', groups: [] }), { decision: 'allow', reason: '' });
    const bob = await decide({ name: 'bob', groups: [] });
    assert.equal(bob.decision, 'deny');
    assert.equal(bob.reason, 'Everything is forbidden.');
    chain.close();
    const decisions = await registry.getSingleMetric('apiserver_authorization_decisions_total')?.get();
    assert.deepEqual(
      decisions?.values.map((v) => [v.labels.type, v.labels.name, v.labels.decision, v.value]),
      [
        ['RBAC', 'rbac', 'allowed', 1],
        ['AlwaysDeny', 'alwaysdeny', 'denied', 1],
      ],
    );
  });

  it('a failing webhook with failurePolicy Deny stops the chain with the error', async () => {
    const chain = await chainOf(
      `${head}${webhookEntry('down', 'down.kubeconfig', 'Deny')}- type: RBAC\n  name: rbac\n`,
    );
    const r = await chain.authorizer.authorize(attributes({ name: 'alice', groups: [] }), request);
    chain.close();
    assert.equal(r.decision, 'deny');
    assert.match(
      r.evaluationError ?? '',
      /^Post "http:\/\/127\.0\.0\.1:1\/authorize\?timeout=1s": connect ECONNREFUSED/,
    );
  });

  it('skips a webhook whose match conditions exclude the request', async () => {
    const chain = await chainOf(
      `${head}${webhookEntry('down', 'down.kubeconfig', 'Deny', ["request.user != 'alice'"])}- type: RBAC\n  name: rbac\n`,
    );
    assert.deepEqual(await chain.authorizer.authorize(attributes({ name: 'alice', groups: [] }), request), {
      decision: 'allow',
      reason: '',
    });
    chain.close();
  });

  it('refuses an entry whose module the server does not have', async () => {
    await assert.rejects(
      chainOf(`${head}- type: Node\n  name: node\n- type: RBAC\n  name: rbac\n`, {} as { rbac: Authorizer }),
      (e: unknown) =>
        e instanceof AuthorizationConfigError &&
        e.message ===
          '[authorizer type Node needs the Node authorizer, authorizer type RBAC needs the RBAC authorizer]',
    );
  });

  it('reports every client configuration that cannot be used', async () => {
    await assert.rejects(
      loadAuthorizationConfig(
        `${head}${webhookEntry('a', 'broken.kubeconfig')}${webhookEntry('b', 'broken.kubeconfig')}`,
        {
          domain: ORCH_DOMAIN,
          compiler,
        },
      ),
      (e: unknown) =>
        e instanceof AuthorizationConfigError &&
        e.problems.join('\n') ===
          [
            'authorizers[0].connectionInfo.orchConfigFile: current-context: context was not found for specified context: nope',
            'authorizers[1].connectionInfo.orchConfigFile: current-context: context was not found for specified context: nope',
          ].join('\n'),
    );
  });

  it('names a file that does not decode', async () => {
    await assert.rejects(
      loadAuthorizationConfig(`${head}- type: RBAC\n  name: rbac\n  mode: strict\n`, { domain: ORCH_DOMAIN, compiler }),
      {
        message:
          'failed to load AuthorizationConfiguration from file: strict decoding error: unknown field "authorizers[0].mode"',
      },
    );
  });
});
