import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompactSign } from 'jose';
import { apiDomain } from '../../apis/api-domain.js';
import type { TokenAuthResult } from '../token-authenticator.js';
import { ServiceAccountTokenAuthenticator } from './service-account-authenticator.js';
import type { SigningKey } from './service-account-keys.js';
import { manualClock, newSigningKey, object, tableObjectReader } from './testing/fixtures.js';
import { ServiceAccountTokenSigner, type TokenClaimsInput } from './token-signer.js';

const domain = apiDomain('k8s.io');
const ISSUER = 'https://orch.example:6443';
const API = [ISSUER];
const T0 = new Date('2026-05-01T12:00:00Z');

function setup(o: { lookup?: boolean; keys?: SigningKey[]; signWith?: SigningKey } = {}) {
  const key = o.signWith ?? newSigningKey();
  const keys = o.keys ?? [key];
  const clock = manualClock(T0);
  const objects = tableObjectReader();
  objects.put('serviceaccounts', object('ServiceAccount', 'ns', 'sa', 'sa-uid'));
  objects.put('secrets', object('Secret', 'ns', 'bound', 'secret-uid'));
  const signer = new ServiceAccountTokenSigner({
    issuer: ISSUER,
    key,
    claimName: domain.serviceAccountClaim,
    clock,
    newId: () => 'jti-1',
  });
  const authn = new ServiceAccountTokenAuthenticator({
    issuers: [ISSUER, 'https://old-issuer'],
    keys,
    implicitAudiences: API,
    lookup: o.lookup ?? true,
    objects,
    domain,
    clock,
  });
  const input: TokenClaimsInput = {
    namespace: 'ns',
    serviceAccount: { name: 'sa', uid: 'sa-uid' },
    audiences: API,
    expirationSeconds: 3600,
  };
  const sign = async (extra: Partial<TokenClaimsInput> = {}) => (await signer.sign({ ...input, ...extra })).token;
  /** A token with exactly these claims, signed by `with`. */
  const raw = (claims: object, withKey: SigningKey = key) =>
    new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: withKey.alg, kid: withKey.kid })
      .sign(withKey.privateKey);
  const auth = (token: string, audiences: readonly string[] = API) =>
    authn.authenticateToken(token, { audiences, signal: new AbortController().signal });
  return { key, clock, objects, sign, raw, auth };
}

const errorOf = (r: TokenAuthResult) => (r.kind === 'error' ? r.message : `not an error: ${r.kind}`);

describe('ServiceAccountTokenAuthenticator', () => {
  it('identifies the service account as kube-apiserver does (user, uid, groups, credential-id)', async () => {
    const s = setup();
    const r = await s.auth(await s.sign());
    assert.deepEqual(r, {
      kind: 'user',
      user: {
        name: 'system:serviceaccount:ns:sa',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
        extra: { 'authentication.kubernetes.io/credential-id': ['JTI=jti-1'] },
      },
      audiences: API,
    });
  });

  it('adds the bound pod and node as user extras', async () => {
    const s = setup({ lookup: false });
    const r = await s.auth(await s.sign({ pod: { name: 'p', uid: 'pu' }, node: { name: 'n', uid: 'nu' } }));
    assert.equal(r.kind, 'user');
    assert.deepEqual(r.kind === 'user' ? r.user.extra : undefined, {
      'authentication.kubernetes.io/pod-name': ['p'],
      'authentication.kubernetes.io/pod-uid': ['pu'],
      'authentication.kubernetes.io/credential-id': ['JTI=jti-1'],
      'authentication.kubernetes.io/node-name': ['n'],
      'authentication.kubernetes.io/node-uid': ['nu'],
    });
  });

  it('has no opinion on what is not a token of its issuers', async () => {
    const s = setup();
    const other = await s.raw({ iss: 'https://elsewhere', sub: 'x', aud: API });
    for (const token of ['', 'abc', 'a.b.c', other, 'x.eyJpc3MiOiJodHRwczovL29yY2guZXhhbXBsZTo2NDQzIn0.y']) {
      assert.deepEqual(await s.auth(token), { kind: 'no-opinion' }, token);
    }
  });

  it('accepts every configured issuer', async () => {
    const s = setup();
    const now = T0.getTime() / 1000;
    const claims = {
      iss: 'https://old-issuer',
      aud: API,
      exp: now + 600,
      [domain.serviceAccountClaim]: { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'sa-uid' } },
    };
    assert.equal((await s.auth(await s.raw(claims))).kind, 'user');
  });

  it("refuses a signature none of the keys verifies with go-jose's error", async () => {
    const s = setup();
    const token = await s.raw({ iss: ISSUER, aud: API }, newSigningKey());
    assert.equal(errorOf(await s.auth(token)), 'go-jose/go-jose: error in cryptographic primitive');
  });

  it('verifies against every configured key (kid first, then all)', async () => {
    const old = newSigningKey('rsa');
    const current = newSigningKey();
    const s = setup({ keys: [old, current], signWith: current });
    assert.equal((await s.auth(await s.sign())).kind, 'user');
    const noKid = await new CompactSign(
      new TextEncoder().encode(
        JSON.stringify({
          iss: ISSUER,
          aud: API,
          [domain.serviceAccountClaim]: { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'sa-uid' } },
        }),
      ),
    )
      .setProtectedHeader({ alg: 'RS256' })
      .sign(old.privateKey);
    assert.equal((await s.auth(noKid)).kind, 'user');
  });

  const timing: { name: string; advanceS: number; want: string }[] = [
    { name: 'valid until exp', advanceS: 3600, want: 'user' },
    { name: 'valid within the 60 s leeway after exp', advanceS: 3660, want: 'user' },
    { name: 'expired past the leeway', advanceS: 3661, want: 'service account token has expired' },
    { name: 'valid within the leeway before nbf', advanceS: -60, want: 'user' },
    { name: 'not valid yet past the leeway', advanceS: -61, want: 'service account token is not valid yet' },
  ];
  for (const c of timing) {
    it(`time: ${c.name}`, async () => {
      const s = setup();
      const token = await s.sign();
      s.clock.advance(c.advanceS * 1000);
      const r = await s.auth(token);
      assert.equal(r.kind === 'user' ? 'user' : errorOf(r), c.want);
    });
  }

  it('refuses a token issued in the future (iat without nbf)', async () => {
    const s = setup();
    const now = T0.getTime() / 1000;
    const token = await s.raw({ iss: ISSUER, aud: API, iat: now + 120 });
    assert.equal(errorOf(await s.auth(token)), 'service account token is issued in the future');
  });

  it("refuses a token for other audiences with kube's message; the result names the intersection", async () => {
    const s = setup();
    const token = await s.sign({ audiences: ['vault', 'other'] });
    assert.equal(
      errorOf(await s.auth(token)),
      'token audiences ["vault" "other"] is invalid for the target audiences ["https://orch.example:6443"]',
    );
    const r = await s.auth(token, ['x', 'vault']);
    assert.deepEqual(r.kind === 'user' ? r.audiences : r, ['vault']);
  });

  it("takes the server's audiences for a token without aud", async () => {
    const s = setup({ lookup: false });
    const token = await s.raw({
      iss: ISSUER,
      [domain.serviceAccountClaim]: { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'sa-uid' } },
    });
    const r = await s.auth(token, []);
    assert.deepEqual(r.kind === 'user' ? r.audiences : r, API);
  });

  const revocations: {
    name: string;
    change: (s: ReturnType<typeof setup>) => void;
    bound?: Partial<TokenClaimsInput>;
    want: string;
  }[] = [
    {
      name: 'service account deleted',
      change: (s) => s.objects.remove('serviceaccounts', 'ns', 'sa'),
      want: 'serviceaccounts "sa" not found',
    },
    {
      name: 'service account re-created',
      change: (s) => s.objects.put('serviceaccounts', object('ServiceAccount', 'ns', 'sa', 'new-uid')),
      want: 'service account UID (new-uid) does not match claim (sa-uid)',
    },
    {
      name: 'service account deleting for longer than the leeway',
      change: (s) =>
        s.objects.put(
          'serviceaccounts',
          object('ServiceAccount', 'ns', 'sa', 'sa-uid', {
            metadata: { name: 'sa', namespace: 'ns', uid: 'sa-uid', deletionTimestamp: '2026-05-01T11:58:59Z' },
          }),
        ),
      want: 'service account ns/sa has been deleted',
    },
    {
      name: 'bound secret deleted',
      bound: { secret: { name: 'bound', uid: 'secret-uid' } },
      change: (s) => s.objects.remove('secrets', 'ns', 'bound'),
      want: 'service account token has been invalidated',
    },
    {
      name: 'bound secret re-created',
      bound: { secret: { name: 'bound', uid: 'secret-uid' } },
      change: (s) => s.objects.put('secrets', object('Secret', 'ns', 'bound', 'other')),
      want: 'secret UID (other) does not match service account secret ref claim (secret-uid)',
    },
    {
      name: 'bound pod missing',
      bound: { pod: { name: 'p', uid: 'pu' } },
      change: () => {},
      want: 'service account token has been invalidated',
    },
  ];
  for (const c of revocations) {
    it(`lookup revokes: ${c.name}`, async () => {
      const s = setup();
      const token = await s.sign(c.bound);
      if (!c.bound?.pod) assert.equal((await s.auth(token)).kind, 'user', 'valid before the change');
      c.change(s);
      assert.equal(errorOf(await s.auth(token)), c.want);
    });
  }

  it('keeps a token whose account is deleting within the leeway', async () => {
    const s = setup();
    s.objects.put(
      'serviceaccounts',
      object('ServiceAccount', 'ns', 'sa', 'sa-uid', {
        metadata: { name: 'sa', namespace: 'ns', uid: 'sa-uid', deletionTimestamp: '2026-05-01T11:59:30Z' },
      }),
    );
    assert.equal((await s.auth(await s.sign())).kind, 'user');
  });

  it('reads no objects with lookup off, and still refuses a token without the private claim', async () => {
    const s = setup({ lookup: false });
    s.objects.remove('serviceaccounts', 'ns', 'sa');
    assert.equal((await s.auth(await s.sign({ secret: { name: 'gone', uid: 'x' } }))).kind, 'user');
    assert.equal(s.objects.reads, 0);
    assert.equal(
      errorOf(await s.auth(await s.raw({ iss: ISSUER, aud: API }))),
      'service account token claims could not be validated due to unexpected private claim',
    );
  });

  it('reads the private claim of its own profile only', async () => {
    const s = setup({ lookup: false });
    const token = await s.raw({
      iss: ISSUER,
      aud: API,
      'orch.io': { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'sa-uid' } },
    });
    assert.equal(
      errorOf(await s.auth(token)),
      'service account token claims could not be validated due to unexpected private claim',
    );
  });
});
