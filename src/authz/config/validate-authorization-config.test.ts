import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiDomain, ORCH_DOMAIN } from '../../apis/api-domain.js';
import { CelEnvironmentSet } from '../../cel/environment-set.js';
import { versionedCelLibraries } from '../../cel/library/index.js';
import { MatchConditionCompiler } from '../webhook/match-conditions.js';
import type { AuthorizationConfiguration, AuthorizerConfiguration, WebhookConfiguration } from './types.js';
import { validateAuthorizationConfiguration } from './validate-authorization-config.js';

const compiler = new MatchConditionCompiler(new CelEnvironmentSet({ libraries: versionedCelLibraries() }));
let dir: string;
let kubeconfig: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-authz-config-'));
  kubeconfig = join(dir, 'webhook.kubeconfig');
  await writeFile(kubeconfig, 'apiVersion: v1\n');
});
after(() => rm(dir, { recursive: true, force: true }));

function webhook(over: Partial<WebhookConfiguration> = {}): WebhookConfiguration {
  return {
    authorizedTTLMs: 300_000,
    unauthorizedTTLMs: 30_000,
    timeoutMs: 3_000,
    subjectAccessReviewVersion: 'v1',
    matchConditionSubjectAccessReviewVersion: 'v1',
    failurePolicy: 'Deny',
    connectionInfo: { type: 'OrchConfigFile', configFile: kubeconfig },
    matchConditions: [],
    ...over,
  };
}

const wh = (over: Partial<WebhookConfiguration> = {}, name = 'first'): AuthorizerConfiguration => ({
  type: 'Webhook',
  name,
  webhook: webhook(over),
});
const rbac: AuthorizerConfiguration = { type: 'RBAC', name: 'rbac' };
const node: AuthorizerConfiguration = { type: 'Node', name: 'node' };

function errorsOf(authorizers: AuthorizerConfiguration[], initialTypes?: string[], domain = ORCH_DOMAIN): string[] {
  const config: AuthorizationConfiguration = { authorizers };
  return [
    ...validateAuthorizationConfiguration(config, {
      domain,
      compiler,
      initialTypes: initialTypes && new Set(initialTypes),
    }).errors,
  ];
}

describe('validateAuthorizationConfiguration', () => {
  it('accepts a chain of Node, webhooks with match conditions, and RBAC', () => {
    const conditions = [
      { expression: "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'team'" },
      { expression: "request.user != 'admin'" },
    ];
    assert.deepEqual(errorsOf([node, wh({ matchConditions: conditions }), wh({}, 'second'), rbac]), []);
  });

  const cases: { name: string; authorizers: () => AuthorizerConfiguration[]; errors: string[]; required?: string[] }[] =
    [
      {
        name: 'no authorizers',
        authorizers: () => [],
        errors: ['authorizers: Required value: at least one authorization mode must be defined'],
      },
      {
        name: 'a missing type',
        authorizers: () => [{ type: '', name: 'x' }],
        errors: ['authorizers[0].type: Required value'],
      },
      {
        name: 'an unknown type',
        authorizers: () => [{ type: 'Magic', name: 'magic' }],
        errors: [
          'authorizers[0].type: Unsupported value: "Magic": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"',
        ],
      },
      {
        name: 'Node or RBAC twice',
        authorizers: () => [node, rbac, { type: 'Node', name: 'node' }, { type: 'RBAC', name: 'rbac' }],
        errors: ['authorizers[2].type: Duplicate value: "Node"', 'authorizers[3].type: Duplicate value: "RBAC"'],
      },
      {
        name: 'a missing, repeated or malformed name',
        authorizers: () => [wh({}, ''), wh({}, 'same'), wh({}, 'same'), wh({}, 'Not_A.Name')],
        errors: [
          'authorizers[0].name: Required value',
          'authorizers[2].name: Duplicate value: "same"',
          `authorizers[3].name: Invalid value: "Not_A.Name": authorizer name is invalid: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        ],
      },
      {
        name: 'a non-webhook authorizer not named after its type',
        authorizers: () => [{ type: 'RBAC', name: 'roles' }],
        errors: ['expected name rbac for authorizer RBAC instead of roles'],
      },
      {
        name: 'a webhook without settings, and settings on RBAC',
        authorizers: () => [
          { type: 'Webhook', name: 'w' },
          { type: 'RBAC', name: 'rbac', webhook: webhook() },
        ],
        errors: [
          'authorizers[0].webhook: Required value: required when type=Webhook',
          'authorizers[1].webhook: Invalid value: "non-null": may only be specified when type=Webhook',
        ],
      },
      {
        name: 'a missing timeout',
        authorizers: () => [wh({ timeoutMs: 0 })],
        errors: ['authorizers[0].timeout: Required value'],
      },
      {
        name: 'a timeout above 30s or negative',
        authorizers: () => [wh({ timeoutMs: 30_001 }, 'a'), wh({ timeoutMs: -5_000 }, 'b')],
        errors: [
          'authorizers[0].timeout: Invalid value: "30.001s": must be > 0s and <= 30s',
          'authorizers[1].timeout: Invalid value: "-5s": must be > 0s and <= 30s',
        ],
      },
      {
        name: 'negative cache times',
        authorizers: () => [wh({ authorizedTTLMs: -60_000, unauthorizedTTLMs: -1 })],
        errors: [
          'authorizers[0].authorizedTTL: Invalid value: "-1m0s": must be > 0s',
          'authorizers[0].unauthorizedTTL: Invalid value: "-1ms": must be > 0s',
        ],
      },
      {
        name: 'a missing or unknown SubjectAccessReview version',
        authorizers: () => [wh({ subjectAccessReviewVersion: '' }, 'a'), wh({ subjectAccessReviewVersion: 'v2' }, 'b')],
        errors: [
          'authorizers[0].subjectAccessReviewVersion: Required value',
          'authorizers[1].subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1"',
        ],
      },
      {
        name: 'match conditions without their version, or with v1beta1',
        authorizers: () => [
          wh({ matchConditionSubjectAccessReviewVersion: '', matchConditions: [{ expression: 'true' }] }, 'a'),
          wh({ matchConditionSubjectAccessReviewVersion: 'v1beta1' }, 'b'),
          wh({ matchConditionSubjectAccessReviewVersion: '' }, 'c'),
        ],
        errors: [
          'authorizers[0].matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified',
          'authorizers[1].matchConditionSubjectAccessReviewVersion: Unsupported value: "v1beta1": supported values: "v1"',
        ],
      },
      {
        name: 'a missing or unknown failure policy',
        authorizers: () => [wh({ failurePolicy: '' }, 'a'), wh({ failurePolicy: 'Allow' }, 'b')],
        errors: [
          'authorizers[0].failurePolicy: Required value',
          'authorizers[1].failurePolicy: Unsupported value: "Allow": supported values: "NoOpinion", "Deny"',
        ],
      },
      {
        name: 'connection info without type, in-cluster, or of an unknown type',
        authorizers: () => [
          wh({ connectionInfo: { type: '', configFile: undefined } }, 'a'),
          wh({ connectionInfo: { type: 'InClusterConfig', configFile: undefined } }, 'b'),
          wh({ connectionInfo: { type: 'InClusterConfig', configFile: '/x' } }, 'c'),
          wh({ connectionInfo: { type: 'Telepathy', configFile: undefined } }, 'd'),
        ],
        errors: [
          'authorizers[0].connectionInfo.type: Required value',
          'authorizers[1].connectionInfo.type: Forbidden: InClusterConfig is not allowed for the API server',
          'authorizers[2].connectionInfo.orchConfigFile: Invalid value: "/x": can only be set when type=OrchConfigFile',
          'authorizers[2].connectionInfo.type: Forbidden: InClusterConfig is not allowed for the API server',
          'authorizers[3].connectionInfo.type: Unsupported value: apiserver.WebhookConnectionInfo{Type:"Telepathy", OrchConfigFile:(*string)(nil)}: supported values: "InClusterConfig", "OrchConfigFile"',
        ],
      },
      {
        name: 'a client configuration file that is absent, relative, missing or a directory',
        authorizers: () => [
          wh({ connectionInfo: { type: 'OrchConfigFile', configFile: undefined } }, 'a'),
          wh({ connectionInfo: { type: 'OrchConfigFile', configFile: 'relative.kubeconfig' } }, 'b'),
          wh({ connectionInfo: { type: 'OrchConfigFile', configFile: join(dir, 'missing') } }, 'c'),
          wh({ connectionInfo: { type: 'OrchConfigFile', configFile: dir } }, 'd'),
        ],
        errors: [
          'authorizers[0].connectionInfo.orchConfigFile: Required value',
          'authorizers[1].connectionInfo.orchConfigFile: Invalid value: "relative.kubeconfig": must be an absolute path',
          'authorizers[2].connectionInfo.orchConfigFile: Invalid value: "<dir>/missing": error loading file: stat <dir>/missing: no such file or directory',
          'authorizers[3].connectionInfo.orchConfigFile: Invalid value: "<dir>": must be a regular file',
        ],
      },
      {
        name: 'more than 64 match conditions',
        authorizers: () => [
          wh({ matchConditions: Array.from({ length: 65 }, (_, i) => ({ expression: `${i} > 0` })) }),
        ],
        errors: ['authorizers[0].matchConditions: Too many: 65: must have at most 64 items'],
      },
      {
        name: 'match conditions blank, repeated, not boolean or not compiling',
        authorizers: () => [
          wh({
            matchConditions: [
              { expression: ' ' },
              { expression: "request.user == 'a'" },
              { expression: "request.user == 'a'" },
              { expression: 'request.groups' },
              { expression: 'request.kind == 1' },
            ],
          }),
        ],
        errors: [
          'authorizers[0].matchConditions[0].expression: Required value',
          `authorizers[0].matchConditions[2].expression: Duplicate value: "request.user == 'a'"`,
          'authorizers[0].matchConditions[3].expression: Invalid value: "request.groups": must evaluate to bool but got list<string>',
          'authorizers[0].matchConditions[4].expression: Invalid value: "request.kind == 1": compilation failed: ERROR: <input>:1:8: undefined field \'kind\'\n | request.kind == 1\n | .......^',
        ],
      },
      {
        name: 'a reload without a type the server started with',
        authorizers: () => [wh(), rbac],
        required: ['Node', 'RBAC', 'Webhook'],
        errors: ['missing required types: [Node]'],
      },
      {
        name: 'a reload adding Node',
        authorizers: () => [rbac, node, { type: 'AlwaysDeny', name: 'alwaysdeny' }],
        required: ['RBAC', 'Webhook'],
        errors: ['authorizer type Node is not allowed if it was not enabled at initial server startup'],
      },
      {
        name: 'a reload reordering Node and RBAC and dropping every webhook',
        authorizers: () => [rbac, node],
        required: ['Node', 'Webhook', 'RBAC'],
        errors: [],
      },
    ];
  for (const c of cases) {
    it(`lists the problems of ${c.name}`, () => {
      assert.deepEqual(
        errorsOf(c.authorizers(), c.required),
        c.errors.map((e) => e.replaceAll('<dir>', dir)),
      );
    });
  }

  it('names the client configuration fields after the API domain', () => {
    const kube = apiDomain('k8s.io');
    assert.deepEqual(
      errorsOf([wh({ connectionInfo: { type: 'KubeConfigFile', configFile: kubeconfig } })], undefined, kube),
      [],
    );
    assert.deepEqual(errorsOf([wh({ connectionInfo: { type: 'KubeConfigFile', configFile: 'x' } })], undefined, kube), [
      'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "x": must be an absolute path',
    ]);
    assert.match(
      errorsOf([wh({ connectionInfo: { type: 'OrchConfigFile', configFile: kubeconfig } })], undefined, kube)[0] ?? '',
      /supported values: "InClusterConfig", "KubeConfigFile"$/,
    );
  });

  it('reports every problem of several authorizers at once', () => {
    const errors = errorsOf([wh({ timeoutMs: 0, failurePolicy: '' }, ''), { type: 'Node', name: 'nodes' }], ['RBAC']);
    assert.deepEqual(errors, [
      'authorizers[0].name: Required value',
      'authorizers[0].timeout: Required value',
      'authorizers[0].failurePolicy: Required value',
      'expected name node for authorizer Node instead of nodes',
      'missing required types: [RBAC]',
      'authorizer type Node is not allowed if it was not enabled at initial server startup',
    ]);
  });
});
