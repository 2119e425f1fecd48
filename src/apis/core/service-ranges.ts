import {
  formatCIDR,
  type IpAddress,
  type IpNetwork,
  indexedIP,
  networkContains,
  networkFamily,
  networkSize,
  parseCIDR,
} from './ip-address.js';

/** kube-apiserver's default `--service-cluster-ip-range`. */
export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';
/** kube-apiserver's default `--service-node-port-range`. */
export const DEFAULT_SERVICE_NODE_PORT_RANGE = '30000-32767';

/** The configured service IP ranges: the primary one (its family is the default) and maybe a second. */
export interface ServiceIPRanges {
  readonly primary: IpNetwork;
  /** Of the other family (dual-stack). */
  readonly secondary?: IpNetwork;
}

/**
 * The usable addresses of a service network, as kube's IP allocator counts them: the network
 * address is never handed out, nor the IPv4 broadcast address; IPv6 ranges are capped at 65536
 * addresses (the bitmap is kept in one stored object).
 */
export interface ServiceIPRange {
  readonly network: IpNetwork;
  /** `network.String()`: the range as stored and as error messages name it. */
  readonly spec: string;
  /** The address of offset 0 (the network address + 1). */
  readonly base: IpAddress;
  /** Number of usable addresses. */
  readonly size: number;
  /**
   * Size of the static band kube prefers for requested addresses (its formula
   * `min(max(16, size/16), 256)`, 0 for ranges of 16 addresses or fewer).
   */
  readonly staticSize: number;
}

export function serviceIPRange(network: IpNetwork): ServiceIPRange {
  const total = networkSize(network);
  let max = network.base.is4 ? total : total > 65536n ? 65536n : total;
  if (network.base.is4) max -= 1n; // the broadcast address
  max -= 1n; // the network address
  const size = max < 0n ? 0 : Number(max);
  const staticSize = total <= 16n ? 0 : Number(total / 16n < 16n ? 16n : total / 16n > 256n ? 256n : total / 16n);
  return { network, spec: formatCIDR(network), base: indexedIP(network, 1n), size, staticSize };
}

/** The offset of `ip` in the range, or undefined when it is not one of its usable addresses. */
export function offsetInRange(range: ServiceIPRange, ip: IpAddress): number | undefined {
  if (!networkContains(range.network, ip)) return undefined;
  const offset = ip.value - range.base.value;
  return offset < 0n || offset >= BigInt(range.size) ? undefined : Number(offset);
}

/** The address at `offset` of the range. */
export function addressAt(range: ServiceIPRange, offset: number): IpAddress {
  return { is4: range.base.is4, value: range.base.value + BigInt(offset) };
}

/** The `default/kubernetes` service's address: the first usable address of the primary range. */
export function apiServerServiceIP(ranges: ServiceIPRanges): IpAddress {
  return indexedIP(ranges.primary, 1n);
}

/**
 * Parses `--service-cluster-ip-range` as kube-apiserver does: one CIDR, or two of different
 * families separated by a comma; each at most 2^20 addresses; the primary at least 8.
 * @returns the ranges, or every problem in kube's wording (flag named).
 */
export function parseServiceClusterIPRanges(value: string): { ranges?: ServiceIPRanges; problems: string[] } {
  const problems: string[] = [];
  const parts = value === '' ? [DEFAULT_SERVICE_CLUSTER_IP_RANGE] : value.split(',');
  if (parts.length > 2) problems.push('--service-cluster-ip-range must not contain more than two entries');
  const primary = parseCIDR(parts[0]);
  if (!primary) {
    problems.push('service-cluster-ip-range[0] is not a valid cidr');
    return { problems };
  }
  const maxCIDRBits = 20;
  const checkSize = (net: IpNetwork, flag: string) => {
    const bits = net.base.is4 ? 32 : 128;
    if (bits - net.prefixLength > maxCIDRBits) {
      problems.push(
        `specified ${flag} is too large; for ${bits}-bit addresses, the mask must be >= ${bits - maxCIDRBits}`,
      );
    }
  };
  if (networkSize(primary) < 8n) {
    problems.push(
      'error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses',
    );
  }
  checkSize(primary, '--service-cluster-ip-range');
  let secondary: IpNetwork | undefined;
  if (parts.length > 1) {
    secondary = parseCIDR(parts[1]);
    if (!secondary) problems.push('service-cluster-ip-range[1] is not an ip net');
    else {
      if (networkFamily(secondary) === networkFamily(primary)) {
        problems.push('--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
      }
      checkSize(secondary, '--service-cluster-ip-range[1]');
    }
  }
  return problems.length > 0 ? { problems } : { ranges: { primary, secondary }, problems };
}

/** A range of ports, `[base, base + size)`. */
export interface PortRange {
  readonly base: number;
  readonly size: number;
}

/** kube's `PortRange.String()`: `30000-32767`. */
export function formatPortRange(r: PortRange): string {
  return r.size === 0 ? '' : `${r.base}-${r.base + r.size - 1}`;
}

function atoi(s: string): number | string {
  // Go's strconv.Atoi: an optional sign and decimal digits.
  if (!/^[+-]?[0-9]+$/.test(s)) return `strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`;
  const n = Number.parseInt(s, 10);
  if (!Number.isSafeInteger(n)) return `strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`;
  return n;
}

/**
 * kube's `PortRange.Set`: `value`, `min-max` or `min+offset`, inclusive, at most 65535. An
 * empty value is the empty range.
 * @returns the range, or kube's error text.
 */
export function parsePortRange(raw: string): PortRange | { error: string } {
  const value = raw.trim();
  if (value === '') return { base: 0, size: 0 };
  const hyphen = value.indexOf('-');
  const plus = value.indexOf('+');
  let low: number | string;
  let high: number | string;
  if (hyphen < 0 && plus < 0) {
    low = atoi(value);
    high = low;
  } else if (hyphen >= 0 && plus < 0) {
    low = atoi(value.slice(0, hyphen));
    high = typeof low === 'string' ? low : atoi(value.slice(hyphen + 1));
  } else if (plus >= 0 && hyphen < 0) {
    low = atoi(value.slice(0, plus));
    const offset = typeof low === 'string' ? low : atoi(value.slice(plus + 1));
    high = typeof offset === 'string' ? offset : (low as number) + offset;
  } else {
    return { error: `unable to parse port range: ${value}` };
  }
  if (typeof low === 'string') return { error: low };
  if (typeof high === 'string') return { error: high };
  if (low > 65535 || high > 65535) return { error: `the port range cannot be greater than 65535: ${value}` };
  if (high < low) return { error: `end port cannot be less than start port: ${value}` };
  return { base: low, size: 1 + high - low };
}

/** Size of the node port range's static band: kube's `min(max(16, size/32), 128)`, 0 up to 16. */
export function nodePortStaticSize(range: PortRange): number {
  if (range.size <= 16) return 0;
  return Math.min(Math.max(16, Math.floor(range.size / 32)), 128);
}
