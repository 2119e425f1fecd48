import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain, ORCH_DOMAIN } from '../../apis/api-domain.js';
import { AuthorizationConfigDecodeError, decodeAuthorizationConfiguration } from './decode-authorization-config.js';

const head = (version = 'v1', domain = ORCH_DOMAIN) =>
  `apiVersion: ${domain.group('apiserver.config')}/${version}\nkind: AuthorizationConfiguration\n`;

describe('decodeAuthorizationConfiguration', () => {
  it('reads authorizers and webhook settings, defaulting the cache times', () => {
    const config = decodeAuthorizationConfiguration(
      `${head()}authorizers:
- type: Node
  name: node
- type: Webhook
  name: policy
  webhook:
    timeout: 3s
    subjectAccessReviewVersion: v1
    matchConditionSubjectAccessReviewVersion: v1
    failurePolicy: Deny
    connectionInfo:
      type: OrchConfigFile
      orchConfigFile: /etc/orch/authz.kubeconfig
    matchConditions:
    - expression: request.user != 'admin'
- type: Webhook
  name: cached
  webhook:
    authorizedTTL: 1m30s
    unauthorizedTTL: 500ms
    timeout: 1s
    connectionInfo:
      type: InClusterConfig
`,
      ORCH_DOMAIN,
    );
    assert.deepEqual(config, {
      authorizers: [
        { type: 'Node', name: 'node' },
        {
          type: 'Webhook',
          name: 'policy',
          webhook: {
            authorizedTTLMs: 300_000,
            unauthorizedTTLMs: 30_000,
            timeoutMs: 3_000,
            subjectAccessReviewVersion: 'v1',
            matchConditionSubjectAccessReviewVersion: 'v1',
            failurePolicy: 'Deny',
            connectionInfo: { type: 'OrchConfigFile', configFile: '/etc/orch/authz.kubeconfig' },
            matchConditions: [{ expression: "request.user != 'admin'" }],
          },
        },
        {
          type: 'Webhook',
          name: 'cached',
          webhook: {
            authorizedTTLMs: 90_000,
            unauthorizedTTLMs: 500,
            timeoutMs: 1_000,
            subjectAccessReviewVersion: '',
            matchConditionSubjectAccessReviewVersion: '',
            failurePolicy: '',
            connectionInfo: { type: 'InClusterConfig', configFile: undefined },
            matchConditions: [],
          },
        },
      ],
    });
  });

  it('accepts v1beta1, v1alpha1 and JSON; an empty file has no authorizers', () => {
    for (const version of ['v1beta1', 'v1alpha1']) {
      assert.deepEqual(decodeAuthorizationConfiguration(`${head(version)}authorizers: []\n`, ORCH_DOMAIN), {
        authorizers: [],
      });
    }
    const json = JSON.stringify({
      apiVersion: 'apiserver.config.orch.io/v1',
      kind: 'AuthorizationConfiguration',
      authorizers: [{ type: 'RBAC', name: 'rbac' }],
    });
    assert.deepEqual(decodeAuthorizationConfiguration(json, ORCH_DOMAIN), {
      authorizers: [{ type: 'RBAC', name: 'rbac' }],
    });
    assert.deepEqual(decodeAuthorizationConfiguration('', ORCH_DOMAIN), { authorizers: [] });
  });

  it('takes the k8s.io profile’s group and kubeConfigFile field', () => {
    const kube = apiDomain('k8s.io');
    const config = decodeAuthorizationConfiguration(
      `${head('v1', kube)}authorizers:\n- type: Webhook\n  name: w\n  webhook:\n    connectionInfo:\n      type: KubeConfigFile\n      kubeConfigFile: /k\n`,
      kube,
    );
    assert.deepEqual(config.authorizers[0]?.webhook?.connectionInfo, { type: 'KubeConfigFile', configFile: '/k' });
  });

  const invalid: { name: string; text: string; message: string }[] = [
    {
      name: 'another group',
      text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n',
      message: 'no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v1"',
    },
    {
      name: 'another kind',
      text: 'apiVersion: apiserver.config.orch.io/v1\nkind: AuthenticationConfiguration\n',
      message: 'no kind "AuthenticationConfiguration" is registered for version "apiserver.config.orch.io/v1"',
    },
    {
      name: 'no kind',
      text: 'apiVersion: apiserver.config.orch.io/v1\n',
      message: `Object 'Kind' is missing in '{"apiVersion":"apiserver.config.orch.io/v1"}'`,
    },
    {
      name: 'unknown fields, all named',
      text: `${head()}authorizers:\n- type: RBAC\n  name: rbac\n  mode: x\n- type: Webhook\n  name: w\n  webhook:\n    retries: 3\nextra: 1\n`,
      message:
        'strict decoding error: unknown field "authorizers[0].mode", unknown field "authorizers[1].webhook.retries", unknown field "extra"',
    },
    {
      name: 'a field of the wrong type',
      text: `${head()}authorizers:\n- type: 7\n  name: x\n`,
      message:
        'json: cannot unmarshal number into Go struct field AuthorizerConfiguration.authorizers.type of type string',
    },
    {
      name: 'authorizers that are not a list',
      text: `${head()}authorizers: {}\n`,
      message:
        'json: cannot unmarshal object into Go struct field AuthorizationConfiguration.authorizers of type []AuthorizerConfiguration',
    },
    {
      name: 'a duration that does not parse',
      text: `${head()}authorizers:\n- type: Webhook\n  name: w\n  webhook:\n    timeout: soon\n`,
      message: 'time: invalid duration "soon"',
    },
    {
      name: 'a duration given as a number',
      text: `${head()}authorizers:\n- type: Webhook\n  name: w\n  webhook:\n    timeout: 30\n`,
      message: 'json: cannot unmarshal number into Go value of type string',
    },
    {
      name: 'a duplicate key',
      text: `${head()}authorizers: []\nauthorizers: []\n`,
      message: 'error converting YAML to JSON: Map keys must be unique at line 4, column 1:',
    },
  ];
  for (const c of invalid) {
    it(`refuses ${c.name}`, () => {
      assert.throws(
        () => decodeAuthorizationConfiguration(c.text, ORCH_DOMAIN),
        (e: unknown) => e instanceof AuthorizationConfigDecodeError && e.message === c.message,
      );
    });
  }
});
