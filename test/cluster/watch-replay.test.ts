import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Change, replayDifferences, type Watcher, type WatchSegment } from './watch-replay.js';

const add = (name: string, rv: number): Change => ({ type: 'ADDED', name, rv: BigInt(rv) });
const seg = (listRv: number, listed: string[], events: Change[]): WatchSegment => ({
  listRv: BigInt(listRv),
  listed,
  events,
});
const watcher = (...segments: WatchSegment[]): Watcher => ({ segments, reconnects: 0, relists: 0, resumedAt: [] });

/** etcd history from revision 11: a and b existed at 10; c, d, e created at 11, 12, 14. */
const history = {
  before: ['a', 'b'],
  from: 11n,
  changes: [add('c', 11), add('d', 12), { type: 'DELETED', name: 'a', rv: 13n } as Change, add('e', 14)],
};

describe('replayDifferences', () => {
  const cases: { name: string; w: Watcher; problems: number }[] = [
    {
      name: 'exactly the history',
      w: watcher(seg(10, ['b', 'a'], history.changes.slice())),
      problems: 0,
    },
    {
      name: 'a later list and the rest of the history',
      w: watcher(seg(12, ['a', 'b', 'c', 'd'], history.changes.slice(2))),
      problems: 0,
    },
    { name: 'a missed event', w: watcher(seg(10, ['a', 'b'], [add('c', 11), add('e', 14)])), problems: 1 },
    {
      name: 'a repeated event',
      w: watcher(seg(10, ['a', 'b'], [...history.changes.slice(0, 2), add('d', 12), ...history.changes.slice(2)])),
      problems: 1,
    },
    {
      name: 'events out of order',
      w: watcher(seg(10, ['a', 'b'], [add('d', 12), add('c', 11), ...history.changes.slice(2)])),
      problems: 1,
    },
    {
      name: 'the end of the history missing',
      w: watcher(seg(10, ['a', 'b'], history.changes.slice(0, 3))),
      problems: 1,
    },
    {
      name: 'a list that does not match etcd at its revision',
      w: watcher(seg(12, ['a', 'b', 'c'], history.changes.slice(2))),
      problems: 1,
    },
    {
      name: 'a relist: the first segment may stop early, the last must reach the end',
      w: watcher(seg(10, ['a', 'b'], [add('c', 11)]), seg(13, ['b', 'c', 'd'], [add('e', 14)])),
      problems: 0,
    },
    {
      name: 'a relist after a gap in the first segment',
      w: watcher(seg(10, ['a', 'b'], [add('d', 12)]), seg(13, ['b', 'c', 'd'], [add('e', 14)])),
      problems: 1,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(replayDifferences(c.w, history).length, c.problems, JSON.stringify(replayDifferences(c.w, history)));
    });
  }
});
