import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jwtAuthenticatorFromOidcOptions, oidcOptionsProblems, signingAlgProblems } from './oidc-options.js';

const base = { issuerURL: 'https://idp.example', clientID: 'orch' };

describe('OIDC flags', () => {
  it('prefix the username with the issuer unless the claim is email or a prefix is given; - means none', async () => {
    const cases: [Partial<Parameters<typeof jwtAuthenticatorFromOidcOptions>[0]>, string, string][] = [
      [{}, 'sub', 'https://idp.example#'],
      [{ usernameClaim: 'email' }, 'email', ''],
      [{ usernameClaim: 'name', usernamePrefix: 'oidc:' }, 'name', 'oidc:'],
      [{ usernamePrefix: '-' }, 'sub', ''],
    ];
    for (const [flags, claim, prefix] of cases) {
      const c = await jwtAuthenticatorFromOidcOptions({ ...base, ...flags });
      assert.deepEqual(c.claimMappings.username, { claim, prefix, expression: '' }, JSON.stringify(flags));
    }
  });

  it('map the client id, groups, required claims and the CA file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orch-oidc-options-'));
    try {
      await writeFile(join(dir, 'ca.crt'), 'PEM');
      const c = await jwtAuthenticatorFromOidcOptions({
        ...base,
        groupsClaim: 'groups',
        groupsPrefix: 'g:',
        requiredClaims: { hd: 'example.com', tier: 'a,b' },
        caFile: join(dir, 'ca.crt'),
      });
      assert.deepEqual(c.issuer, {
        url: 'https://idp.example',
        discoveryURL: '',
        certificateAuthority: 'PEM',
        audiences: ['orch'],
        audienceMatchPolicy: '',
      });
      assert.deepEqual(c.claimMappings.groups, { claim: 'groups', prefix: 'g:', expression: '' });
      assert.deepEqual(
        c.claimValidationRules.map((r) => [r.claim, r.requiredValue]),
        [
          ['hd', 'example.com'],
          ['tier', 'a,b'],
        ],
      );
      await assert.rejects(jwtAuthenticatorFromOidcOptions({ ...base, caFile: join(dir, 'absent') }), {
        message: `open ${join(dir, 'absent')}: no such file or directory`,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('need the issuer and the client id together, and known signing algorithms', () => {
    assert.deepEqual(oidcOptionsProblems(base), []);
    assert.deepEqual(oidcOptionsProblems({ ...base, clientID: '' }), [
      'oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set',
    ]);
    assert.deepEqual(signingAlgProblems(['RS256', 'ES512', 'PS384']), []);
    assert.deepEqual(signingAlgProblems(['HS256', 'none']), [
      'oidc: unsupported signing alg: "HS256"',
      'oidc: unsupported signing alg: "none"',
    ]);
  });
});
