import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discoverProvider, wellKnownUrl } from './oidc-discovery.js';
import { MemoryProvider } from './testing/memory-provider.js';

const signal = new AbortController().signal;

describe('discoverProvider', () => {
  it('fetches {issuer}/.well-known/openid-configuration, one trailing slash dropped', async () => {
    assert.equal(wellKnownUrl('https://a/'), 'https://a/.well-known/openid-configuration');
    const p = new MemoryProvider('https://idp.example/realm');
    assert.deepEqual(await discoverProvider(p.issuer, '', p.fetcher, signal), {
      issuer: 'https://idp.example/realm',
      jwksUri: 'https://idp.example/realm/keys',
    });
  });

  it('uses the discovery URL exactly as given', async () => {
    const p = new MemoryProvider();
    p.setDiscovery({ issuer: p.issuer, jwks_uri: 'https://keys.example/k' }, 'https://other.example/d?x=1');
    const m = await discoverProvider(p.issuer, 'https://other.example/d?x=1', p.fetcher, signal);
    assert.equal(m.jwksUri, 'https://keys.example/k');
  });

  it('fails on an issuer mismatch, a bad status and a body that is not JSON, in go-oidc words', async () => {
    const p = new MemoryProvider('https://idp.example');
    p.setDiscovery({ issuer: 'https://idp.example/' });
    await assert.rejects(discoverProvider(p.issuer, '', p.fetcher, signal), {
      message:
        'oidc: issuer did not match the issuer returned by provider, expected "https://idp.example" got "https://idp.example/"',
    });
    p.documents.set(wellKnownUrl(p.issuer), { status: 404, statusLine: '404 Not Found', body: 'nope' });
    await assert.rejects(discoverProvider(p.issuer, '', p.fetcher, signal), { message: '404 Not Found: nope' });
    p.documents.set(wellKnownUrl(p.issuer), { status: 200, statusLine: '200 OK', body: '<html>' });
    await assert.rejects(
      discoverProvider(p.issuer, '', p.fetcher, signal),
      /^Error: oidc: failed to decode provider discovery object: /,
    );
  });
});
