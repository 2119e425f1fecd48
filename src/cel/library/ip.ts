import type { Environment } from '@marcbachmann/cel-js';
import { goQuote } from '../../util/go-strconv.js';
import type { CelLibrary } from '../cel-library.js';
import { NAMESPACE_TYPES } from '../function-namespaces.js';
import { type CelObject, celError, registerFunctions } from './cel-values.js';
import { type Addr, NetipError, parseAddr } from './go-netip.js';

/** kube's name for the IP address type. */
export const IP_TYPE = 'net.IP';
/** The type of the `ip` identifier that carries `ip.isCanonical(<string>)`. */
const IP_FUNCTIONS_TYPE = NAMESPACE_TYPES.ip;

/** A CEL `net.IP`: an IPv4 or IPv6 address without zone, never IPv4-mapped IPv6. */
export class IpValue implements CelObject {
  readonly celType = IP_TYPE;
  constructor(readonly addr: Addr) {}

  equals(other: CelObject): boolean {
    return other instanceof IpValue && this.addr.equals(other.addr);
  }
}

class IpFunctions {}

/** kube's parseIPAddr (Go's `netip.ParseAddr`, no zone, no IPv4-mapped IPv6): the address, or the error. */
function parseIP(s: string): Addr | string {
  let addr: Addr;
  try {
    addr = parseAddr(s);
  } catch (err) {
    if (err instanceof NetipError)
      return `IP Address ${goQuote(s)} parse error during conversion from string: ${err.message}`;
    throw err;
  }
  if (addr.zone !== '') return `IP address ${goQuote(s)} with zone value is not allowed`;
  if (addr.is4In6()) return `IPv4-mapped IPv6 address ${goQuote(s)} is not allowed`;
  return addr;
}

function mustParseIP(s: string): Addr {
  const addr = parseIP(s);
  if (typeof addr === 'string') throw celError(addr);
  return addr;
}

/** `ip(<string>)`, also behind `cidr.containsIP(<string>)`. */
export function toIp(s: string): IpValue {
  return new IpValue(mustParseIP(s));
}

/**
 * Registers `net.IP` unless the other network library did (each works alone, as in kube). The
 * engine says so only by refusing the type again. (Not `getDefinitions()`: in cel-js 8.0.0,
 * calling it on a fresh environment makes later registrations leak into every environment.)
 */
export function ensureIpType(env: Environment): void {
  try {
    env.registerType(IP_TYPE, { ctor: IpValue, fields: {} });
  } catch (err) {
    if ((err as Error).message.includes(`type '${IP_TYPE}' already registered`)) return;
    throw err;
  }
  env.registerOperator(`${IP_TYPE} == ${IP_TYPE}`, (a: IpValue, b: IpValue) => a.equals(b));
}

/**
 * kube's `kubernetes.net.ip` library (ip.go, v1.32): `ip(<string>)` and `isIP(<string>)` (Go's
 * strict `netip.ParseAddr`: no leading zeros, no zones, no IPv4-mapped IPv6),
 * `ip.isCanonical(<string>)`, `string(<IP>)`, and on an IP `family()`, `isUnspecified()`,
 * `isLoopback()`, `isLinkLocalMulticast()`, `isLinkLocalUnicast()`, `isGlobalUnicast()`.
 */
export const ipLibrary: CelLibrary = {
  name: 'kubernetes.net.ip',
  register(env) {
    ensureIpType(env);
    env.registerType(IP_FUNCTIONS_TYPE, { ctor: IpFunctions, fields: {} });
    env.registerConstant('ip', IP_FUNCTIONS_TYPE, new IpFunctions());
    registerFunctions(env, [
      [`ip(string): ${IP_TYPE}`, toIp],
      ['isIP(string): bool', (s: string) => typeof parseIP(s) !== 'string'],
      // Addr.String() is the canonical form.
      [
        `${IP_FUNCTIONS_TYPE}.isCanonical(string): bool`,
        (_: IpFunctions, s: string) => mustParseIP(s).toString() === s,
      ],
      [`string(${IP_TYPE}): string`, (ip: IpValue) => ip.addr.toString()],
      [`${IP_TYPE}.family(): int`, (ip: IpValue) => (ip.addr.is4 ? 4n : 6n)],
      [`${IP_TYPE}.isUnspecified(): bool`, (ip: IpValue) => ip.addr.isUnspecified()],
      [`${IP_TYPE}.isLoopback(): bool`, (ip: IpValue) => ip.addr.isLoopback()],
      [`${IP_TYPE}.isLinkLocalMulticast(): bool`, (ip: IpValue) => ip.addr.isLinkLocalMulticast()],
      [`${IP_TYPE}.isLinkLocalUnicast(): bool`, (ip: IpValue) => ip.addr.isLinkLocalUnicast()],
      [`${IP_TYPE}.isGlobalUnicast(): bool`, (ip: IpValue) => ip.addr.isGlobalUnicast()],
    ]);
  },
};
