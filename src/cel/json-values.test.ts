import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromCel, toCelDynamic } from './json-values.js';

describe('toCelDynamic', () => {
  it('makes whole numbers ints, leaves other numbers doubles, and copies only what changes', () => {
    const unchanged = { a: 'x', b: [true, null, 1.5], c: { d: 'y' } };
    assert.equal(toCelDynamic(unchanged), unchanged);
    const input = { a: 1, b: [1.5, 2], c: { d: 'y' }, e: 2n ** 62n };
    const out = toCelDynamic(input) as Record<string, unknown>;
    assert.deepEqual(out, { a: 1n, b: [1.5, 2n], c: { d: 'y' }, e: 2n ** 62n });
    assert.equal(out.c, input.c);
    assert.deepEqual(input, { a: 1, b: [1.5, 2], c: { d: 'y' }, e: 2n ** 62n });
    // beyond 2^53 a number is no longer exact: it stays a double
    assert.equal(toCelDynamic(2 ** 60), 2 ** 60);
  });

  it('keeps a __proto__ key an ordinary property', () => {
    const out = toCelDynamic(JSON.parse('{"__proto__": 1, "a": 2}')) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.keys(out), ['__proto__', 'a']);
    assert.equal(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, 1n);
  });
});

describe('fromCel', () => {
  it('turns safe ints into numbers and containers into JSON', () => {
    assert.equal(fromCel(5n), 5);
    assert.equal(fromCel(2n ** 60n), 2n ** 60n);
    assert.equal(fromCel(-(2n ** 53n)), -(2n ** 53n));
    assert.deepEqual(fromCel([1n, new Set([2n]), new Map([['k', 3n]]), { a: 4n }]), [1, [2], { k: 3 }, { a: 4 }]);
    const d = new Date(0);
    assert.equal(fromCel(d), d);
  });
});
