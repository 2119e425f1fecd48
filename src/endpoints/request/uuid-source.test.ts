import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uuidSource } from './uuid-source.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidSource', () => {
  it('makes version 4 UUIDs in lower-case text, none repeated, across pool refills', () => {
    const next = uuidSource();
    const seen = new Set<string>();
    // 256 UUIDs per pool: three refills.
    for (let i = 0; i < 1000; i++) {
      const id = next();
      assert.match(id, V4);
      assert.equal(seen.has(id), false, `repeated ${id}`);
      seen.add(id);
    }
  });

  it('gives two sources different sequences', () => {
    const a = uuidSource();
    const b = uuidSource();
    assert.notEqual(a(), b());
  });

  it('uses every hex digit in the random positions (the bytes are not constant)', () => {
    const next = uuidSource();
    const digits = new Set<string>();
    for (let i = 0; i < 200; i++) for (const c of next().slice(0, 8)) digits.add(c);
    assert.equal(digits.size, 16);
  });
});
