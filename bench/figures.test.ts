import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlankFigureError, type Figures, figuresLine } from './figures.js';

describe('figuresLine', () => {
  const ok: { name: string; figures: Figures; expected?: string[]; want: string }[] = [
    { name: 'no figures', figures: {}, want: '{}' },
    {
      name: 'finite numbers, zero and negatives included',
      figures: { 'a.ms': 12, 'b.ratio': 0.5, zero: 0, neg: -3 },
      want: '{"a.ms":12,"b.ratio":0.5,"zero":0,"neg":-3}',
    },
    { name: 'every expected name present', figures: { x: 1, y: 2 }, expected: ['y', 'x'], want: '{"x":1,"y":2}' },
  ];
  for (const c of ok) {
    it(`prints ${c.name}`, () => {
      assert.equal(figuresLine(c.figures, c.expected), c.want);
    });
  }

  const blank: { name: string; figures: Record<string, unknown>; expected?: string[]; names: string[] }[] = [
    { name: 'NaN', figures: { 'get.rps': 1, 'get.ratio': Number.NaN }, names: ['get.ratio'] },
    { name: 'Infinity', figures: { scale: Number.POSITIVE_INFINITY }, names: ['scale'] },
    { name: '-Infinity', figures: { scale: Number.NEGATIVE_INFINITY }, names: ['scale'] },
    { name: 'undefined', figures: { 'get.ratio': undefined }, names: ['get.ratio'] },
    { name: 'null', figures: { p99: null }, names: ['p99'] },
    { name: 'a string', figures: { p50: '3' }, names: ['p50'] },
    {
      name: 'a missing expected figure',
      figures: { 'get.rps': 5 },
      expected: ['get.rps', 'get.ratio'],
      names: ['get.ratio'],
    },
    {
      name: 'several at once',
      figures: { a: Number.NaN, b: 1, c: undefined },
      expected: ['d'],
      names: ['a', 'c', 'd'],
    },
  ];
  for (const c of blank) {
    it(`throws naming the figure: ${c.name}`, () => {
      assert.throws(
        () => figuresLine(c.figures as Figures, c.expected),
        (err: unknown) => {
          assert.ok(err instanceof BlankFigureError);
          assert.deepEqual(err.names, c.names);
          for (const n of c.names) assert.ok(err.message.includes(JSON.stringify(n)), err.message);
          return true;
        },
      );
    });
  }
});
