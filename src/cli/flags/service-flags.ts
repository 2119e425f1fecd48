import {
  DEFAULT_SERVICE_CLUSTER_IP_RANGE,
  DEFAULT_SERVICE_NODE_PORT_RANGE,
  formatPortRange,
  type PortRange,
  parsePortRange,
  parseServiceClusterIPRanges,
} from '../../apis/core/service-ranges.js';
import type { FlagValues } from './flag-parser.js';
import { customFlag, ipFlag, stringFlag } from './flag-spec.js';

const DEFAULT_NODE_PORTS = parsePortRange(DEFAULT_SERVICE_NODE_PORT_RANGE) as PortRange;

/** The Service networking flags of `orch-apiserver` (kube-apiserver's, with its defaults). */
export function serviceFlagTable() {
  return {
    serviceClusterIPRange: stringFlag({
      name: 'service-cluster-ip-range',
      section: 'Generic',
      defaultText: '',
      usage: `A CIDR notation IP range from which to assign service cluster IPs. This must not overlap with any IP ranges assigned to nodes or pods. Max of two dual-stack CIDRs is allowed. Default ${DEFAULT_SERVICE_CLUSTER_IP_RANGE}; its first address is the cluster IP of the default/kubernetes service.`,
    }),
    serviceNodePortRange: customFlag<PortRange>({
      name: 'service-node-port-range',
      typeName: 'portRange',
      default: DEFAULT_NODE_PORTS,
      section: 'Generic',
      usage:
        "A port range to reserve for services with NodePort visibility. This must not overlap with the ephemeral port range on nodes. Example: '30000-32767'. Inclusive at both ends of the range.",
      parse: (raw) => {
        const range = parsePortRange(raw);
        if ('error' in range) throw new Error(range.error);
        // kube reads an empty range as "use the default".
        return range.size === 0 ? DEFAULT_NODE_PORTS : range;
      },
      formatDefault: formatPortRange,
    }),
    advertiseAddress: ipFlag({
      name: 'advertise-address',
      section: 'Generic',
      usage:
        "The IP address on which to advertise the apiserver to members of the cluster (the default/kubernetes service's endpoints). This address must be reachable by the rest of the cluster. If blank, the --bind-address will be used. If --bind-address is unspecified or a loopback address, the host's first non-loopback interface address will be used.",
    }),
  };
}

type ServiceFlagValues = FlagValues<ReturnType<typeof serviceFlagTable>>;

/** Problems of the Service networking flags, in kube-apiserver's wording (each names its flag). */
export function validateServiceFlags(v: ServiceFlagValues): string[] {
  return parseServiceClusterIPRanges(v.serviceClusterIPRange).problems;
}
