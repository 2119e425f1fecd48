import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Quantity } from './go-quantity.js';

const cmp = (a: string, b: string) => Quantity.parse(a).cmp(Quantity.parse(b));

describe('Quantity.cmp', () => {
  it('orders quantities written alike', () => {
    assert.equal(cmp('100m', '500m'), -1);
    assert.equal(cmp('500m', '100m'), 1);
    assert.equal(cmp('128Mi', '128Mi'), 0);
    assert.equal(cmp('-1', '1'), -1);
  });

  it('orders quantities written differently', () => {
    assert.equal(cmp('1', '1000m'), 0);
    assert.equal(cmp('1Gi', '1000Mi'), 1);
    assert.equal(cmp('1k', '1Ki'), -1);
    assert.equal(cmp('1e3', '1k'), 0);
    assert.equal(cmp('0.1', '100m'), 0);
    assert.equal(cmp('1n', '0'), 1);
  });

  it('orders quantities held as exact decimals', () => {
    assert.equal(cmp('9223372036854775808', '9223372036854775807'), 1);
    assert.equal(cmp('0.0000000001', '1n'), 0);
  });
});
