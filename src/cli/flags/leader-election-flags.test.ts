import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../../apis/builtin.js';
import { newOrchFeatureGates } from '../../featuregate/orch-features.js';
import { parseApiServerCommandLine } from './apiserver-flags.js';
import { FlagValidationError } from './errors.js';

function parse(argv: string[]) {
  const parsed = parseApiServerCommandLine(argv, {
    featureGates: newOrchFeatureGates(),
    servedResources: () => builtinResources(),
  });
  assert.equal(parsed.help, false);
  return parsed.help ? undefined : parsed.flags.leaderElection;
}

describe('--leader-elect* flags', () => {
  it('default to kube-controller-manager’s values on the domain’s Lease', () => {
    assert.deepEqual(parse([]), {
      leaderElect: true,
      leaseDuration: '15s',
      renewDeadline: '10s',
      retryPeriod: '2s',
      resourceLock: 'leases',
      resourceName: 'orch-controller-manager',
      resourceNamespace: 'orch-system',
    });
    assert.equal(parse(['--api-domain=k8s.io'])?.resourceName, 'kube-controller-manager');
    assert.equal(parse(['--api-domain=k8s.io'])?.resourceNamespace, 'kube-system');
  });

  it('read every flag', () => {
    assert.deepEqual(
      parse([
        '--leader-elect=false',
        '--leader-elect-lease-duration=1m',
        '--leader-elect-renew-deadline=40s',
        '--leader-elect-retry-period=500ms',
        '--leader-elect-resource-lock=leases',
        '--leader-elect-resource-name=mine',
        '--leader-elect-resource-namespace=elsewhere',
      ]),
      {
        leaderElect: false,
        leaseDuration: '1m0s',
        renewDeadline: '40s',
        retryPeriod: '500ms',
        resourceLock: 'leases',
        resourceName: 'mine',
        resourceNamespace: 'elsewhere',
      },
    );
  });

  it('report every problem with its field path', () => {
    assert.throws(
      () =>
        parse([
          '--leader-elect-lease-duration=5s',
          '--leader-elect-resource-lock=endpoints',
          '--leader-elect-resource-name=',
        ]),
      (e: unknown) => {
        assert.ok(e instanceof FlagValidationError);
        assert.deepEqual(e.problems, [
          'leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than RenewDeadline',
          'leaderElection.resourceLock: Invalid value: "endpoints": endpoints lock is removed, migrate to leases',
          'leaderElection.resourceName: Invalid value: "": resourceName is required',
        ]);
        return true;
      },
    );
  });

  it('are not checked with --leader-elect=false', () => {
    assert.equal(parse(['--leader-elect=false', '--leader-elect-lease-duration=1s'])?.leaderElect, false);
  });
});
