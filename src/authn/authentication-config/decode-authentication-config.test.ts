import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import { decodeAuthenticationConfiguration } from './decode-authentication-config.js';

const orch = apiDomain('orch.io');
const head = (version = 'v1beta1', group = 'apiserver.config.orch.io') =>
  `apiVersion: ${group}/${version}\nkind: AuthenticationConfiguration\n`;

describe('decodeAuthenticationConfiguration', () => {
  it('decodes every field, filling absent ones with Go zero values', () => {
    const c = decodeAuthenticationConfiguration(
      `${head()}jwt:
- issuer:
    url: https://idp.example
    discoveryURL: https://idp.example/d
    certificateAuthority: PEM
    audiences: [a, b]
    audienceMatchPolicy: MatchAny
  claimValidationRules:
  - claim: hd
    requiredValue: example.com
  - expression: "true"
    message: m
  claimMappings:
    username: {claim: email, prefix: ""}
    groups: {expression: claims.groups}
    uid: {claim: sub}
    extra: [{key: example.com/a, valueExpression: claims.a}]
  userValidationRules: [{expression: "true", message: m}]
anonymous:
  enabled: true
  conditions: [{path: /livez}]
`,
      orch,
    );
    assert.deepEqual(c, {
      jwt: [
        {
          issuer: {
            url: 'https://idp.example',
            discoveryURL: 'https://idp.example/d',
            certificateAuthority: 'PEM',
            audiences: ['a', 'b'],
            audienceMatchPolicy: 'MatchAny',
          },
          claimValidationRules: [
            { claim: 'hd', requiredValue: 'example.com', expression: '', message: '' },
            { claim: '', requiredValue: '', expression: 'true', message: 'm' },
          ],
          claimMappings: {
            username: { claim: 'email', prefix: '', expression: '' },
            groups: { claim: '', prefix: undefined, expression: 'claims.groups' },
            uid: { claim: 'sub', expression: '' },
            extra: [{ key: 'example.com/a', valueExpression: 'claims.a' }],
          },
          userValidationRules: [{ expression: 'true', message: 'm' }],
        },
      ],
      anonymous: { enabled: true, conditions: [{ path: '/livez' }] },
    });
  });

  it('accepts v1alpha1 and JSON, and the k8s.io group in that profile only', () => {
    assert.deepEqual(decodeAuthenticationConfiguration(`${head('v1alpha1')}jwt: []\n`, orch), { jwt: [] });
    const json = JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1beta1', kind: 'AuthenticationConfiguration' });
    assert.deepEqual(decodeAuthenticationConfiguration(json, apiDomain('k8s.io')), { jwt: [] });
    assert.throws(
      () => decodeAuthenticationConfiguration(json, orch),
      /no kind "AuthenticationConfiguration" is registered for version "apiserver\.config\.k8s\.io\/v1beta1"/,
    );
  });

  const failures: [string, string, string | RegExp][] = [
    ['empty', '', 'empty config data'],
    ['not YAML', 'a: [', /^error converting YAML to JSON: .*line 1/],
    ['duplicate keys', `${head()}jwt: []\njwt: []\n`, /^error converting YAML to JSON: Map keys must be unique/],
    ['not an object', '- a\n', /not an object/],
    ['no kind', 'apiVersion: apiserver.config.orch.io/v1beta1\n', /^Object 'Kind' is missing in/],
    [
      'another kind',
      'apiVersion: apiserver.config.orch.io/v1beta1\nkind: AuthorizationConfiguration\n',
      'no kind "AuthorizationConfiguration" is registered for version "apiserver.config.orch.io/v1beta1"',
    ],
    [
      'wrong type',
      `${head()}jwt:\n- claimMappings:\n    username:\n      prefix: 1\n`,
      'json: cannot unmarshal number into Go struct field PrefixedClaimOrExpression.jwt.claimMappings.username.prefix of type string',
    ],
    [
      'wrong list type',
      `${head()}jwt: {}\n`,
      'json: cannot unmarshal object into Go struct field AuthenticationConfiguration.jwt of type []v1beta1.JWTAuthenticator',
    ],
    [
      'wrong bool',
      `${head()}anonymous:\n  enabled: "yes"\n`,
      'json: cannot unmarshal string into Go struct field AnonymousAuthConfig.anonymous.enabled of type bool',
    ],
    [
      'unknown fields, all named',
      `${head()}jwt:\n- issuer: {url: x, audience: a}\n  claimMapping: {}\nextra: 1\n`,
      'strict decoding error: unknown field "jwt[0].issuer.audience", unknown field "jwt[0].claimMapping", unknown field "extra"',
    ],
  ];
  for (const [name, text, expected] of failures) {
    it(`refuses: ${name}`, () => {
      assert.throws(
        () => decodeAuthenticationConfiguration(text, orch),
        (e: Error) => {
          if (typeof expected === 'string') assert.equal(e.message, expected);
          else assert.match(e.message, expected);
          return e.name === 'AuthenticationConfigDecodeError';
        },
      );
    });
  }
});
