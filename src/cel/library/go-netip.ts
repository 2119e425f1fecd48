/**
 * Go's `net/netip` (Go 1.23), the parts kube's IP and CIDR libraries use: `ParseAddr`,
 * `ParsePrefix` with their exact messages, the address classes, canonical strings, masking,
 * containment and overlap. Addresses are numbers: 32 bits for IPv4, 128 for IPv6.
 */
import { goQuote } from '../../util/go-strconv.js';

/** A parse failure; `message` is Go's error text. */
export class NetipError extends Error {}

const MASK32 = (1n << 32n) - 1n;

function addrError(input: string, msg: string, at = ''): NetipError {
  const where = at === '' ? '' : ` (at ${goQuote(at)})`;
  return new NetipError(`ParseAddr(${goQuote(input)}): ${msg}${where}`);
}

/** An IPv4 or IPv6 address (IPv6 possibly with a zone). Immutable. */
export class Addr {
  constructor(
    readonly is4: boolean,
    readonly value: bigint,
    readonly zone = '',
  ) {}

  bitLen(): 32 | 128 {
    return this.is4 ? 32 : 128;
  }

  /** An IPv6 address in ::ffff:0:0/96. */
  is4In6(): boolean {
    return !this.is4 && this.value >> 32n === 0xffffn;
  }

  private unmap(): Addr {
    return this.is4In6() ? new Addr(true, this.value & MASK32) : this;
  }

  /** The i-th 16-bit group of the IPv6 form. */
  private group(i: number): number {
    return Number((this.value >> BigInt(112 - 16 * i)) & 0xffffn);
  }

  private byte4(i: number): number {
    return Number((this.value >> BigInt(24 - 8 * i)) & 0xffn);
  }

  equals(o: Addr): boolean {
    return this.is4 === o.is4 && this.value === o.value && this.zone === o.zone;
  }

  isUnspecified(): boolean {
    return this.value === 0n && this.zone === '';
  }

  isLoopback(): boolean {
    const ip = this.unmap();
    return ip.is4 ? ip.byte4(0) === 127 : ip.value === 1n;
  }

  isMulticast(): boolean {
    const ip = this.unmap();
    return ip.is4 ? (ip.byte4(0) & 0xf0) === 0xe0 : ip.value >> 120n === 0xffn;
  }

  isLinkLocalMulticast(): boolean {
    const ip = this.unmap();
    if (ip.is4) return ip.byte4(0) === 224 && ip.byte4(1) === 0 && ip.byte4(2) === 0;
    return (ip.group(0) & 0xff0f) === 0xff02;
  }

  isLinkLocalUnicast(): boolean {
    const ip = this.unmap();
    if (ip.is4) return ip.byte4(0) === 169 && ip.byte4(1) === 254;
    return (ip.group(0) & 0xffc0) === 0xfe80;
  }

  /** Go's rule: not unspecified, loopback, multicast, link-local or the IPv4 broadcast address. */
  isGlobalUnicast(): boolean {
    const ip = this.unmap();
    if (ip.is4 && (ip.value === 0n || ip.value === MASK32)) return false;
    const unspecified6 = !ip.is4 && ip.value === 0n && ip.zone === '';
    return !unspecified6 && !ip.isLoopback() && !ip.isMulticast() && !ip.isLinkLocalUnicast();
  }

  /** The address with all but its first `bits` bits cleared. */
  masked(bits: number): Addr {
    const len = BigInt(this.bitLen());
    const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << (len - BigInt(bits));
    return new Addr(this.is4, this.value & mask);
  }

  /** Canonical form: dotted quad, or RFC 5952 IPv6 (longest run of zero groups as `::`). */
  toString(): string {
    if (this.is4) return [0, 1, 2, 3].map((i) => this.byte4(i)).join('.');
    const zone = this.zone === '' ? '' : `%${this.zone}`;
    if (this.is4In6()) return `::ffff:${this.unmap().toString()}${zone}`;
    let zeroStart = -1;
    let zeroEnd = -1;
    for (let i = 0; i < 8; i++) {
      let j = i;
      while (j < 8 && this.group(j) === 0) j++;
      if (j - i >= 2 && j - i > zeroEnd - zeroStart) [zeroStart, zeroEnd] = [i, j];
    }
    let out = '';
    for (let i = 0; i < 8; i++) {
      if (i === zeroStart) {
        out += '::';
        i = zeroEnd;
        if (i >= 8) break;
      } else if (i > 0) {
        out += ':';
      }
      out += this.group(i).toString(16);
    }
    return out + zone;
  }
}

/** Dotted-quad fields of `input.slice(off, end)`, with Go's messages (errors name all of `input`). */
function parseIPv4Fields(input: string, off: number, end: number): bigint {
  const s = input.slice(off, end);
  const fields: number[] = [];
  let val = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c >= '0' && c <= '9') {
      if (digits === 1 && val === 0) throw addrError(input, 'IPv4 field has octet with leading zero');
      val = val * 10 + (c.charCodeAt(0) - 48);
      digits++;
      if (val > 255) throw addrError(input, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') {
        throw addrError(input, 'IPv4 field must have at least one digit', s.slice(i));
      }
      if (fields.length === 3) throw addrError(input, 'IPv4 address too long');
      fields.push(val);
      val = 0;
      digits = 0;
    } else {
      throw addrError(input, 'unexpected character', s.slice(i));
    }
  }
  if (fields.length < 3) throw addrError(input, 'IPv4 address too short');
  fields.push(val);
  return fields.reduce((acc, f) => (acc << 8n) | BigInt(f), 0n);
}

const hexValue = (c: string): number => {
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
};

function parseIPv6(input: string): Addr {
  let s = input;
  let zone = '';
  const pct = s.indexOf('%');
  if (pct !== -1) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') throw addrError(input, 'zone must be a non-empty string');
  }
  const bytes = new Array<number>(16).fill(0);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return new Addr(false, 0n, zone);
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexValue(s[off]);
      if (h < 0) break;
      acc = acc * 16 + h;
      if (off > 3) throw addrError(input, 'each group must have 4 or less digits', s);
      if (acc > 0xffff) throw addrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw addrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) {
        throw addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      }
      if (i + 4 > 16) {
        throw addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      }
      const end = input.length - (zone.length > 0 ? zone.length + 1 : 0);
      const v4 = parseIPv4Fields(input, end - s.length, end);
      for (let k = 0; k < 4; k++) bytes[i + k] = Number((v4 >> BigInt(24 - 8 * k)) & 0xffn);
      s = '';
      i += 4;
      break;
    }
    bytes[i] = acc >> 8;
    bytes[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ':') throw addrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw addrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw addrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) throw addrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw addrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) bytes[j + n] = bytes[j];
    for (let j = ellipsis; j < ellipsis + n; j++) bytes[j] = 0;
  } else if (ellipsis >= 0) {
    throw addrError(input, 'the :: must expand to at least one field of zeros');
  }
  return new Addr(
    false,
    bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n),
    zone,
  );
}

/** Go's `netip.ParseAddr`. */
export function parseAddr(s: string): Addr {
  for (const c of s) {
    if (c === '.') return new Addr(true, parseIPv4Fields(s, 0, s.length));
    if (c === ':') return parseIPv6(s);
    if (c === '%') throw addrError(s, 'missing IPv6 address');
  }
  throw addrError(s, 'unable to parse IP');
}

/** An address and a prefix length (host bits kept, as Go's `netip.Prefix`). */
export class Prefix {
  constructor(
    readonly addr: Addr,
    readonly bits: number,
  ) {}

  equals(o: Prefix): boolean {
    return this.bits === o.bits && this.addr.equals(o.addr);
  }

  masked(): Prefix {
    return new Prefix(this.addr.masked(this.bits), this.bits);
  }

  /** Same family, no zone, and the first `bits` bits equal. */
  contains(ip: Addr): boolean {
    if (ip.zone !== '' || ip.is4 !== this.addr.is4) return false;
    return ip.masked(this.bits).value === this.addr.masked(this.bits).value;
  }

  /** Whether the two networks share an address (Go's `Prefix.Overlaps`). */
  overlaps(o: Prefix): boolean {
    if (this.equals(o)) return true;
    if (this.addr.is4 !== o.addr.is4) return false;
    const bits = Math.min(this.bits, o.bits);
    return bits === 0 || this.addr.masked(bits).value === o.addr.masked(bits).value;
  }

  toString(): string {
    return `${this.addr.toString()}/${this.bits}`;
  }
}

/** Go's `netip.ParsePrefix`: no zones, no sign or leading zero in the length. */
export function parsePrefix(s: string): Prefix {
  const fail = (msg: string): NetipError => new NetipError(`netip.ParsePrefix(${goQuote(s)}): ${msg}`);
  const slash = s.lastIndexOf('/');
  if (slash < 0) throw fail("no '/'");
  let addr: Addr;
  try {
    addr = parseAddr(s.slice(0, slash));
  } catch (err) {
    if (err instanceof NetipError) throw fail(err.message);
    throw err;
  }
  if (!addr.is4 && addr.zone !== '') throw fail('IPv6 zones cannot be present in a prefix');
  const bitsStr = s.slice(slash + 1);
  const badBits = fail(`bad bits after slash: ${goQuote(bitsStr)}`);
  if (bitsStr.length > 1 && (bitsStr[0] < '1' || bitsStr[0] > '9')) throw badBits;
  if (!/^[0-9]+$/.test(bitsStr) || BigInt(bitsStr) > 2n ** 63n - 1n) throw badBits;
  const bits = BigInt(bitsStr);
  if (bits > BigInt(addr.bitLen())) throw fail('prefix length out of range');
  return new Prefix(addr, Number(bits));
}
