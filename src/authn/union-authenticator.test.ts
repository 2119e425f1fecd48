import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnonymousAuthenticator } from './anonymous-authenticator.js';
import { authenticatedGroupAdder } from './authenticated-group-adder.js';
import type { Authenticator, AuthResult, RequestHead, UserInfo } from './authenticator.js';
import { buildRequestAuthenticator } from './request-authenticator.js';
import { unionAuthenticator } from './union-authenticator.js';

/** A bearer-token authenticator over a fixed table, enough to exercise composition. */
class TableTokenAuthenticator implements Authenticator {
  calls = 0;
  constructor(private readonly tokens: Record<string, UserInfo>) {}
  async authenticate(req: RequestHead): Promise<AuthResult> {
    this.calls++;
    const header = req.headers.authorization;
    if (typeof header !== 'string' || !header.startsWith('Bearer ')) return { kind: 'no-opinion' };
    const user = this.tokens[header.slice(7)];
    return user ? { kind: 'user', user } : { kind: 'error', message: 'invalid bearer token' };
  }
}

function head(url: string, headers: Record<string, string> = {}, signal = new AbortController().signal): RequestHead {
  return {
    signal,
    method: 'GET',
    url,
    headers,
    headerValues: (name) => (headers[name.toLowerCase()] === undefined ? [] : [headers[name.toLowerCase()]]),
    peerCertificate: undefined,
  };
}

const alice: UserInfo = { name: 'alice', groups: ['dev'] };
const bob: UserInfo = { name: 'bob', groups: [] };

describe('unionAuthenticator', () => {
  const first = () => new TableTokenAuthenticator({ a: alice });
  const second = () => new TableTokenAuthenticator({ b: bob });
  const cases: { name: string; token?: string; failOnError: boolean; want: AuthResult }[] = [
    { name: 'first match wins', token: 'a', failOnError: false, want: { kind: 'user', user: alice } },
    { name: 'later authenticator after an error', token: 'b', failOnError: false, want: { kind: 'user', user: bob } },
    {
      name: 'errors aggregated when nobody succeeds',
      token: 'zzz',
      failOnError: false,
      want: { kind: 'error', message: 'invalid bearer token; invalid bearer token' },
    },
    { name: 'no credentials: no opinion', failOnError: false, want: { kind: 'no-opinion' } },
    {
      name: 'failOnError stops at the first error',
      token: 'b',
      failOnError: true,
      want: { kind: 'error', message: 'invalid bearer token' },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const union = unionAuthenticator([first(), second()], { failOnError: c.failOnError });
      const headers: Record<string, string> = c.token ? { authorization: `Bearer ${c.token}` } : {};
      assert.deepEqual(await union.authenticate(head('/api', headers)), c.want);
    });
  }

  /** The same table answering at once, without a promise. */
  const sync = (tokens: Record<string, UserInfo>): Authenticator => ({
    authenticate(req) {
      const header = req.headers.authorization;
      if (typeof header !== 'string' || !header.startsWith('Bearer ')) return { kind: 'no-opinion' };
      const user = tokens[header.slice(7)];
      return user ? { kind: 'user', user } : { kind: 'error', message: 'invalid bearer token' };
    },
  });
  const mixed: { name: string; list: () => Authenticator[]; token?: string; failOnError: boolean; want: AuthResult }[] =
    [
      {
        name: 'synchronous error, then an asynchronous match',
        list: () => [sync({ a: alice }), second()],
        token: 'b',
        failOnError: false,
        want: { kind: 'user', user: bob },
      },
      {
        name: 'asynchronous error, then a synchronous match',
        list: () => [first(), sync({ b: bob })],
        token: 'b',
        failOnError: false,
        want: { kind: 'user', user: bob },
      },
      {
        name: 'errors of both kinds aggregated in order',
        list: () => [sync({}), first(), sync({})],
        token: 'zzz',
        failOnError: false,
        want: { kind: 'error', message: 'invalid bearer token; invalid bearer token; invalid bearer token' },
      },
      {
        name: 'failOnError stops at a synchronous error before an asynchronous authenticator',
        list: () => [sync({}), second()],
        token: 'b',
        failOnError: true,
        want: { kind: 'error', message: 'invalid bearer token' },
      },
    ];
  for (const c of mixed) {
    it(`mixed answers: ${c.name}`, async () => {
      const union = unionAuthenticator(c.list(), { failOnError: c.failOnError });
      const headers: Record<string, string> = c.token ? { authorization: `Bearer ${c.token}` } : {};
      assert.deepEqual(await union.authenticate(head('/api', headers)), c.want);
    });
  }

  it('answers without a promise when every authenticator asked does', () => {
    const union = authenticatedGroupAdder(unionAuthenticator([sync({ a: alice }), second()]));
    const r = union.authenticate(head('/api', { authorization: 'Bearer a' }));
    assert.equal(r instanceof Promise, false);
    assert.deepEqual(r, { kind: 'user', user: { ...alice, groups: ['dev', 'system:authenticated'] } });
  });

  it("never reads the request's signal (creating it costs more than a cached GET)", async () => {
    const req = head('/');
    Object.defineProperty(req, 'signal', {
      get() {
        throw new Error('signal read');
      },
    });
    const authn = unionAuthenticator([first(), second(), new AnonymousAuthenticator()]);
    assert.equal((await authn.authenticate(req)).kind, 'user');
  });
});

describe('authenticatedGroupAdder', () => {
  const cases: { name: string; user: UserInfo; groups: string[] }[] = [
    { name: 'adds system:authenticated', user: alice, groups: ['dev', 'system:authenticated'] },
    {
      name: 'keeps an existing system:authenticated',
      user: { name: 'x', groups: ['system:authenticated', 'g'] },
      groups: ['system:authenticated', 'g'],
    },
    {
      name: 'leaves system:unauthenticated users alone',
      user: { name: 'x', groups: ['system:unauthenticated'] },
      groups: ['system:unauthenticated'],
    },
    { name: 'leaves system:anonymous alone', user: { name: 'system:anonymous', groups: [] }, groups: [] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const adder = authenticatedGroupAdder(new TableTokenAuthenticator({ t: c.user }));
      const result = await adder.authenticate(head('/', { authorization: 'Bearer t' }));
      assert.equal(result.kind, 'user');
      assert.deepEqual(result.kind === 'user' ? result.user.groups : undefined, c.groups);
      assert.deepEqual(alice.groups, ['dev'], 'the inner user is not mutated');
    });
  }
});

describe('buildRequestAuthenticator', () => {
  const authn = buildRequestAuthenticator({ authenticators: [new TableTokenAuthenticator({ a: alice })] });
  const anonymous = { kind: 'user', user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } };

  it('authenticates valid credentials with system:authenticated', async () => {
    assert.deepEqual(await authn.authenticate(head('/', { authorization: 'Bearer a' })), {
      kind: 'user',
      user: { name: 'alice', groups: ['dev', 'system:authenticated'] },
    });
  });

  it('answers an invalid credential with an error, never anonymous', async () => {
    assert.deepEqual(await authn.authenticate(head('/', { authorization: 'Bearer nope' })), {
      kind: 'error',
      message: 'invalid bearer token',
    });
  });

  it('falls back to anonymous without credentials', async () => {
    assert.deepEqual(await authn.authenticate(head('/api')), anonymous);
  });

  it('restricts anonymous to the configured paths', async () => {
    const restricted = buildRequestAuthenticator({
      authenticators: [],
      anonymous: { allowedPaths: ['/healthz', '/readyz'] },
    });
    assert.deepEqual(await restricted.authenticate(head('/healthz?verbose')), anonymous);
    assert.deepEqual(await restricted.authenticate(head('/api')), { kind: 'no-opinion' });
  });

  it('can disable anonymous', async () => {
    const strict = buildRequestAuthenticator({ authenticators: [], anonymous: false });
    assert.deepEqual(await strict.authenticate(head('/api')), { kind: 'no-opinion' });
    assert.deepEqual(await new AnonymousAuthenticator().authenticate(head('/api')), anonymous);
  });
});
