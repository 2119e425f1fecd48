import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../util/logger.js';
import { JwtAuthenticator } from './jwt-authenticator.js';
import { JwtAuthenticatorSet } from './jwt-authenticator-set.js';
import { compileAuthenticator } from './testing/compile-authenticator.js';
import { MemoryProvider } from './testing/memory-provider.js';

const ctx = { audiences: [] as string[], signal: new AbortController().signal };

function authenticator(p: MemoryProvider, lifetime: AbortSignal, retryIntervalMs = 10) {
  return new JwtAuthenticator({
    authenticator: compileAuthenticator({ issuer: p.issuer, groups: { claim: 'groups', prefix: '' } }),
    signingAlgs: ['RS256'],
    credentialIdKey: 'cred',
    lifetime,
    logger: silentLogger,
    fetcher: p.fetcher,
    retryIntervalMs,
  });
}

describe('JwtAuthenticator', () => {
  it('has no opinion on tokens of other issuers or other formats', async () => {
    const p = new MemoryProvider();
    await p.addKey('k1');
    const stop = new AbortController();
    const a = authenticator(p, stop.signal);
    await a.whenReady();
    const other = new MemoryProvider('https://other.example');
    await other.addKey('k1');
    assert.deepEqual(await a.authenticateToken(await other.sign('k1', { sub: 's', aud: 'orch' })), {
      kind: 'no-opinion',
    });
    assert.deepEqual(await a.authenticateToken('opaque-token'), { kind: 'no-opinion' });
    stop.abort();
  });

  it('authenticates a valid token and reports failures without the token', async () => {
    const p = new MemoryProvider();
    await p.addKey('k1');
    const stop = new AbortController();
    const a = authenticator(p, stop.signal);
    await a.whenReady();
    assert.equal(a.healthCheck(), undefined);
    const r = await a.authenticateToken(await p.sign('k1', { sub: 's', aud: 'orch', groups: ['g'] }));
    assert.deepEqual(r, { kind: 'user', user: { name: 's', groups: ['g'] } });
    const bad = await p.sign('k1', { sub: 's', aud: 'other' });
    const e = await a.authenticateToken(bad);
    assert.deepEqual(e, { kind: 'error', message: 'oidc: verify token: oidc: expected audience "orch" got ["other"]' });
    const [h, b] = bad.split('.');
    const forged = await a.authenticateToken(`${h}.${b}.c2lnbmF0dXJl`);
    assert.equal(forged.kind, 'error');
    for (const part of [bad, h as string, b as string, 'c2lnbmF0dXJl']) {
      assert.ok(!(forged.kind === 'error' && forged.message.includes(part)), 'no part of the token in the message');
    }
    const distributed = await p.sign('k1', {
      sub: 's',
      aud: 'orch',
      _claim_names: { groups: 'src1' },
      _claim_sources: { src1: { endpoint: 'https://idp.example/groups' } },
    });
    assert.deepEqual(await a.authenticateToken(distributed), {
      kind: 'error',
      message: 'oidc: could not expand distributed claims: distributed claims are not supported',
    });
    stop.abort();
  });

  it('answers "not initialized" until discovery succeeds, retrying in the background', async () => {
    const p = new MemoryProvider();
    await p.addKey('k1');
    const url = `${p.issuer}/.well-known/openid-configuration`;
    const doc = p.documents.get(url);
    p.documents.delete(url);
    const stop = new AbortController();
    const a = authenticator(p, stop.signal);
    const token = await p.sign('k1', { sub: 's', aud: 'orch' });
    assert.deepEqual(await a.authenticateToken(token), {
      kind: 'error',
      message: 'oidc: authenticator not initialized',
    });
    await new Promise((r) => setTimeout(r, 30));
    assert.match(
      String(a.healthCheck()?.message),
      /^oidc: authenticator for issuer "https:\/\/idp\.example" is not healthy: Get ".*": dial tcp: connection refused$/,
    );
    p.documents.set(url, doc as NonNullable<typeof doc>);
    await a.whenReady();
    assert.equal((await a.authenticateToken(token)).kind, 'user');
    assert.ok((p.fetched.get(url) ?? 0) >= 2);
    stop.abort();
  });

  it('in a set: each issuer answers for its tokens; the set is healthy once all are', async () => {
    const p = new MemoryProvider('https://a.example');
    const q = new MemoryProvider('https://b.example');
    await p.addKey('k');
    await q.addKey('k');
    const stop = new AbortController();
    const fetcher = async (url: string, signal: AbortSignal) =>
      url.startsWith(p.issuer) ? p.fetcher(url, signal) : q.fetcher(url, signal);
    const set = new JwtAuthenticatorSet({
      authenticators: [compileAuthenticator({ issuer: p.issuer }), compileAuthenticator({ issuer: q.issuer })],
      signingAlgs: ['RS256'],
      apiAudiences: ['api'],
      credentialIdKey: 'cred',
      lifetime: stop.signal,
      logger: silentLogger,
      fetcher,
    });
    await set.whenHealthy(AbortSignal.timeout(5_000));
    assert.deepEqual(set.healthCheck(), []);
    const r = await set.token.authenticateToken(await q.sign('k', { sub: 'b', aud: 'orch' }), ctx);
    assert.deepEqual(r, { kind: 'user', user: { name: 'b', groups: [] }, audiences: ['api'] });
    // A request for audiences that are not the server's is not for these tokens.
    const other = await set.token.authenticateToken(await q.sign('k', { sub: 'b', aud: 'orch' }), {
      ...ctx,
      audiences: ['elsewhere'],
    });
    assert.deepEqual(other, { kind: 'no-opinion' });
    set.close();
    stop.abort();
  });

  it('in a set: whenHealthy fails with every problem when time runs out', async () => {
    const p = new MemoryProvider();
    p.documents.clear();
    const set = new JwtAuthenticatorSet({
      authenticators: [compileAuthenticator({ issuer: p.issuer })],
      signingAlgs: ['RS256'],
      apiAudiences: [],
      credentialIdKey: 'cred',
      lifetime: new AbortController().signal,
      logger: silentLogger,
      fetcher: p.fetcher,
      retryIntervalMs: 10,
    });
    await assert.rejects(
      set.whenHealthy(AbortSignal.timeout(100)),
      /not healthy: .*connection refused, context deadline exceeded\]$/,
    );
    set.close();
  });
});
