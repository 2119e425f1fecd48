import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../apis/meta/status.js';
import { formatMicroTime } from '../../util/clock.js';
import { type Candidate, electionFixture, type Link } from './testing/election-fixture.js';

/** Samples every candidate's isLeader() every `stepMs` and fails if two ever lead together. */
async function watchSingleLeader(
  f: Awaited<ReturnType<typeof electionFixture>>,
  candidates: readonly Candidate[],
  ms: number,
  stepMs = 100,
): Promise<Map<string, number>> {
  const ledFor = new Map<string, number>(candidates.map((c) => [c.name, 0]));
  await f.time.run(ms, stepMs, () => {
    const leaders = candidates.filter((c) => c.elector.isLeader()).map((c) => c.name);
    assert.ok(leaders.length <= 1, `two leaders at ${f.time.elapsedMs} ms: ${leaders.join(', ')}`);
    for (const l of leaders) ledFor.set(l, ledFor.get(l)! + stepMs);
  });
  return ledFor;
}

describe('LeaderElector on a Lease (simulated time)', () => {
  it('acquires an absent lease at once and writes the record', async () => {
    const f = await electionFixture();
    const a = f.candidate('a');
    a.start();
    await f.time.advance(0);
    assert.equal(a.elector.isLeader(), true);
    assert.deepEqual(a.started, [0]);
    const spec = (await f.lease())!.spec!;
    assert.deepEqual(spec, {
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      acquireTime: '2025-01-01T00:00:00.000000Z',
      renewTime: '2025-01-01T00:00:00.000000Z',
      leaseTransitions: 0,
    });
    assert.deepEqual(a.newLeaders, ['a']);
    await a.stop();
  });

  it('renews every retryPeriod, keeping acquireTime and leaseTransitions', async () => {
    const f = await electionFixture();
    const a = f.candidate('a');
    a.start();
    await f.time.advance(4_500);
    const spec = (await f.lease())!.spec!;
    assert.equal(spec.renewTime, '2025-01-01T00:00:04.000000Z');
    assert.equal(spec.acquireTime, '2025-01-01T00:00:00.000000Z');
    assert.equal(spec.leaseTransitions, 0);
    await a.stop();
  });

  it('a second candidate waits while the holder renews, and reports the holder', async () => {
    const f = await electionFixture();
    const a = f.candidate('a');
    const b = f.candidate('b');
    a.start();
    await f.time.advance(0);
    b.start();
    const ledFor = await watchSingleLeader(f, [a, b], 60_000);
    assert.equal(ledFor.get('b'), 0);
    assert.deepEqual(b.newLeaders, ['a']);
    assert.equal((await f.lease())!.spec!.holderIdentity, 'a');
    await Promise.all([a.stop(), b.stop()]);
  });

  const failures: { link: Link; what: string }[] = [
    { link: 'fail', what: 'requests that fail' },
    { link: 'hang', what: 'requests that hang' },
  ];
  for (const { link, what } of failures) {
    it(`a holder with ${what} stops leading at lastRenewSent + renewDeadline, before anyone takes over`, async () => {
      const f = await electionFixture();
      const a = f.candidate('a');
      const b = f.candidate('b');
      a.start();
      await f.time.advance(0);
      b.start();
      await f.time.advance(2_500);
      // a's last successful renewal was sent at 2 000 ms.
      a.link = link;
      let aLastLed = 0;
      let bFirstLed = Number.POSITIVE_INFINITY;
      await f.time.run(30_000, 50, () => {
        const now = f.time.elapsedMs;
        if (a.elector.isLeader()) aLastLed = now;
        if (b.elector.isLeader()) bFirstLed = Math.min(bFirstLed, now);
        assert.ok(!(a.elector.isLeader() && b.elector.isLeader()), `two leaders at ${now}`);
      });
      assert.ok(aLastLed < 2_000 + 10_000, `a believed it led until ${aLastLed}`);
      assert.equal(a.stopped[0], 12_000, 'the leading signal aborts at the deadline');
      // b saw the record change last at 2 000 ms; it may take over 15 s after that.
      assert.ok(bFirstLed >= 17_000, `b led from ${bFirstLed}`);
      assert.ok(bFirstLed <= 17_000 + 2 * 2_200, `b led from ${bFirstLed}`);
      const spec = (await f.lease())!.spec!;
      assert.equal(spec.holderIdentity, 'b');
      assert.equal(spec.leaseTransitions, 1);
      assert.equal(spec.acquireTime, formatMicroTime(new Date(Date.parse('2025-01-01T00:00:00Z') + b.started[0])));
      a.link = 'ok';
      await Promise.all([a.stop(), b.stop()]);
    });
  }

  it('releases the lease on cancel (releaseOnCancel): the next candidate takes over at its next try', async () => {
    const f = await electionFixture();
    const a = f.candidate('a', { releaseOnCancel: true });
    const b = f.candidate('b');
    a.start();
    await f.time.advance(0);
    b.start();
    await f.time.advance(5_000);
    const stopping = a.stop();
    await f.time.advance(0);
    await stopping;
    const released = (await f.lease())!.spec!;
    assert.equal(released.holderIdentity, '');
    assert.equal(released.leaseDurationSeconds, 1);
    await f.time.advance(2 * 2_200);
    assert.equal(b.elector.isLeader(), true);
    assert.ok(b.started[0] <= 5_000 + 2 * 2_200, `b started at ${b.started[0]}`);
    await b.stop();
  });

  it('without releaseOnCancel the lease is left to expire', async () => {
    const f = await electionFixture();
    const a = f.candidate('a');
    const b = f.candidate('b');
    a.start();
    await f.time.advance(0);
    b.start();
    await f.time.advance(1_000);
    await a.stop();
    await f.time.advance(13_000);
    assert.equal(b.elector.isLeader(), false);
    await f.time.advance(4_500);
    assert.equal(b.elector.isLeader(), true);
    await b.stop();
  });

  it('candidates racing for an absent lease: exactly one create wins', async () => {
    const f = await electionFixture();
    const cs = ['a', 'b', 'c'].map((n) => f.candidate(n));
    for (const c of cs) c.start();
    const ledFor = await watchSingleLeader(f, cs, 20_000);
    assert.equal([...ledFor.values()].filter((ms) => ms > 0).length, 1);
    await Promise.all(cs.map((c) => c.stop()));
  });

  it('two writers from the same read: the second update is refused with 409 (resourceVersion precondition)', async () => {
    const f = await electionFixture();
    const a = f.lockFor('a', () => 'ok');
    const b = f.lockFor('b', () => 'ok');
    const signal = new AbortController().signal;
    const record = { holderIdentity: 'a', leaseDurationSeconds: 15, leaderTransitions: 0 };
    await a.create(record, signal);
    await a.get(signal);
    await b.get(signal);
    await a.update({ ...record, renewTime: '2025-01-01T00:00:02.000000Z' }, signal);
    await assert.rejects(b.update({ ...record, holderIdentity: 'b', leaderTransitions: 1 }, signal), (e: unknown) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.code, 409);
      assert.match(
        e.message,
        /the object has been modified; please apply your changes to the latest version and try again/,
      );
      return true;
    });
    assert.equal((await f.lease())?.spec?.holderIdentity, 'a');
  });

  const skews = [3_600_000, -3_600_000, 14_000];
  for (const skewMs of skews) {
    it(`a candidate whose wall clock is off by ${skewMs} ms neither takes over early nor loses its lease`, async () => {
      const f = await electionFixture();
      const a = f.candidate('a');
      const skewed = f.candidate('skewed', { skewMs });
      a.start();
      await f.time.advance(0);
      skewed.start();
      let ledFor = await watchSingleLeader(f, [a, skewed], 40_000);
      assert.equal(ledFor.get('skewed'), 0);
      // Now the skewed one leads, and a stays out while it renews.
      await a.stop();
      ledFor = await watchSingleLeader(f, [skewed], 20_000);
      assert.ok(ledFor.get('skewed')! > 0);
      a.start();
      ledFor = await watchSingleLeader(f, [a, skewed], 40_000);
      assert.equal(ledFor.get('a'), 0);
      await Promise.all([a.stop(), skewed.stop()]);
    });
  }

  it('three candidates under repeated partitions never lead together, and someone leads most of the time', async () => {
    const f = await electionFixture();
    const cs = ['a', 'b', 'c'].map((n) => f.candidate(n));
    for (const c of cs) c.start();
    // A fixed schedule: each round cuts one candidate off (failing or hanging) for 25 s.
    const links: Link[] = ['fail', 'hang'];
    let leaderless = 0;
    for (let round = 0; round < 6; round++) {
      const victim = cs[round % 3];
      victim.link = links[round % 2];
      await f.time.run(25_000, 100, () => {
        const leaders = cs.filter((c) => c.elector.isLeader());
        assert.ok(leaders.length <= 1, `round ${round}: two leaders at ${f.time.elapsedMs}`);
        if (leaders.length === 0) leaderless += 100;
      });
      victim.link = 'ok';
    }
    // Every handover costs at most leaseDuration + retryPeriod × 2.2 without a leader.
    assert.ok(leaderless < 6 * (15_000 + 4_400), `leaderless for ${leaderless} ms`);
    const transitions = (await f.lease())!.spec!.leaseTransitions ?? 0;
    assert.ok(transitions >= 1, `transitions ${transitions}`);
    await Promise.all(cs.map((c) => c.stop()));
  });
});
