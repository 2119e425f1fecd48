import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Quantity } from './go-quantity.js';

describe('Quantity canonical string (kube String())', () => {
  const cases: [string, string][] = [
    ['0', '0'],
    ['0.5', '500m'],
    ['1000m', '1'],
    ['1.5', '1500m'],
    ['1500', '1500'],
    ['1k', '1k'],
    ['10e2', '1e3'],
    ['0.0001', '100u'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1.5Gi', '1536Mi'],
    ['2000Mi', '2000Mi'],
    ['1023', '1023'],
    ['512Ki', '512Ki'],
    ['0.5Ki', '512'],
    ['-1Gi', '-1Gi'],
    ['100M', '100M'],
  ];
  for (const [input, want] of cases) {
    it(`${input} → ${want}`, () => {
      assert.equal(Quantity.parse(input).toString(), want);
    });
  }
});

describe('Quantity milliValue (rounded away from zero)', () => {
  const cases: [string, bigint][] = [
    ['1', 1000n],
    ['0.5', 500n],
    ['1.0001', 1001n],
    ['0.9995', 1000n],
    ['-0.0001', -1n],
    ['1Ki', 1024000n],
  ];
  for (const [input, want] of cases) {
    it(`${input} → ${want}`, () => {
      assert.equal(Quantity.parse(input).milliValue(), want);
    });
  }
});
