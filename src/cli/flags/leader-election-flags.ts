import { type ApiDomainName, apiDomain } from '../../apis/api-domain.js';
import type { LeaderElectionConfiguration } from '../../client/leaderelection/leader-election-configuration.js';
import { LeaderElectionConfigError } from '../../client/leaderelection/leader-election-configuration.js';
import { controllerLeaderElection } from '../../server/replica-controllers.js';
import type { FlagValues } from './flag-parser.js';
import { boolFlag, durationFlag, stringFlag } from './flag-spec.js';
import { formatGoDuration } from './go-values.js';

const SECTION = 'Leader election';

/**
 * kube-controller-manager's `--leader-elect*` flags (component-base's `BindLeaderElectionFlags`,
 * same names, defaults and help), for the controllers `orch-apiserver` runs in process. The lock
 * name and namespace default to the API domain's controller manager Lease.
 */
export function leaderElectionFlagTable() {
  return {
    leaderElect: boolFlag({
      name: 'leader-elect',
      default: true,
      section: SECTION,
      usage:
        'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.',
    }),
    leaderElectLeaseDuration: durationFlag({
      name: 'leader-elect-lease-duration',
      default: 15_000,
      section: SECTION,
      usage:
        'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot. This is effectively the maximum duration that a leader can be stopped before it is replaced by another candidate. This is only applicable if leader election is enabled.',
    }),
    leaderElectRenewDeadline: durationFlag({
      name: 'leader-elect-renew-deadline',
      default: 10_000,
      section: SECTION,
      usage:
        'The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than the lease duration. This is only applicable if leader election is enabled.',
    }),
    leaderElectRetryPeriod: durationFlag({
      name: 'leader-elect-retry-period',
      default: 2_000,
      section: SECTION,
      usage:
        'The duration the clients should wait between attempting acquisition and renewal of a leadership. This is only applicable if leader election is enabled.',
    }),
    leaderElectResourceLock: stringFlag({
      name: 'leader-elect-resource-lock',
      default: 'leases',
      section: SECTION,
      usage:
        "The type of resource object that is used for locking during leader election. Supported options are 'leases'.",
    }),
    leaderElectResourceName: stringFlag({
      name: 'leader-elect-resource-name',
      section: SECTION,
      defaultText: '"<product>-controller-manager"',
      usage: 'The name of resource object that is used for locking during leader election.',
    }),
    leaderElectResourceNamespace: stringFlag({
      name: 'leader-elect-resource-namespace',
      section: SECTION,
      defaultText: '"<product>-system"',
      usage: 'The namespace of resource object that is used for locking during leader election.',
    }),
  };
}

type LeaderElectionFlagValues = FlagValues<ReturnType<typeof leaderElectionFlagTable>>;

/**
 * The configuration the flags describe (name and namespace from the API domain unless set), or
 * every problem with it, each naming its `leaderElection.<field>`.
 */
export function leaderElectionFromFlags(
  v: LeaderElectionFlagValues,
  changed: ReadonlySet<string>,
  domain: ApiDomainName,
): { readonly config?: LeaderElectionConfiguration; readonly problems: string[] } {
  const d = apiDomain(domain);
  try {
    const config = controllerLeaderElection(d, {
      leaderElect: v.leaderElect,
      leaseDuration: formatGoDuration(v.leaderElectLeaseDuration),
      renewDeadline: formatGoDuration(v.leaderElectRenewDeadline),
      retryPeriod: formatGoDuration(v.leaderElectRetryPeriod),
      resourceLock: v.leaderElectResourceLock,
      resourceName: changed.has('leaderElectResourceName') ? v.leaderElectResourceName : d.controllerManagerName,
      resourceNamespace: changed.has('leaderElectResourceNamespace')
        ? v.leaderElectResourceNamespace
        : d.systemNamespace,
    });
    return { config, problems: [] };
  } catch (e) {
    if (e instanceof LeaderElectionConfigError) return { problems: [...e.problems] };
    throw e;
  }
}
