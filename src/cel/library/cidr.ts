import type { Environment } from '@marcbachmann/cel-js';
import { goQuote } from '../../util/go-strconv.js';
import type { CelLibrary } from '../cel-library.js';
import { NAMESPACE_TYPES } from '../function-namespaces.js';
import { type CelObject, celError, registerFunctions, registerObjectType } from './cel-values.js';
import { NetipError, type Prefix, parsePrefix } from './go-netip.js';
import { ensureIpType, IP_TYPE, IpValue, toIp } from './ip.js';

const CIDR_TYPE = 'net.CIDR';
const PARSE_ERROR = 'network address parse error during conversion from string: ';

/** A CEL `net.CIDR`: an address (host bits kept) and a prefix length. */
class CidrValue implements CelObject {
  readonly celType = CIDR_TYPE;
  constructor(readonly prefix: Prefix) {}

  equals(other: CelObject): boolean {
    return other instanceof CidrValue && this.prefix.equals(other.prefix);
  }
}

/** kube's parseCIDR (Go's `netip.ParsePrefix`, then no IPv4-mapped IPv6): the prefix, or the error. */
function parseCIDR(s: string): Prefix | string {
  let prefix: Prefix;
  try {
    prefix = parsePrefix(s);
  } catch (err) {
    if (err instanceof NetipError) return `${PARSE_ERROR}${err.message}`;
    throw err;
  }
  if (prefix.addr.is4In6()) return `IPv4-mapped IPv6 address ${goQuote(s)} is not allowed`;
  return prefix;
}

/** `cidr(<string>)`: kube prefixes parseCIDR's error once more (a syntax error says it twice). */
function toCidr(s: string): CidrValue {
  const prefix = parseCIDR(s);
  if (typeof prefix === 'string') throw celError(`${PARSE_ERROR}${prefix}`);
  return new CidrValue(prefix);
}

/** Containment as in kube v1.32's latest patch releases: overlapping, and no shorter prefix. */
function containsCidr(cidr: CidrValue, other: CidrValue): boolean {
  return cidr.prefix.overlaps(other.prefix) && cidr.prefix.bits <= other.prefix.bits;
}

/**
 * kube's `kubernetes.net.cidr` library (cidr.go, v1.32): `cidr(<string>)` and
 * `isCIDR(<string>)` (Go's `netip.ParsePrefix`, no IPv4-mapped IPv6), `string(<CIDR>)`, and on a
 * CIDR `containsIP(<IP or string>)`, `containsCIDR(<CIDR or string>)`, `ip()` (the address as
 * written), `masked()` and `prefixLength()`; and the type names `net.IP` and `net.CIDR`.
 */
export const cidrLibrary: CelLibrary = {
  name: 'kubernetes.net.cidr',
  register(env) {
    ensureIpType(env);
    registerObjectType(env, CIDR_TYPE, CidrValue);
    registerFunctions(env, [
      [`cidr(string): ${CIDR_TYPE}`, toCidr],
      ['isCIDR(string): bool', (s: string) => typeof parseCIDR(s) !== 'string'],
      [`string(${CIDR_TYPE}): string`, (c: CidrValue) => c.prefix.toString()],
      [`${CIDR_TYPE}.containsIP(string): bool`, (c: CidrValue, s: string) => c.prefix.contains(toIp(s).addr)],
      [`${CIDR_TYPE}.containsIP(${IP_TYPE}): bool`, (c: CidrValue, ip: IpValue) => c.prefix.contains(ip.addr)],
      [`${CIDR_TYPE}.containsCIDR(string): bool`, (c: CidrValue, s: string) => containsCidr(c, toCidr(s))],
      [`${CIDR_TYPE}.containsCIDR(${CIDR_TYPE}): bool`, containsCidr],
      [`${CIDR_TYPE}.ip(): ${IP_TYPE}`, (c: CidrValue) => new IpValue(c.prefix.addr)],
      [`${CIDR_TYPE}.masked(): ${CIDR_TYPE}`, (c: CidrValue) => new CidrValue(c.prefix.masked())],
      [`${CIDR_TYPE}.prefixLength(): int`, (c: CidrValue) => BigInt(c.prefix.bits)],
    ]);
    registerNetTypeNames(env);
  },
};

/** The type of the `net` identifier, whose fields are the type values `net.IP` and `net.CIDR`. */
const NET_TYPE_NAMES = NAMESPACE_TYPES.net;

class NetTypeNames {
  constructor(
    readonly IP: unknown,
    readonly CIDR: unknown,
  ) {}
}

/**
 * `net.IP` and `net.CIDR` as type values, so that `type(ip('1.2.3.4')) == net.IP` holds as in
 * cel-go. The engine resolves no qualified type names, so `net` is a constant whose fields are
 * the engine's type values of the two types, taken from `type()` of a value of each.
 */
function registerNetTypeNames(env: Environment): void {
  const cidrType = env.evaluate("type(cidr('0.0.0.0/0'))");
  const ipType = env.evaluate("type(cidr('0.0.0.0/0').ip())");
  env.registerType(NET_TYPE_NAMES, { ctor: NetTypeNames, fields: { IP: 'type', CIDR: 'type' } });
  env.registerConstant('net', NET_TYPE_NAMES, new NetTypeNames(ipType, cidrType));
}
