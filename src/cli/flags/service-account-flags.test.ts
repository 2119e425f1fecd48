import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../../apis/builtin.js';
import { newOrchFeatureGates } from '../../featuregate/orch-features.js';
import { apiServerUsage, parseApiServerCommandLine } from './apiserver-flags.js';

const deps = () => ({ featureGates: newOrchFeatureGates(), servedResources: () => builtinResources() });

function authentication(argv: string[]) {
  const parsed = parseApiServerCommandLine(argv, deps());
  if (parsed.help) throw new Error('unexpected help');
  return parsed.flags.authentication;
}

describe('service-account flags', () => {
  it('leave every service-account option to its default when not given', () => {
    assert.deepEqual(authentication([]), { anonymous: undefined, apiAudiences: undefined });
  });

  it('map to the authentication options; issuers and key files repeat without splitting on commas', () => {
    assert.deepEqual(
      authentication([
        '--service-account-issuer=https://a,x',
        '--service-account-issuer',
        'https://b',
        '--service-account-key-file=/k/1.pem',
        '--service-account-key-file=/k/2.pem',
        '--service-account-signing-key-file=/k/sign.key',
        '--service-account-lookup=false',
        '--service-account-max-token-expiration=48h',
        '--service-account-extend-token-expiration=false',
      ]),
      {
        anonymous: undefined,
        apiAudiences: undefined,
        serviceAccountIssuers: ['https://a,x', 'https://b'],
        serviceAccountKeyFiles: ['/k/1.pem', '/k/2.pem'],
        serviceAccountSigningKeyFile: '/k/sign.key',
        serviceAccountLookup: false,
        serviceAccountMaxTokenExpirationSeconds: 172_800,
        serviceAccountExtendTokenExpiration: false,
      },
    );
  });

  it('are listed in --help with their types and defaults', () => {
    const usage = apiServerUsage(deps());
    assert.match(usage, /--service-account-issuer stringArray/);
    assert.match(usage, /--service-account-key-file stringArray/);
    assert.match(
      usage,
      /--service-account-lookup\s+If true, validate ServiceAccount tokens exist in etcd as part of authentication\. \(default true\)/,
    );
    assert.match(usage, /--service-account-max-token-expiration duration/);
  });
});
