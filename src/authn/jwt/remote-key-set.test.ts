import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RemoteKeySet } from './remote-key-set.js';
import { MemoryProvider } from './testing/memory-provider.js';

const lifetime = new AbortController().signal;

function setup(p: MemoryProvider, cooldownMs = 5_000) {
  let now = Date.UTC(2026, 0, 1);
  const clock = { now: () => new Date(now) };
  const keys = new RemoteKeySet({
    jwksUri: p.jwksUri,
    fetcher: p.fetcher,
    lifetime,
    refreshCooldownMs: cooldownMs,
    clock,
  });
  return { keys, advance: (ms: number) => (now += ms) };
}

describe('RemoteKeySet', () => {
  it('fetches lazily and verifies with the key the token names', async () => {
    const p = new MemoryProvider();
    await p.addKey('k1');
    await p.addKey('k2', 'ES256');
    const { keys } = setup(p);
    assert.equal(keys.fetches, 0);
    const token = await p.sign('k2', { sub: 'a' });
    const payload = JSON.parse(Buffer.from(await keys.verify(token, 'ES256', 'k2')).toString());
    assert.equal(payload.sub, 'a');
    await keys.verify(await p.sign('k1', {}), 'RS256', 'k1');
    assert.equal(keys.fetches, 1);
  });

  it('refreshes for an unknown key id once per cooldown; concurrent refreshes share one fetch', async () => {
    const p = new MemoryProvider();
    await p.addKey('k1');
    const { keys, advance } = setup(p);
    await keys.verify(await p.sign('k1', {}), 'RS256', 'k1');
    await p.addKey('k2');
    const rotated = await p.sign('k2', {});
    // Within the cooldown: no fetch, the token fails.
    await assert.rejects(keys.verify(rotated, 'RS256', 'k2'), { message: 'failed to verify id token signature' });
    assert.equal(keys.fetches, 1);
    advance(5_000);
    await Promise.all([...Array(5)].map(() => keys.verify(rotated, 'RS256', 'k2')));
    assert.equal(keys.fetches, 2);
    await assert.rejects(keys.verify(await p.sign('k2', {}, { kid: 'k9' }), 'RS256', 'k9'));
    assert.equal(keys.fetches, 2);
  });

  it('tries every key when the token names none, and refuses a forged signature', async () => {
    const p = new MemoryProvider();
    await p.addKey('k1');
    await p.addKey('k2');
    const { keys } = setup(p, 0);
    const token = await p.sign('k2', {}, { kid: undefined });
    await keys.verify(token, 'RS256', undefined);
    const [h, b] = token.split('.');
    await assert.rejects(keys.verify(`${h}.${b}.AAAA`, 'RS256', undefined), {
      message: 'failed to verify id token signature',
    });
  });

  it('reports fetch failures in go-oidc words', async () => {
    const p = new MemoryProvider();
    await p.addKey('k1');
    const token = await p.sign('k1', {});
    p.documents.set(p.jwksUri, { status: 500, statusLine: '500 Internal Server Error', body: 'boom' });
    await assert.rejects(setup(p).keys.verify(token, 'RS256', 'k1'), {
      message: 'fetching keys oidc: get keys failed: 500 Internal Server Error boom',
    });
    p.documents.set(p.jwksUri, { status: 200, statusLine: '200 OK', body: '{"nokeys":1}' });
    await assert.rejects(
      setup(p).keys.verify(token, 'RS256', 'k1'),
      /^Error: fetching keys oidc: failed to decode keys: /,
    );
    const down = new RemoteKeySet({
      jwksUri: 'https://down.example/keys',
      lifetime,
      fetcher: async (url) => {
        throw new Error(`Get ${JSON.stringify(url)}: dial tcp: connection refused`);
      },
    });
    await assert.rejects(down.verify(token, 'RS256', 'k1'), {
      message: 'fetching keys Get "https://down.example/keys": dial tcp: connection refused',
    });
  });
});
