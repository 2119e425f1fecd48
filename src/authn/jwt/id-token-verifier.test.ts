import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IdTokenVerifier } from './id-token-verifier.js';
import { RemoteKeySet } from './remote-key-set.js';
import { MemoryProvider } from './testing/memory-provider.js';

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
const sec = (ms: number) => Math.floor(ms / 1000);

async function setup(audiences: string[] = ['orch'], signingAlgs = ['RS256']) {
  const p = new MemoryProvider();
  await p.addKey('k1');
  await p.addKey('e1', 'ES256');
  const keySet = new RemoteKeySet({ jwksUri: p.jwksUri, fetcher: p.fetcher, lifetime: new AbortController().signal });
  const v = new IdTokenVerifier({ issuer: p.issuer, audiences, signingAlgs, keySet, now: () => new Date(NOW) });
  const base = { aud: 'orch', sub: 'a', exp: sec(NOW) + 60 };
  return { p, v, base };
}

describe('IdTokenVerifier', () => {
  it('returns the claims and audiences of a valid token (aud as a string or a list)', async () => {
    const { p, v, base } = await setup();
    const r = await v.verify(await p.sign('k1', base));
    assert.equal(r.claims.sub, 'a');
    assert.deepEqual(r.audience, ['orch']);
    assert.deepEqual((await v.verify(await p.sign('k1', { ...base, aud: ['x', 'orch'] }))).audience, ['x', 'orch']);
  });

  it('checks issuer, audience, expiry and not-before with go-oidc texts', async () => {
    const { p, v, base } = await setup();
    const cases: [Record<string, unknown>, string][] = [
      [
        { ...base, iss: 'https://other.example' },
        'oidc: id token issued by a different provider, expected "https://idp.example" got "https://other.example"',
      ],
      [{ ...base, aud: ['x', 'y'] }, 'oidc: expected audience "orch" got ["x" "y"]'],
      [{ ...base, exp: sec(NOW) - 1 }, 'oidc: token is expired (Token Expiry: 2026-06-01 11:59:59 +0000 UTC)'],
      [{ ...base, exp: undefined }, 'oidc: token is expired (Token Expiry: 0001-01-01 00:00:00 +0000 UTC)'],
      [
        { ...base, nbf: sec(NOW) + 61 },
        'oidc: current time 2026-06-01 12:00:00 +0000 UTC before the nbf (not before) time: 2026-06-01 12:01:01 +0000 UTC',
      ],
      [
        { ...base, exp: '1' },
        'oidc: failed to unmarshal claims: json: cannot unmarshal string into Go struct field idToken.exp of type json.Number',
      ],
    ];
    for (const [claims, message] of cases) {
      await assert.rejects(v.verify(await p.sign('k1', claims)), { message }, JSON.stringify(claims));
    }
    // One minute of leeway on nbf; iat is not checked.
    await v.verify(await p.sign('k1', { ...base, nbf: sec(NOW) + 60, iat: sec(NOW) + 3600 }));
  });

  it('checks the algorithm, then the signature', async () => {
    const { p, v, base } = await setup();
    await assert.rejects(v.verify(await p.sign('e1', base)), {
      message: 'oidc: id token signed with unsupported algorithm, expected ["RS256"] got "ES256"',
    });
    const [h, b] = (await p.sign('k1', base)).split('.');
    await assert.rejects(v.verify(`${h}.${b}.AAAA`), {
      message: 'failed to verify signature: failed to verify id token signature',
    });
    await assert.rejects(v.verify('a.b'), {
      message: 'oidc: malformed jwt: square/go-jose: compact JWS format must have three parts',
    });
  });

  it('matches any of several audiences after the signature', async () => {
    const { p, v, base } = await setup(['b', 'a'], ['RS256', 'ES256']);
    await v.verify(await p.sign('e1', { ...base, aud: ['z', 'a'] }));
    await assert.rejects(v.verify(await p.sign('k1', { ...base, aud: 'c' })), {
      message: 'oidc: expected audience in ["a" "b"] got ["c"]',
    });
  });
});
