import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { candidateIdentity, runLeaderElected } from '../../client/leaderelection/leader-elected.js';
import { electionFixture, type Link } from './testing/election-fixture.js';

describe('runLeaderElected (simulated time)', () => {
  it('runs the work only while leading, stops it when a term is lost, and campaigns again', async () => {
    const f = await electionFixture();
    let link: Link = 'ok';
    const events: string[] = [];
    let running = 0;
    const stop = new AbortController();
    const run = runLeaderElected({
      lock: f.lockFor('a', () => link),
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      releaseOnCancel: true,
      clock: f.time.view(),
      random: () => 0.5,
      signal: stop.signal,
      start(leading) {
        events.push(`start@${f.time.elapsedMs}`);
        running++;
        assert.equal(leading.aborted, false);
        return {
          stop: async () => {
            assert.equal(leading.aborted, true, 'the term is over before the work is stopped');
            running--;
            events.push(`stop@${f.time.elapsedMs}`);
          },
        };
      },
    });
    await f.time.advance(1_000);
    assert.deepEqual(events, ['start@0']);
    // Renewals fail from 1 s on; the last one was sent at 0: the term ends at 10 s.
    link = 'fail';
    await f.time.advance(10_000);
    assert.deepEqual(events, ['start@0', 'stop@10000']);
    assert.equal(run.elector.isLeader(), false);
    // Back online: the lease still names us, so the next attempt takes it again.
    link = 'ok';
    await f.time.advance(5_000);
    assert.equal(events.length, 3);
    assert.match(events[2], /^start@1[1-5]\d{3}$/);
    assert.equal(running, 1);
    assert.equal(run.elector.isLeader(), true);
    // Ending the campaign stops the work, then releases the lease.
    stop.abort();
    await f.time.advance(0);
    await run.done;
    assert.equal(running, 0);
    assert.equal((await f.lease())?.spec?.holderIdentity, '');
  });

  it('identities are <host>_<uuid>, new on every call', () => {
    const a = candidateIdentity('node-1');
    assert.match(a, /^node-1_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.notEqual(candidateIdentity('node-1'), a);
  });
});
