import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cloneValue } from './object-helpers.js';

describe('cloneValue', () => {
  it('copies every value deeply, leaving out undefined members', () => {
    const source = { a: [1, { b: 'x' }, null], c: { d: undefined, e: true } };
    const copy = cloneValue(source);
    assert.deepStrictEqual(copy, { a: [1, { b: 'x' }, null], c: { e: true } });
    assert.notEqual(copy.a, source.a);
    assert.notEqual(copy.a[1], source.a[1]);
  });

  it('keeps a key named __proto__ as a member, never as the copy’s prototype', () => {
    const source = JSON.parse('{"spec":{"__proto__":{"polluted":true},"kept":1}}');
    const copy = cloneValue(source);
    assert.equal(Object.getPrototypeOf(copy.spec), Object.prototype);
    assert.deepEqual(Object.keys(copy.spec), ['__proto__', 'kept']);
    assert.equal(copy.spec.polluted, undefined);
    assert.equal(JSON.stringify(copy), JSON.stringify(source));
    assert.deepStrictEqual(copy, source);
  });
});
