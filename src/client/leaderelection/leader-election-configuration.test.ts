import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apis/meta/field-error.js';
import {
  defaultLeaderElectionConfiguration,
  LeaderElectionConfigError,
  type LeaderElectionConfiguration,
  leaderElectionTimings,
  parseLeaderElectionConfiguration,
  validateLeaderElectionConfiguration,
} from './leader-election-configuration.js';

const defaults = defaultLeaderElectionConfiguration({ name: 'orch-controller-manager', namespace: 'orch-system' });

describe('LeaderElectionConfiguration', () => {
  it('defaults to kube-controller-manager’s: elect, 15s/10s/2s, leases', () => {
    assert.deepEqual(defaults, {
      leaderElect: true,
      leaseDuration: '15s',
      renewDeadline: '10s',
      retryPeriod: '2s',
      resourceLock: 'leases',
      resourceName: 'orch-controller-manager',
      resourceNamespace: 'orch-system',
    });
    assert.deepEqual(leaderElectionTimings(defaults), {
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
  });

  const cases: { name: string; change: Partial<LeaderElectionConfiguration>; want: string[] }[] = [
    { name: 'valid', change: {}, want: [] },
    { name: 'Go durations', change: { leaseDuration: '1m', renewDeadline: '45s', retryPeriod: '1.5s' }, want: [] },
    {
      name: 'nothing is checked when leaderElect is false',
      change: { leaderElect: false, leaseDuration: 'x', resourceLock: '' },
      want: [],
    },
    {
      name: 'zero and negative durations',
      change: { leaseDuration: '0', renewDeadline: '-1s', retryPeriod: '0s' },
      want: [
        'leaderElection.leaseDuration: Invalid value: 0s: must be greater than zero',
        'leaderElection.renewDeadline: Invalid value: -1s: must be greater than zero',
        'leaderElection.retryPeriod: Invalid value: 0s: must be greater than zero',
      ],
    },
    {
      name: 'renewDeadline not below leaseDuration',
      change: { leaseDuration: '10s', renewDeadline: '10s' },
      want: ['leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than RenewDeadline'],
    },
    {
      name: 'renewDeadline not above retryPeriod × 1.2',
      change: { renewDeadline: '2400ms' },
      want: [
        'leaderElection.renewDeadline: Invalid value: 2.4s: renewDeadline must be greater than retryPeriod*JitterFactor',
      ],
    },
    {
      name: 'unparsable durations',
      change: { leaseDuration: '15', retryPeriod: '2 s' },
      want: [
        'leaderElection.leaseDuration: Invalid value: "15": time: missing unit in duration "15"',
        'leaderElection.retryPeriod: Invalid value: "2 s": time: unknown unit " s" in duration "2 s"',
      ],
    },
    {
      name: 'a lease duration the Lease cannot hold',
      change: { leaseDuration: '15500ms' },
      want: ['leaderElection.leaseDuration: Invalid value: 15.5s: must be a whole number of seconds'],
    },
    {
      name: 'missing lock fields',
      change: { resourceLock: '', resourceName: '', resourceNamespace: '' },
      want: [
        'leaderElection.resourceLock: Invalid value: "": resourceLock is required',
        'leaderElection.resourceNamespace: Invalid value: "": resourceNamespace is required',
        'leaderElection.resourceName: Invalid value: "": resourceName is required',
      ],
    },
    {
      name: 'a removed lock',
      change: { resourceLock: 'endpoints' },
      want: ['leaderElection.resourceLock: Invalid value: "endpoints": endpoints lock is removed, migrate to leases'],
    },
    {
      name: 'an unknown lock',
      change: { resourceLock: 'Leases' },
      want: ['leaderElection.resourceLock: Unsupported value: "Leases": supported values: "leases"'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errs = validateLeaderElectionConfiguration({ ...defaults, ...c.change }).map(formatFieldError);
      assert.deepEqual(errs, c.want);
    });
  }

  it('leaderElectionTimings throws every problem at once', () => {
    assert.throws(
      () => leaderElectionTimings({ ...defaults, leaseDuration: '5s', resourceName: '' }, 'spec.leaderElection'),
      (e: unknown) =>
        e instanceof LeaderElectionConfigError &&
        e.problems.length === 2 &&
        e.problems[0] ===
          'spec.leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than RenewDeadline' &&
        e.problems[1] === 'spec.leaderElection.resourceName: Invalid value: "": resourceName is required',
    );
  });

  it('parses a decoded section: defaults fill in, wrong types and unknown fields are listed with the rest', () => {
    assert.deepEqual(parseLeaderElectionConfiguration(undefined, defaults), { config: defaults, errors: [] });
    assert.deepEqual(
      parseLeaderElectionConfiguration({ leaseDuration: '30s', renewDeadline: '20s' }, defaults).config,
      {
        ...defaults,
        leaseDuration: '30s',
        renewDeadline: '20s',
      },
    );
    const bad = parseLeaderElectionConfiguration(
      { leaderElect: 'yes', retryPeriod: 2, leaseDuraton: '1s', renewDeadline: '20s' },
      defaults,
    );
    assert.equal(bad.config, undefined);
    assert.deepEqual(bad.errors.map(formatFieldError), [
      'leaderElection.leaderElect: Invalid value: "yes": must be a boolean',
      'leaderElection.retryPeriod: Invalid value: 2: must be a string',
      'leaderElection.leaseDuraton: unknown field',
      'leaderElection.leaseDuration: Invalid value: 20s: LeaseDuration must be greater than RenewDeadline',
    ]);
    assert.deepEqual(parseLeaderElectionConfiguration([], defaults).errors.map(formatFieldError), [
      'leaderElection: Invalid value: []: must be an object',
    ]);
  });
});
