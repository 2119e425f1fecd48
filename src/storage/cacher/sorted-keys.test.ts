import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SortedKeys, upperBoundOfPrefix } from './sorted-keys.js';

function scanAll(set: SortedKeys, from: string, to?: string, max = Number.POSITIVE_INFINITY): string[] {
  const out: string[] = [];
  set.scan(from, to, (k) => {
    out.push(k);
    return out.length < max;
  });
  return out;
}

describe('SortedKeys', () => {
  it('matches a sorted array under random inserts and removes (small leaves force splits)', () => {
    const set = new SortedKeys(4);
    const model = new Set<string>();
    let x = 12345;
    const rand = (n: number) => {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      return x % n;
    };
    for (let step = 0; step < 3000; step++) {
      const key = `/k/${String(rand(400)).padStart(3, '0')}`;
      if (rand(3) === 0) assert.equal(set.remove(key), model.delete(key));
      else {
        const added = !model.has(key);
        model.add(key);
        assert.equal(set.insert(key), added);
      }
      if (step % 100 === 0) {
        const sorted = [...model].sort();
        assert.equal(set.size, sorted.length);
        assert.deepEqual(scanAll(set, ''), sorted);
        const probe = `/k/${String(rand(400)).padStart(3, '0')}`;
        assert.equal(set.rank(probe), sorted.filter((k) => k < probe).length);
        assert.equal(set.has(probe), model.has(probe));
      }
    }
  });

  const keys = ['/a/1', '/a/2', '/ab/1', '/b/1', '/b/2', '/b/3'];
  const cases: { name: string; from: string; to?: string; max?: number; want: string[]; count: number }[] = [
    { name: 'prefix /a/', from: '/a/', to: upperBoundOfPrefix('/a/'), want: ['/a/1', '/a/2'], count: 2 },
    { name: 'after a key', from: '/a/2\u0000', to: undefined, want: ['/ab/1', '/b/1', '/b/2', '/b/3'], count: 4 },
    { name: 'empty range', from: '/c/', to: '/d/', want: [], count: 0 },
    { name: 'stops when visit returns false', from: '/b/', to: '/c/', max: 2, want: ['/b/1', '/b/2'], count: 3 },
  ];
  for (const c of cases) {
    it(`scans and counts: ${c.name}`, () => {
      const set = SortedKeys.fromSorted(keys, 4);
      assert.deepEqual(scanAll(set, c.from, c.to, c.max), c.want);
      assert.equal(set.countBetween(c.from, c.to), c.count);
    });
  }

  it('rejects unsorted bulk input and computes prefix bounds', () => {
    assert.throws(() => SortedKeys.fromSorted(['/b', '/a']));
    assert.equal(upperBoundOfPrefix('/a/'), '/a0');
    assert.equal(upperBoundOfPrefix(''), undefined);
    assert.equal(upperBoundOfPrefix('a\uffff'), 'b');
  });
});
