import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestHead, UserInfo } from './authenticator.js';
import { bearerToken, bearerTokenAuthenticator, INVALID_BEARER_TOKEN } from './bearer-token-authenticator.js';
import { cachedTokenAuthenticator } from './cached-token-authenticator.js';
import {
  audienceAgnostic,
  type TokenAuthenticator,
  type TokenAuthResult,
  type TokenRequestContext,
  unionTokenAuthenticator,
} from './token-authenticator.js';

class TableTokens implements TokenAuthenticator {
  calls = 0;
  constructor(
    private readonly users: Record<string, UserInfo>,
    private readonly reject: Record<string, string> = {},
  ) {}
  async authenticateToken(token: string): Promise<TokenAuthResult> {
    this.calls++;
    const user = this.users[token];
    if (user) return { kind: 'user', user };
    const message = this.reject[token];
    return message ? { kind: 'error', message } : { kind: 'no-opinion' };
  }
}

const ctx = (audiences: string[] = []): TokenRequestContext => ({ audiences, signal: new AbortController().signal });
const alice: UserInfo = { name: 'alice', groups: [] };

function head(headers: Record<string, string>): RequestHead {
  return {
    method: 'GET',
    url: '/api',
    headers,
    headerValues: (n) => (headers[n] === undefined ? [] : [headers[n] as string]),
    peerCertificate: undefined,
    get signal(): AbortSignal {
      throw new Error('the signal is not read by token authenticators that do not wait');
    },
  };
}

describe('bearerToken', () => {
  const cases: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    ['', undefined],
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc extra', 'abc'],
    ['  Bearer abc  ', 'abc'],
    ['Bearer', undefined],
    ['Bearer  abc', undefined],
    ['Basic abc', undefined],
  ];
  for (const [header, want] of cases) {
    it(`${JSON.stringify(header)} → ${JSON.stringify(want)}`, () => assert.equal(bearerToken(header), want));
  }
});

describe('bearerTokenAuthenticator', () => {
  const authn = bearerTokenAuthenticator(new TableTokens({ good: alice }, { bad: 'token has expired' }), {
    audiences: ['https://orch.example'],
  });
  it('a known token is its user', async () => {
    assert.deepEqual(await authn.authenticate(head({ authorization: 'Bearer good' })), { kind: 'user', user: alice });
  });
  it("a token nobody recognises is kube-apiserver's error", async () => {
    assert.deepEqual(await authn.authenticate(head({ authorization: 'Bearer zzz' })), {
      kind: 'error',
      message: INVALID_BEARER_TOKEN,
    });
  });
  it("a rejected token keeps the authenticator's reason, never the token", async () => {
    const r = await authn.authenticate(head({ authorization: 'Bearer bad' }));
    assert.deepEqual(r, { kind: 'error', message: 'token has expired' });
  });
  it('no bearer header: no opinion', async () => {
    assert.equal((await authn.authenticate(head({}))).kind, 'no-opinion');
  });
});

describe('unionTokenAuthenticator', () => {
  it('first success wins; otherwise the errors in order', async () => {
    const u = unionTokenAuthenticator([
      new TableTokens({}, { t: 'first failed' }),
      new TableTokens({ ok: alice }, { t: 'second failed' }),
    ]);
    assert.deepEqual(await u.authenticateToken('ok', ctx()), { kind: 'user', user: alice });
    assert.deepEqual(await u.authenticateToken('t', ctx()), { kind: 'error', message: 'first failed, second failed' });
    assert.deepEqual(await u.authenticateToken('x', ctx()), { kind: 'no-opinion' });
  });
});

describe('audienceAgnostic', () => {
  const a = audienceAgnostic(['api'], new TableTokens({ t: alice }));
  it("valid for the server's own audiences when none are requested", async () => {
    assert.deepEqual(await a.authenticateToken('t', ctx()), { kind: 'user', user: alice, audiences: ['api'] });
  });
  it('reports the requested audiences that are the server’s', async () => {
    assert.deepEqual(await a.authenticateToken('t', ctx(['other', 'api'])), {
      kind: 'user',
      user: alice,
      audiences: ['api'],
    });
  });
  it('no opinion for foreign audiences only', async () => {
    assert.deepEqual(await a.authenticateToken('t', ctx(['other'])), { kind: 'no-opinion' });
  });
});

describe('cachedTokenAuthenticator', () => {
  let now = 1_000_000;
  const clock = { now: () => new Date(now) };
  it('remembers successes for their TTL, per audience set, and never failures by default', async () => {
    const inner = new TableTokens({ ok: alice }, { bad: 'nope' });
    const c = cachedTokenAuthenticator(inner, { successTtlMs: 10_000, failureTtlMs: 0, clock });
    await c.authenticateToken('ok', ctx());
    await c.authenticateToken('ok', ctx());
    assert.equal(inner.calls, 1);
    await c.authenticateToken('ok', ctx(['x']));
    assert.equal(inner.calls, 2, 'another audience set is another entry');
    now += 10_001;
    await c.authenticateToken('ok', ctx());
    assert.equal(inner.calls, 3, 'expired entries re-authenticate');
    await c.authenticateToken('bad', ctx());
    await c.authenticateToken('bad', ctx());
    assert.equal(inner.calls, 5);
  });
  it('shares one authentication among concurrent lookups of a token', async () => {
    let release: () => void = () => {};
    let calls = 0;
    const slow: TokenAuthenticator = {
      authenticateToken: () => {
        calls++;
        return new Promise((r) => {
          release = () => r({ kind: 'user', user: alice });
        });
      },
    };
    const c = cachedTokenAuthenticator(slow, { successTtlMs: 1000, failureTtlMs: 0, clock });
    const both = Promise.all([c.authenticateToken('t', ctx()), c.authenticateToken('t', ctx())]);
    release();
    const [a, b] = await both;
    assert.equal(calls, 1);
    assert.deepEqual(a, b);
  });
  it('answers a hit, and an inner synchronous answer, without a promise', async () => {
    let calls = 0;
    const inner: TokenAuthenticator = {
      authenticateToken: (token) => {
        calls++;
        return token === 'ok' ? { kind: 'user', user: alice } : { kind: 'no-opinion' };
      },
    };
    const c = cachedTokenAuthenticator(inner, { successTtlMs: 10_000, failureTtlMs: 0, clock });
    const audiences = Object.freeze(['api']);
    const first = c.authenticateToken('ok', ctx([...audiences]));
    assert.equal(first instanceof Promise, false);
    const hit = c.authenticateToken('ok', { audiences, signal: new AbortController().signal });
    assert.equal(hit instanceof Promise, false);
    assert.equal(hit, first, 'the remembered result object itself');
    assert.equal(calls, 1);
    assert.deepEqual(c.authenticateToken('other', ctx(['api'])), { kind: 'no-opinion' });
    assert.equal(calls, 2);
  });
  it('keys on the audiences even when a list object is reused', async () => {
    const inner = new TableTokens({ ok: alice });
    const c = cachedTokenAuthenticator(inner, { successTtlMs: 10_000, failureTtlMs: 0, clock });
    const mutable = ['a'];
    await c.authenticateToken('ok', { audiences: mutable, signal: new AbortController().signal });
    mutable[0] = 'b';
    await c.authenticateToken('ok', { audiences: mutable, signal: new AbortController().signal });
    assert.equal(inner.calls, 2, 'a changed audience list is another entry');
    const frozen = Object.freeze(['a']);
    await c.authenticateToken('ok', { audiences: frozen, signal: new AbortController().signal });
    await c.authenticateToken('ok', { audiences: frozen, signal: new AbortController().signal });
    assert.equal(inner.calls, 2, "the frozen ['a'] finds the first entry");
  });
  it("remembers a connection's last token without changing what the cache answers", async () => {
    const bob: UserInfo = { name: 'bob', groups: [] };
    const inner = new TableTokens({ 'token-a1': alice, 'token-b1': bob, 'tökén-a': alice });
    const c = cachedTokenAuthenticator(inner, { successTtlMs: 10_000, failureTtlMs: 0, clock });
    const audiences = Object.freeze(['api']);
    const conn1 = {};
    const conn2 = {};
    const on = (connection: object, a: readonly string[] = audiences): TokenRequestContext => ({
      audiences: a,
      signal: new AbortController().signal,
      connection,
    });
    const name = async (token: string, c2: TokenRequestContext) => {
      const r = await c.authenticateToken(token, c2);
      return r.kind === 'user' ? r.user.name : r.kind;
    };
    const steps: { token: string; ctx: TokenRequestContext; want: string; calls: number; why: string }[] = [
      { token: 'token-a1', ctx: on(conn1), want: 'alice', calls: 1, why: 'first use authenticates' },
      { token: 'token-a1', ctx: on(conn1), want: 'alice', calls: 1, why: 'the same token again is a hit' },
      { token: 'token-b1', ctx: on(conn1), want: 'bob', calls: 2, why: 'another token of the same length' },
      { token: 'token-a2', ctx: on(conn1), want: 'no-opinion', calls: 3, why: 'an unknown token is never taken' },
      { token: 'token-a1', ctx: on(conn2), want: 'alice', calls: 3, why: 'another connection finds the entry' },
      { token: 'tökén-a', ctx: on(conn2), want: 'alice', calls: 4, why: 'tokens compared as UTF-8' },
      { token: 'tokén-a', ctx: on(conn2), want: 'no-opinion', calls: 5, why: 'a look-alike is another token' },
      { token: 'token-a1', ctx: on(conn1, ['api']), want: 'alice', calls: 5, why: 'an unfrozen list is hashed' },
    ];
    for (const st of steps) {
      assert.equal(await name(st.token, st.ctx), st.want, st.why);
      assert.equal(inner.calls, st.calls, st.why);
    }
    now += 10_001;
    assert.equal(await name('token-a1', on(conn2)), 'alice');
    assert.equal(inner.calls, 6, 'an expired entry authenticates again, remembered key or not');
  });
  it('evicts the oldest entry beyond maxEntries', async () => {
    const inner = new TableTokens({ a: alice, b: alice });
    const c = cachedTokenAuthenticator(inner, { successTtlMs: 60_000, failureTtlMs: 0, maxEntries: 1, clock });
    await c.authenticateToken('a', ctx());
    await c.authenticateToken('b', ctx());
    await c.authenticateToken('a', ctx());
    assert.equal(inner.calls, 3);
  });
});
