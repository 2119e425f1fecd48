import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LeaseSpec } from '../../apis/coordination/lease.js';
import { type LeaderElectionRecord, LeaseLock, leaseSpecToRecord, recordToLeaseSpec } from './lease-lock.js';

describe('LeaseLock record conversion', () => {
  const cases: { name: string; spec: LeaseSpec | undefined; record: LeaderElectionRecord; back: LeaseSpec }[] = [
    {
      name: 'a held lease',
      spec: {
        holderIdentity: 'host_1',
        leaseDurationSeconds: 15,
        acquireTime: '2025-01-01T00:00:00.000000Z',
        renewTime: '2025-01-01T00:00:02.000000Z',
        leaseTransitions: 3,
      },
      record: {
        holderIdentity: 'host_1',
        leaseDurationSeconds: 15,
        acquireTime: '2025-01-01T00:00:00.000000Z',
        renewTime: '2025-01-01T00:00:02.000000Z',
        leaderTransitions: 3,
        strategy: undefined,
        preferredHolder: undefined,
      },
      back: {
        holderIdentity: 'host_1',
        leaseDurationSeconds: 15,
        acquireTime: '2025-01-01T00:00:00.000000Z',
        renewTime: '2025-01-01T00:00:02.000000Z',
        leaseTransitions: 3,
      },
    },
    {
      name: 'an empty spec reads as zero values and writes holder, duration and transitions',
      spec: undefined,
      record: {
        holderIdentity: '',
        leaseDurationSeconds: 0,
        acquireTime: undefined,
        renewTime: undefined,
        leaderTransitions: 0,
        strategy: undefined,
        preferredHolder: undefined,
      },
      back: { holderIdentity: '', leaseDurationSeconds: 0, leaseTransitions: 0 },
    },
    {
      name: 'coordinated fields are kept when set',
      spec: { holderIdentity: 'a', leaseDurationSeconds: 5, strategy: 'OldestEmulationVersion', preferredHolder: 'b' },
      record: {
        holderIdentity: 'a',
        leaseDurationSeconds: 5,
        acquireTime: undefined,
        renewTime: undefined,
        leaderTransitions: 0,
        strategy: 'OldestEmulationVersion',
        preferredHolder: 'b',
      },
      back: {
        holderIdentity: 'a',
        leaseDurationSeconds: 5,
        leaseTransitions: 0,
        strategy: 'OldestEmulationVersion',
        preferredHolder: 'b',
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const record = leaseSpecToRecord(c.spec);
      assert.deepEqual(record, c.record);
      assert.deepEqual(recordToLeaseSpec(record), c.back);
    });
  }

  it('compares records by content: a renewal changes the raw form', () => {
    const r = leaseSpecToRecord(cases[0].spec);
    assert.equal(LeaseLock.raw(r), LeaseLock.raw({ ...r }));
    assert.notEqual(LeaseLock.raw(r), LeaseLock.raw({ ...r, renewTime: '2025-01-01T00:00:04.000000Z' }));
  });

  it('refuses an empty identity and an update before a read', async () => {
    const client = {
      namespace: 'ns',
      get: () => Promise.reject(new Error('unused')),
      create: () => Promise.reject(new Error('unused')),
      update: () => Promise.reject(new Error('unused')),
    };
    assert.throws(
      () => new LeaseLock({ client, name: 'l', identity: '', group: 'coordination.orch.io' }),
      /identity is empty/,
    );
    const lock = new LeaseLock({ client, name: 'l', identity: 'me', group: 'coordination.orch.io' });
    assert.equal(lock.describe(), 'ns/l');
    await assert.rejects(
      lock.update(leaseSpecToRecord(undefined), new AbortController().signal),
      /call get or create first/,
    );
  });
});
