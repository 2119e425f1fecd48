/**
 * IP addresses and CIDRs as kube's service code reads them: k8s.io/utils/net's `ParseIPSloppy` /
 * `ParseCIDRSloppy` (Go's pre-1.17 parser: IPv4 octets may have leading zeros, read as decimal;
 * no IPv6 zones) and Go's `IP.String()` / `IPNet.String()` forms. An IPv4-mapped IPv6 address
 * (`::ffff:10.0.0.1`) is IPv4, as Go's `To4()` makes it.
 */

/** An address: 32 bits for IPv4, 128 for IPv6. Immutable. */
export interface IpAddress {
  readonly is4: boolean;
  readonly value: bigint;
}

/** A network (kube's `net.IPNet` from `ParseCIDR`): the masked base address and prefix length. */
export interface IpNetwork {
  readonly base: IpAddress;
  readonly prefixLength: number;
}

export type IpFamily = 'IPv4' | 'IPv6';

const V4_MAPPED_PREFIX = 0xffffn << 32n;

function parseIPv4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const p of parts) {
    if (!/^[0-9]+$/.test(p)) return undefined;
    const n = Number.parseInt(p, 10);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseGroups(s: string): number[] | undefined {
  if (s === '') return [];
  const out: number[] = [];
  for (const g of s.split(':')) {
    if (!/^[0-9a-fA-F]+$/.test(g)) return undefined;
    const n = Number.parseInt(g, 16);
    if (n > 0xffff) return undefined;
    out.push(n);
  }
  return out;
}

function parseIPv6(s: string): bigint | undefined {
  let text = s;
  let tail: number[] = [];
  // A trailing dotted IPv4 part fills the last two groups.
  const lastColon = text.lastIndexOf(':');
  if (lastColon >= 0 && text.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail = [Number(v4 >> 16n), Number(v4 & 0xffffn)];
    const head = text.slice(0, lastColon + 1);
    // `::1.2.3.4` keeps its double colon; `a:b:1.2.3.4` loses the separator.
    text = head.endsWith('::') ? head : head.slice(0, -1);
  }
  const doubleColon = text.indexOf('::');
  let groups: number[];
  if (doubleColon >= 0) {
    if (text.indexOf('::', doubleColon + 1) >= 0) return undefined;
    const head = parseGroups(text.slice(0, doubleColon));
    const rest = parseGroups(text.slice(doubleColon + 2));
    if (!head || !rest) return undefined;
    const fill = 8 - head.length - rest.length - tail.length;
    // `::` stands for at least one group of zeros.
    if (fill < 1) return undefined;
    groups = [...head, ...new Array<number>(fill).fill(0), ...rest, ...tail];
  } else {
    const all = parseGroups(text);
    if (!all) return undefined;
    groups = [...all, ...tail];
    if (groups.length !== 8) return undefined;
  }
  if (groups.length !== 8) return undefined;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

/** kube's `ParseIPSloppy`: undefined when `s` is not an IP address. */
export function parseIP(s: string): IpAddress | undefined {
  if (typeof s !== 'string' || s === '') return undefined;
  if (!s.includes(':')) {
    const v4 = parseIPv4(s);
    return v4 === undefined ? undefined : { is4: true, value: v4 };
  }
  const v6 = parseIPv6(s);
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === 0xffffn) return { is4: true, value: v6 & 0xffffffffn };
  return { is4: false, value: v6 };
}

/** The family of an address. */
export function familyOf(ip: IpAddress): IpFamily {
  return ip.is4 ? 'IPv4' : 'IPv6';
}

/** kube's `IsIPv6String`: a valid address that is not IPv4 (mapped addresses count as IPv4). */
export function isIPv6String(s: string): boolean {
  const ip = parseIP(s);
  return ip !== undefined && !ip.is4;
}

/** Go's `IP.String()`: dotted decimal for IPv4, RFC 5952 text for IPv6. */
export function formatIP(ip: IpAddress): string {
  if (ip.is4) {
    const v = ip.value;
    return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join('.');
  }
  const groups = Array.from({ length: 8 }, (_, i) => Number((ip.value >> BigInt(112 - 16 * i)) & 0xffffn));
  // The first longest run of two or more zero groups becomes `::`.
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (g: number) => g.toString(16);
  if (bestStart < 0) return groups.map(hex).join(':');
  const head = groups.slice(0, bestStart).map(hex).join(':');
  const tail = groups
    .slice(bestStart + bestLen)
    .map(hex)
    .join(':');
  return `${head}::${tail}`;
}

/** Bits of an address of this family. */
export function bitLength(ip: IpAddress): 32 | 128 {
  return ip.is4 ? 32 : 128;
}

/** kube's `ParseCIDRSloppy`: the network (address masked to the prefix), or undefined. */
export function parseCIDR(s: string): IpNetwork | undefined {
  if (typeof s !== 'string') return undefined;
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(s.slice(0, slash));
  const prefixText = s.slice(slash + 1);
  if (!ip || !/^[0-9]+$/.test(prefixText)) return undefined;
  // A mapped address with a prefix is an IPv6 network in Go (its mask is 128 bits long).
  const literalIs6 = s.slice(0, slash).includes(':');
  const bits = literalIs6 ? 128 : 32;
  const prefixLength = Number.parseInt(prefixText, 10);
  if (prefixLength > bits) return undefined;
  if (literalIs6 && ip.is4) {
    const full = { is4: false, value: V4_MAPPED_PREFIX | ip.value };
    return { base: maskTo(full, prefixLength), prefixLength };
  }
  return { base: maskTo(ip, prefixLength), prefixLength };
}

function maskTo(ip: IpAddress, prefixLength: number): IpAddress {
  const bits = BigInt(bitLength(ip));
  const hostBits = bits - BigInt(prefixLength);
  const mask = ((1n << bits) - 1n) ^ ((1n << hostBits) - 1n);
  return { is4: ip.is4, value: ip.value & mask };
}

/** Go's `IPNet.String()`: `10.0.0.0/24`. */
export function formatCIDR(net: IpNetwork): string {
  return `${formatIP(net.base)}/${net.prefixLength}`;
}

/** Number of addresses in the network (kube's `RangeSize`, a bigint as IPv6 ones are huge). */
export function networkSize(net: IpNetwork): bigint {
  return 1n << BigInt(bitLength(net.base) - net.prefixLength);
}

/** The network holds the address (same family, same prefix). */
export function networkContains(net: IpNetwork, ip: IpAddress): boolean {
  if (net.base.is4 !== ip.is4) return false;
  return maskTo(ip, net.prefixLength).value === net.base.value;
}

/** The family of a network. */
export function networkFamily(net: IpNetwork): IpFamily {
  return familyOf(net.base);
}

/** The address `offset` places after the network's base (kube's `GetIndexedIP`). */
export function indexedIP(net: IpNetwork, offset: bigint): IpAddress {
  return { is4: net.base.is4, value: net.base.value + offset };
}

/** Go's `IsUnspecified`. */
export function isUnspecified(ip: IpAddress): boolean {
  return ip.value === 0n;
}

/** Go's `IsLoopback`: 127.0.0.0/8 or ::1. */
export function isLoopback(ip: IpAddress): boolean {
  return ip.is4 ? ip.value >> 24n === 127n : ip.value === 1n;
}

/** Go's `IsLinkLocalUnicast`: 169.254.0.0/16 or fe80::/10. */
export function isLinkLocalUnicast(ip: IpAddress): boolean {
  return ip.is4 ? ip.value >> 16n === 0xa9fen : ip.value >> 118n === 0x3fan;
}

/** Go's `IsLinkLocalMulticast`: 224.0.0.0/24 or ff02::/16. */
export function isLinkLocalMulticast(ip: IpAddress): boolean {
  return ip.is4 ? ip.value >> 8n === 0xe00000n : ip.value >> 112n === 0xff02n;
}
