import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EncodingCache } from './encoding-cache.js';

describe('EncodingCache', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it('encodes an object once per media type, keyed by identity', () => {
    const cache = new EncodingCache();
    const calls: string[] = [];
    const enc = (label: string) => (o: { n: number }) => {
      calls.push(`${label}:${o.n}`);
      return bytes(`${label}${o.n}`);
    };
    const a = { n: 1 };
    const twin = { n: 1 };
    const first = cache.encode(a, 'application/json', enc('j'));
    assert.equal(cache.encode(a, 'application/json', enc('j')), first, 'the same bytes instance');
    cache.encode(a, 'application/yaml', enc('y'));
    cache.encode(twin, 'application/json', enc('j'));
    assert.deepEqual(calls, ['j:1', 'y:1', 'j:1']);
    assert.deepEqual(cache.stats(), { hits: 1, misses: 3 });
  });

  it('looks up without encoding', () => {
    const cache = new EncodingCache();
    const a = {};
    assert.equal(cache.cached(a, 'application/json'), undefined);
    const b = cache.encode(a, 'application/json', () => bytes('{}'));
    assert.equal(cache.cached(a, 'application/json'), b);
    assert.equal(cache.cached(a, 'application/yaml'), undefined);
  });
});
