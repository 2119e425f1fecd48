import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authenticationFlagTable, authenticationOptionsFromFlags } from './authentication-flags.js';
import { parseFlags } from './flag-parser.js';

function fromArgs(argv: string[]) {
  const parsed = parseFlags(authenticationFlagTable(), argv);
  if (parsed.help) throw new Error('unexpected help');
  return authenticationOptionsFromFlags(parsed.values, parsed.changed);
}

describe('authentication flags', () => {
  it('configures no method by default', () => {
    assert.deepEqual(fromArgs([]), {
      options: { anonymous: undefined, apiAudiences: undefined },
      problems: [],
      warnings: [],
    });
  });

  const cases: { name: string; argv: string[]; options: Record<string, unknown> }[] = [
    {
      name: 'a token file',
      argv: ['--token-auth-file=/etc/tokens.csv'],
      options: { tokenAuthFile: '/etc/tokens.csv' },
    },
    { name: 'bootstrap tokens', argv: ['--enable-bootstrap-token-auth'], options: { enableBootstrapTokenAuth: true } },
    {
      name: 'a token webhook with its defaults',
      argv: ['--authentication-token-webhook-config-file=/etc/wh.yaml'],
      options: { tokenWebhook: { configFile: '/etc/wh.yaml', version: 'v1beta1', cacheTtlMs: 120_000 } },
    },
    {
      name: 'a token webhook with version and TTL',
      argv: [
        '--authentication-token-webhook-config-file=/etc/wh.yaml',
        '--authentication-token-webhook-version=v1',
        '--authentication-token-webhook-cache-ttl=30s',
      ],
      options: { tokenWebhook: { configFile: '/etc/wh.yaml', version: 'v1', cacheTtlMs: 30_000 } },
    },
    {
      name: 'an authenticating proxy',
      argv: [
        '--requestheader-client-ca-file=/etc/proxy-ca.crt',
        '--requestheader-username-headers=X-Remote-User,X-User',
        '--requestheader-group-headers=X-Remote-Group',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
        '--requestheader-allowed-names=front-proxy',
      ],
      options: {
        requestHeader: {
          clientCaFile: '/etc/proxy-ca.crt',
          usernameHeaders: ['X-Remote-User', 'X-User'],
          groupHeaders: ['X-Remote-Group'],
          extraHeaderPrefixes: ['X-Remote-Extra-'],
          allowedNames: ['front-proxy'],
        },
      },
    },
  ];
  for (const c of cases) {
    it(`reads ${c.name}`, () => {
      const r = fromArgs(c.argv);
      assert.deepEqual(r.problems, []);
      assert.deepEqual(r.options, { anonymous: undefined, apiAudiences: undefined, ...c.options });
    });
  }

  const invalid: { name: string; argv: string[]; problems: string[] }[] = [
    {
      name: 'proxy headers without the proxy CA',
      argv: ['--requestheader-username-headers=X-Remote-User', '--requestheader-allowed-names=p'],
      problems: [
        '--requestheader-username-headers requires --requestheader-client-ca-file',
        '--requestheader-allowed-names requires --requestheader-client-ca-file',
      ],
    },
    {
      name: 'the proxy CA without username headers',
      argv: ['--requestheader-client-ca-file=/ca.crt'],
      problems: ['--requestheader-client-ca-file requires --requestheader-username-headers'],
    },
    {
      name: 'blank header names',
      argv: [
        '--requestheader-client-ca-file=/ca.crt',
        '--requestheader-username-headers=X-Remote-User, ',
        '--requestheader-group-headers=,',
      ],
      problems: ['empty value in "requestheader-username-headers"', 'empty value in "requestheader-group-headers"'],
    },
    {
      name: 'a negative cache TTL',
      argv: ['--authentication-token-webhook-config-file=/wh.yaml', '--authentication-token-webhook-cache-ttl=-1s'],
      problems: ['--authentication-token-webhook-cache-ttl can not be a negative value'],
    },
  ];
  for (const c of invalid) {
    it(`reports ${c.name}`, () => {
      assert.deepEqual(fromArgs(c.argv).problems, c.problems);
    });
  }

  it('rejects an unknown webhook version', () => {
    assert.throws(() => fromArgs(['--authentication-token-webhook-version=v2']), /must be one of v1beta1, v1/);
  });

  it('warns, as kube-apiserver does, about non-standard proxy header names', () => {
    const r = fromArgs([
      '--requestheader-client-ca-file=/ca.crt',
      '--requestheader-username-headers=X-User',
      '--requestheader-group-headers=x-remote-group',
    ]);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.warnings, [
      '--requestheader-username-headers is set without specifying the standard X-Remote-User header - API aggregation will not work',
    ]);
  });
});
