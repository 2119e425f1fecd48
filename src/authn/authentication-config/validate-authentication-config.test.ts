import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import { formatFieldError } from '../../apis/meta/field-error.js';
import { CelEnvironmentSet } from '../../cel/environment-set.js';
import { versionedCelLibraries } from '../../cel/library/index.js';
import { AuthenticationCelCompiler } from './authentication-cel-compiler.js';
import type { AuthenticationConfiguration, JwtAuthenticatorConfig } from './types.js';
import { type ConfigValidationContext, validateAuthenticationConfiguration } from './validate-authentication-config.js';

const compiler = new AuthenticationCelCompiler(new CelEnvironmentSet({ libraries: versionedCelLibraries() }));
const ctx = (over: Partial<ConfigValidationContext> = {}): ConfigValidationContext => ({
  compiler,
  disallowedIssuers: [],
  domain: apiDomain('orch.io'),
  anonymousConfigurableEndpoints: true,
  ...over,
});

/** A valid authenticator; `patch` replaces parts of it. */
function jwt(
  patch: {
    issuer?: Partial<JwtAuthenticatorConfig['issuer']>;
    claimValidationRules?: Partial<JwtAuthenticatorConfig['claimValidationRules'][number]>[];
    claimMappings?: Partial<{
      username: Partial<JwtAuthenticatorConfig['claimMappings']['username']>;
      groups: Partial<JwtAuthenticatorConfig['claimMappings']['groups']>;
      uid: Partial<JwtAuthenticatorConfig['claimMappings']['uid']>;
      extra: JwtAuthenticatorConfig['claimMappings']['extra'];
    }>;
    userValidationRules?: Partial<JwtAuthenticatorConfig['userValidationRules'][number]>[];
  } = {},
): JwtAuthenticatorConfig {
  const m = patch.claimMappings ?? {};
  return {
    issuer: {
      url: 'https://idp.example',
      discoveryURL: '',
      certificateAuthority: '',
      audiences: ['orch'],
      audienceMatchPolicy: '',
      ...patch.issuer,
    },
    claimValidationRules: (patch.claimValidationRules ?? []).map((r) => ({
      claim: '',
      requiredValue: '',
      expression: '',
      message: '',
      ...r,
    })),
    claimMappings: {
      username: { claim: 'sub', prefix: '', expression: '', ...m.username },
      groups: { claim: '', prefix: undefined, expression: '', ...m.groups },
      uid: { claim: '', expression: '', ...m.uid },
      extra: m.extra ?? [],
    },
    userValidationRules: (patch.userValidationRules ?? []).map((r) => ({ expression: '', message: '', ...r })),
  };
}

function problems(config: AuthenticationConfiguration, c = ctx()): string[] {
  return validateAuthenticationConfiguration(config, c).errors.map(formatFieldError);
}

const one = (a: JwtAuthenticatorConfig) => problems({ jwt: [a] });

const ERR = (expression: string, column: number, what: string) =>
  `compilation failed: ERROR: <input>:1:${column}: ${what}\n | ${expression}\n | ${'.'.repeat(column - 1)}^`;

describe('validateAuthenticationConfiguration', () => {
  it('accepts zero authenticators and a full valid one, compiling every expression once', () => {
    assert.deepEqual(problems({ jwt: [] }), []);
    const full = jwt({
      issuer: { audiences: ['a', 'b'], audienceMatchPolicy: 'MatchAny', discoveryURL: 'https://idp.example/d' },
      claimValidationRules: [
        { claim: 'hd', requiredValue: 'example.com' },
        { expression: 'claims.email_verified == true' },
      ],
      claimMappings: {
        username: { claim: '', prefix: undefined, expression: 'claims.email' },
        groups: { expression: 'claims.groups' },
        uid: { expression: 'claims.sub' },
        extra: [{ key: 'example.com/x', valueExpression: 'claims.x' }],
      },
      userValidationRules: [{ expression: "user.username != ''", message: 'm' }],
    });
    const r = validateAuthenticationConfiguration({ jwt: [full] }, ctx());
    assert.deepEqual(r.errors, []);
    const c = r.authenticators[0];
    assert.ok(c?.username && c.groups && c.uid);
    assert.equal(c.extra.length, 1);
    assert.equal(c.claimValidationRules.length, 1);
    assert.equal(c.userValidationRules.length, 1);
  });

  const cases: [string, JwtAuthenticatorConfig, string[]][] = [
    ['issuer URL required', jwt({ issuer: { url: '' } }), ['jwt[0].issuer.url: Required value: URL is required']],
    [
      'issuer URL https, no user, query or fragment',
      jwt({ issuer: { url: 'http://u:p@idp.example/?q=1#f' } }),
      [
        'jwt[0].issuer.url: Invalid value: "http://u:p@idp.example/?q=1#f": URL scheme must be https',
        'jwt[0].issuer.url: Invalid value: "http://u:p@idp.example/?q=1#f": URL must not contain a username or password',
        'jwt[0].issuer.url: Invalid value: "http://u:p@idp.example/?q=1#f": URL must not contain a query',
        'jwt[0].issuer.url: Invalid value: "http://u:p@idp.example/?q=1#f": URL must not contain a fragment',
      ],
    ],
    [
      'unparsable URL',
      jwt({ issuer: { url: '://x' } }),
      ['jwt[0].issuer.url: Invalid value: "://x": parse "://x": missing protocol scheme'],
    ],
    [
      'discovery URL differs from the URL and is https',
      jwt({ issuer: { discoveryURL: 'https://idp.example/' } }),
      ['jwt[0].issuer.discoveryURL: Invalid value: "https://idp.example/": discoveryURL must be different from URL'],
    ],
    [
      'discovery URL scheme',
      jwt({ issuer: { discoveryURL: 'http://idp.example/d' } }),
      ['jwt[0].issuer.discoveryURL: Invalid value: "http://idp.example/d": URL scheme must be https'],
    ],
    [
      'audiences required',
      jwt({ issuer: { audiences: [] } }),
      ['jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required'],
    ],
    [
      'audiences non-empty and unique; MatchAny for several',
      jwt({ issuer: { audiences: ['a', '', 'a'] } }),
      [
        "jwt[0].issuer.audiences[1]: Required value: audience can't be empty",
        'jwt[0].issuer.audiences[2]: Duplicate value: "a"',
        'jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences',
      ],
    ],
    [
      'audienceMatchPolicy empty or MatchAny for one audience',
      jwt({ issuer: { audienceMatchPolicy: 'MatchAll' } }),
      [
        'jwt[0].issuer.audienceMatchPolicy: Invalid value: "MatchAll": audienceMatchPolicy must be empty or MatchAny for single audience',
      ],
    ],
    [
      'certificate authority must hold certificates',
      jwt({ issuer: { certificateAuthority: 'not a pem' } }),
      [
        'jwt[0].issuer.certificateAuthority: Invalid value: "<omitted>": data does not contain any valid RSA or ECDSA certificates',
      ],
    ],
    [
      'claim rule: claim xor expression',
      jwt({ claimValidationRules: [{ claim: 'a', expression: 'true' }, {}] }),
      [
        'jwt[0].claimValidationRules[0]: Invalid value: "a": claim and expression can\'t both be set',
        'jwt[0].claimValidationRules[1]: Required value: claim or expression is required',
      ],
    ],
    [
      'claim rule: no message with claim; unique claims',
      jwt({ claimValidationRules: [{ claim: 'a', message: 'm' }, { claim: 'a' }] }),
      [
        'jwt[0].claimValidationRules[0].message: Invalid value: "m": message can\'t be set when claim is set',
        'jwt[0].claimValidationRules[1].claim: Duplicate value: "a"',
      ],
    ],
    [
      'claim rule: no requiredValue with expression; unique, boolean, compiling expressions',
      jwt({
        claimValidationRules: [
          { expression: 'claims.a == 1', requiredValue: 'x' },
          { expression: 'claims.a == 1' },
          { expression: 'claims.a' },
          { expression: 'claims.a ==' },
        ],
      }),
      [
        'jwt[0].claimValidationRules[0].requiredValue: Invalid value: "x": requiredValue can\'t be set when expression is set',
        'jwt[0].claimValidationRules[1].expression: Duplicate value: "claims.a == 1"',
        'jwt[0].claimValidationRules[2].expression: Invalid value: "claims.a": must evaluate to bool',
        `jwt[0].claimValidationRules[3].expression: Invalid value: "claims.a ==": ${ERR('claims.a ==', 12, 'Syntax error: unexpected token: EOF')}`,
      ],
    ],
    [
      'username: claim or expression required',
      jwt({ claimMappings: { username: { claim: '', prefix: undefined } } }),
      ['jwt[0].claimMappings.username: Required value: claim or expression is required'],
    ],
    [
      'username: claim and expression exclusive',
      jwt({ claimMappings: { username: { claim: 'sub', expression: 'claims.sub' } } }),
      ['jwt[0].claimMappings.username: Invalid value: "": claim and expression can\'t both be set'],
    ],
    [
      'username: prefix required with claim, forbidden with expression',
      jwt({
        claimMappings: {
          username: { claim: 'sub', prefix: undefined },
          groups: { expression: 'claims.g', prefix: 'p' },
        },
      }),
      [
        'jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
        'jwt[0].claimMappings.groups.prefix: Invalid value: "p": prefix can\'t be set when expression is set',
      ],
    ],
    [
      'groups: claim and expression exclusive; expression compiles',
      jwt({ claimMappings: { groups: { claim: 'g', expression: 'claims.g' } } }),
      ['jwt[0].claimMappings.groups: Invalid value: "": claim and expression can\'t both be set'],
    ],
    [
      'uid: claim and expression exclusive; expression compiles',
      jwt({ claimMappings: { uid: { claim: 'sub', expression: 'claims.sub' } } }),
      ['jwt[0].claimMappings.uid: Invalid value: "": claim and expression can\'t both be set'],
    ],
    [
      'uid expression with an undeclared variable',
      jwt({ claimMappings: { uid: { expression: 'user.uid' } } }),
      [
        `jwt[0].claimMappings.uid.expression: Invalid value: "user.uid": ${ERR('user.uid', 1, "undeclared reference to 'user' (in container '')")}`,
      ],
    ],
    [
      'extra: domain-prefixed, lowercase, unreserved, unique keys with a value expression',
      jwt({
        claimMappings: {
          extra: [
            { key: '', valueExpression: 'claims.a' },
            { key: 'nodomain', valueExpression: 'claims.a' },
            { key: 'Example.com/A', valueExpression: 'claims.a' },
            { key: 'example.com/a b', valueExpression: 'claims.a' },
            { key: 'authentication.orch.io/x', valueExpression: 'claims.a' },
            { key: 'example.com/ok', valueExpression: '' },
            { key: 'example.com/dup', valueExpression: 'claims.a' },
            { key: 'example.com/dup', valueExpression: 'claims.b' },
          ],
        },
      }),
      [
        'jwt[0].claimMappings.extra[0].key: Required value',
        'jwt[0].claimMappings.extra[1].key: Invalid value: "nodomain": must be a domain-prefixed path (such as "acme.io/foo")',
        "jwt[0].claimMappings.extra[2].key: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        'jwt[0].claimMappings.extra[2].key: Invalid value: "Example.com/A": key must be lowercase',
        "jwt[0].claimMappings.extra[3].key: Invalid value: \"a b\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
        'jwt[0].claimMappings.extra[4].key: Invalid value: "authentication.orch.io/x": orch.io and its subdomains are reserved for Orch use',
        'jwt[0].claimMappings.extra[5].valueExpression: Required value: valueExpression is required',
        'jwt[0].claimMappings.extra[7].key: Duplicate value: "example.com/dup"',
      ],
    ],
    [
      'claims.email in the username needs claims.email_verified somewhere',
      jwt({ claimMappings: { username: { claim: '', prefix: undefined, expression: "'x:' + claims.email" } } }),
      [
        'jwt[0].claimMappings.username.expression: Invalid value: "\'x:\' + claims.email": claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
      ],
    ],
    [
      'user rules: expression required, unique, boolean, over user',
      jwt({
        userValidationRules: [
          { expression: '' },
          { expression: "user.username == 'a'" },
          { expression: "user.username == 'a'" },
          { expression: 'user.groups' },
          { expression: 'claims.sub == "a"' },
        ],
      }),
      [
        'jwt[0].userValidationRules[0].expression: Required value: expression is required',
        'jwt[0].userValidationRules[2].expression: Duplicate value: "user.username == \'a\'"',
        'jwt[0].userValidationRules[3].expression: Invalid value: "user.groups": must evaluate to bool',
        `jwt[0].userValidationRules[4].expression: Invalid value: "claims.sub == \\"a\\"": ${ERR('claims.sub == "a"', 1, "undeclared reference to 'claims' (in container '')")}`,
      ],
    ],
  ];
  for (const [name, a, expected] of cases) {
    it(name, () => assert.deepEqual(one(a), expected));
  }

  it('accepts claims.email_verified in a claim rule, the username or an extra mapping', () => {
    const username = { claim: '', prefix: undefined, expression: 'claims.email' };
    assert.deepEqual(
      one(
        jwt({ claimMappings: { username }, claimValidationRules: [{ expression: 'claims.email_verified == true' }] }),
      ),
      [],
    );
    assert.deepEqual(
      one(
        jwt({ claimMappings: { username: { ...username, expression: 'claims.email_verified ? claims.email : ""' } } }),
      ),
      [],
    );
    assert.deepEqual(
      one(
        jwt({
          claimMappings: {
            username,
            extra: [{ key: 'example.com/v', valueExpression: 'string(claims.email_verified)' }],
          },
        }),
      ),
      [],
    );
  });

  it('reserves the key domains of the k8s.io profile in kube-apiserver words', () => {
    const a = jwt({ claimMappings: { extra: [{ key: 'x.kubernetes.io/a', valueExpression: 'claims.a' }] } });
    assert.deepEqual(problems({ jwt: [a] }, ctx({ domain: apiDomain('k8s.io') })), [
      'jwt[0].claimMappings.extra[0].key: Invalid value: "x.kubernetes.io/a": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use',
    ]);
  });

  it('refuses the disallowed (service-account) issuers', () => {
    assert.deepEqual(
      problems({ jwt: [jwt()] }, ctx({ disallowedIssuers: ['https://sa.example', 'https://idp.example'] })),
      [
        'jwt[0].issuer.url: Invalid value: "https://idp.example": URL must not overlap with disallowed issuers: [https://idp.example https://sa.example]',
      ],
    );
  });

  it('allows at most 64 authenticators, with unique issuer and discovery URLs', () => {
    assert.deepEqual(problems({ jwt: Array.from({ length: 65 }, () => jwt()) }), [
      'jwt: Too many: 65: must have at most 64 items',
    ]);
    const d = 'https://idp.example/discovery';
    assert.deepEqual(problems({ jwt: [jwt({ issuer: { discoveryURL: d } }), jwt({ issuer: { discoveryURL: d } })] }), [
      'jwt[1].issuer.url: Duplicate value: "https://idp.example"',
      'jwt[1].issuer.discoveryURL: Duplicate value: "https://idp.example/discovery"',
    ]);
  });

  it('checks the anonymous section: conditions need enabled, and the gate', () => {
    assert.deepEqual(problems({ jwt: [], anonymous: { enabled: false, conditions: [{ path: '/livez' }] } }), [
      'anonymous.conditions: Invalid value: []apiserver.AnonymousAuthCondition{apiserver.AnonymousAuthCondition{Path:"/livez"}}: enabled should be set to true when conditions are defined',
    ]);
    assert.deepEqual(
      problems(
        { jwt: [], anonymous: { enabled: true, conditions: [] } },
        ctx({ anonymousConfigurableEndpoints: false }),
      ),
      [
        'anonymous: Forbidden: anonymous is not supported when AnonymousAuthConfigurableEnpoints feature gate is disabled',
      ],
    );
  });

  it('lists the problems of every authenticator', () => {
    const r = problems({
      jwt: [jwt({ issuer: { url: 'http://a' } }), jwt({ issuer: { url: 'http://b', audiences: [] } })],
    });
    assert.deepEqual(r, [
      'jwt[0].issuer.url: Invalid value: "http://a": URL scheme must be https',
      'jwt[1].issuer.url: Invalid value: "http://b": URL scheme must be https',
      'jwt[1].issuer.audiences: Required value: at least one jwt[1].issuer.audiences is required',
    ]);
  });
});
