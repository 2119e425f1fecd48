import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RecentBodies } from './cached-object.js';

describe('RecentBodies', () => {
  const bytes = (s: string) => Buffer.from(s);

  it('gives back a kept body only for the same holder and suffix', () => {
    const bodies = new RecentBodies(4);
    const a = {};
    const b = {};
    bodies.set(a, '\n', bytes('a\n'));
    const cases: { name: string; holder: object; suffix: string; want: string | undefined }[] = [
      { name: 'same holder and suffix', holder: a, suffix: '\n', want: 'a\n' },
      { name: 'another suffix', holder: a, suffix: '', want: undefined },
      { name: 'another holder', holder: b, suffix: '\n', want: undefined },
    ];
    for (const c of cases) {
      const got = bodies.get(c.holder, c.suffix);
      assert.equal(got === undefined ? undefined : Buffer.from(got).toString(), c.want, c.name);
    }
  });

  it('keeps at most its capacity, dropping the first kept first', () => {
    const bodies = new RecentBodies(2);
    const holders = [{}, {}, {}];
    for (const [i, h] of holders.entries()) bodies.set(h, '', bytes(String(i)));
    assert.equal(bodies.get(holders[0], ''), undefined);
    assert.equal(Buffer.from(bodies.get(holders[1], '')!).toString(), '1');
    assert.equal(Buffer.from(bodies.get(holders[2], '')!).toString(), '2');
  });

  it('replaces the body of a holder set again', () => {
    const bodies = new RecentBodies(2);
    const h = {};
    bodies.set(h, '', bytes('old'));
    bodies.set(h, '\n', bytes('new\n'));
    assert.equal(bodies.get(h, ''), undefined);
    assert.equal(Buffer.from(bodies.get(h, '\n')!).toString(), 'new\n');
  });

  it('keeps at most its byte budget, and no body over an eighth of it', () => {
    const bodies = new RecentBodies(64, 800);
    const cases: { name: string; size: number; kept: boolean }[] = [
      { name: 'an eighth of the budget', size: 100, kept: true },
      { name: 'over an eighth', size: 101, kept: false },
    ];
    for (const c of cases) {
      const h = {};
      bodies.set(h, '', Buffer.alloc(c.size));
      assert.equal(bodies.get(h, '') !== undefined, c.kept, c.name);
      assert.equal(bodies.keeps(c.size), c.kept, c.name);
    }
    const holders = Array.from({ length: 9 }, () => ({}));
    for (const h of holders) bodies.set(h, '', Buffer.alloc(100));
    // Eight bodies of 100 bytes fill the 800: the first of the nine went.
    assert.equal(bodies.get(holders[0], ''), undefined);
    for (const h of holders.slice(1)) assert.notEqual(bodies.get(h, ''), undefined);
  });
});
