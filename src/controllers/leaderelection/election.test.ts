import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Lease } from '../../apis/coordination/lease.js';
import type { LeaseCandidate } from '../../apis/coordination/lease-candidate.js';
import {
  isLeaseCandidateExpired,
  isLeaseExpired,
  pickBestLeaderOldestEmulationVersion,
  pickBestStrategy,
} from './election.js';

function c(name: string, spec: LeaseCandidate['spec'], created = '2025-01-01T00:00:00Z'): LeaseCandidate {
  return {
    apiVersion: 'coordination.orch.io/v1alpha2',
    kind: 'LeaseCandidate',
    metadata: { name, namespace: 'orch-system', creationTimestamp: created },
    spec: { leaseName: 'l', strategy: 'OldestEmulationVersion', ...spec },
  };
}

describe('coordinated election: picking', () => {
  const leaders: { name: string; candidates: LeaseCandidate[]; want: string | undefined }[] = [
    {
      name: 'lowest emulation version',
      candidates: [
        c('a', { binaryVersion: '1.32.0', emulationVersion: '1.32.0' }),
        c('b', { binaryVersion: '1.32.0', emulationVersion: '1.31.0' }),
      ],
      want: 'b',
    },
    {
      name: 'then lowest binary version',
      candidates: [
        c('a', { binaryVersion: '1.33.0', emulationVersion: '1.31.0' }),
        c('b', { binaryVersion: '1.32.0', emulationVersion: '1.31.0' }),
      ],
      want: 'b',
    },
    {
      name: 'then the oldest candidate',
      candidates: [
        c('a', { binaryVersion: '1.32.0', emulationVersion: '1.32.0' }, '2025-01-01T00:00:05Z'),
        c('b', { binaryVersion: '1.32.0', emulationVersion: '1.32.0' }, '2025-01-01T00:00:01Z'),
      ],
      want: 'b',
    },
    {
      name: 'a tie keeps the first',
      candidates: [
        c('a', { binaryVersion: '1.32.0', emulationVersion: '1.32.0' }),
        c('b', { binaryVersion: '1.32.0', emulationVersion: '1.32.0' }),
      ],
      want: 'a',
    },
    {
      name: 'versions are read tolerantly (v prefix, short forms); unreadable ones are skipped',
      candidates: [
        c('a', { binaryVersion: 'v1.32', emulationVersion: 'v1.31' }),
        c('b', { binaryVersion: 'x', emulationVersion: '1.0.0' }),
      ],
      want: 'a',
    },
    { name: 'none', candidates: [c('b', { binaryVersion: '', emulationVersion: 'x' })], want: undefined },
  ];
  for (const t of leaders) {
    it(`leader: ${t.name}`, () =>
      assert.equal(pickBestLeaderOldestEmulationVersion(t.candidates)?.metadata.name, t.want));
  }

  it('strategy: the candidate with the highest binary version decides; a tie that disagrees is an error', () => {
    assert.deepEqual(
      pickBestStrategy([
        c('old', { binaryVersion: '1.31.0', strategy: 'example.com/other' }),
        c('new', { binaryVersion: '1.32.0', strategy: 'OldestEmulationVersion' }),
      ]),
      { strategy: 'OldestEmulationVersion' },
    );
    assert.deepEqual(
      pickBestStrategy([
        c('a', { binaryVersion: '1.32.0', strategy: 'OldestEmulationVersion' }),
        c('b', { binaryVersion: '1.32.0', strategy: 'example.com/other' }),
      ]),
      {
        error: 'candidates a, b at version 1.32.0 have different strategies OldestEmulationVersion, example.com/other',
      },
    );
    assert.deepEqual(pickBestStrategy([]), { error: 'no candidates' });
  });

  it('expiry of leases and candidates', () => {
    const now = Date.parse('2025-01-01T01:00:00Z');
    const lease = (renewTime?: string, leaseDurationSeconds?: number): Lease => ({
      apiVersion: 'coordination.orch.io/v1',
      kind: 'Lease',
      metadata: {},
      spec: { renewTime, leaseDurationSeconds },
    });
    assert.equal(isLeaseExpired(lease('2025-01-01T00:59:56.000000Z', 5), now), false);
    assert.equal(isLeaseExpired(lease('2025-01-01T00:59:54.000000Z', 5), now), true);
    assert.equal(isLeaseExpired(lease(undefined, 5), now), true);
    assert.equal(isLeaseCandidateExpired(c('a', { renewTime: '2025-01-01T00:31:00.000000Z' }), now), false);
    assert.equal(isLeaseCandidateExpired(c('a', { renewTime: '2025-01-01T00:29:00.000000Z' }), now), true);
    assert.equal(isLeaseCandidateExpired(c('a', {}), now), true);
  });
});
