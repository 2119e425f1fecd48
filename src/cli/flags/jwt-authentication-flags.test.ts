import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import { builtinResources } from '../../apis/builtin.js';
import { newOrchFeatureGates } from '../../featuregate/orch-features.js';
import { apiServerUsage, parseApiServerCommandLine } from './apiserver-flags.js';
import { FlagParseError, FlagValidationError } from './errors.js';

const deps = () => ({
  featureGates: newOrchFeatureGates(),
  servedResources: () => builtinResources({ domain: apiDomain() }),
});

function authentication(argv: string[]) {
  const parsed = parseApiServerCommandLine(argv, deps());
  if (parsed.help) throw new Error('unexpected help');
  return parsed.flags.authentication;
}

function problems(argv: string[]): readonly string[] {
  try {
    parseApiServerCommandLine(argv, deps());
  } catch (e) {
    assert.ok(e instanceof FlagValidationError, String(e));
    return e.problems;
  }
  assert.fail('accepted');
}

describe('JWT authentication flags', () => {
  it('configure nothing beyond the defaults when not given', () => {
    const a = authentication([]);
    assert.equal(a.oidc, undefined);
    assert.equal(a.authenticationConfigFile, undefined);
    assert.ok(!('oidc' in a) && !('authenticationConfigFile' in a));
  });

  it('read every --oidc-* flag, with kube defaults for the claim and algorithms', () => {
    assert.deepEqual(
      authentication([
        '--oidc-issuer-url=https://idp.example',
        '--oidc-client-id=orch',
        '--oidc-required-claim=hd=example.com',
        '--oidc-required-claim',
        'tier=a,b',
      ]).oidc,
      {
        issuerURL: 'https://idp.example',
        clientID: 'orch',
        caFile: undefined,
        usernameClaim: 'sub',
        usernamePrefix: '',
        groupsClaim: '',
        groupsPrefix: '',
        signingAlgs: ['RS256'],
        requiredClaims: { hd: 'example.com', tier: 'a,b' },
      },
    );
    assert.deepEqual(
      authentication([
        '--oidc-issuer-url=https://idp.example',
        '--oidc-client-id=orch',
        '--oidc-ca-file=/etc/idp.crt',
        '--oidc-username-claim=email',
        '--oidc-username-prefix=-',
        '--oidc-groups-claim=groups',
        '--oidc-groups-prefix=oidc:',
        '--oidc-signing-algs=RS256,ES256',
      ]).oidc,
      {
        issuerURL: 'https://idp.example',
        clientID: 'orch',
        caFile: '/etc/idp.crt',
        usernameClaim: 'email',
        usernamePrefix: '-',
        groupsClaim: 'groups',
        groupsPrefix: 'oidc:',
        signingAlgs: ['RS256', 'ES256'],
        requiredClaims: {},
      },
    );
  });

  it('read --authentication-config', () => {
    assert.equal(
      authentication(['--authentication-config=/etc/authn.yaml']).authenticationConfigFile,
      '/etc/authn.yaml',
    );
  });

  it('refuse incomplete or conflicting combinations in kube-apiserver words', () => {
    assert.deepEqual(problems(['--oidc-client-id=orch']), [
      'oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set',
    ]);
    assert.deepEqual(problems(['--authentication-config=/a.yaml', '--oidc-groups-claim=groups']), [
      'authentication-config file and oidc-* flags are mutually exclusive',
    ]);
  });

  it('reject a required claim that is not key=value', () => {
    assert.throws(
      () => parseApiServerCommandLine(['--oidc-required-claim=hd'], deps()),
      (e: Error) =>
        e instanceof FlagParseError &&
        e.message === 'invalid argument "hd" for "--oidc-required-claim" flag: malformed pair, expect string=string',
    );
  });

  it('are described in the usage text', () => {
    const usage = apiServerUsage(deps());
    for (const name of ['authentication-config', 'oidc-issuer-url', 'oidc-required-claim', 'oidc-signing-algs']) {
      assert.ok(usage.includes(`--${name}`), name);
    }
    assert.ok(usage.includes('The URL of the OpenID issuer, only HTTPS scheme will be accepted.'));
  });
});
