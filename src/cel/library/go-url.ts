/**
 * Go's `net/url` parser (Go 1.23, the one kube-apiserver v1.32 is built with): `Parse`,
 * `ParseRequestURI`, the escaped path, host name, port and query. Go works on bytes, so the
 * parser works on "byte strings" (one char code per UTF-8 byte) and converts at the edges; a
 * percent-escape that decodes to invalid UTF-8 thus escapes back exactly as in Go.
 */
import { goQuote } from '../../util/go-strconv.js';

/** A Go string: each char code is one byte. */
type Bytes = string;

const toBytes = (s: string): Bytes => Buffer.from(s, 'utf8').toString('latin1');
const fromBytes = (b: Bytes): string => Buffer.from(b, 'latin1').toString('utf8');

/** The length of the valid UTF-8 sequence at `i`, or 0 (Go's `utf8.DecodeRuneInString` rules). */
function utf8SequenceLength(b: Bytes, i: number): number {
  const c = b.charCodeAt(i);
  if (c < 0x80) return 1;
  const n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
  if (n === 0 || i + n > b.length) return 0;
  for (let k = 1; k < n; k++) if ((b.charCodeAt(i + k) & 0xc0) !== 0x80) return 0;
  const c1 = b.charCodeAt(i + 1);
  if (c === 0xe0 && c1 < 0xa0) return 0; // overlong
  if (c === 0xed && c1 > 0x9f) return 0; // surrogate
  if (c === 0xf0 && c1 < 0x90) return 0; // overlong
  if (c === 0xf4 && c1 > 0x8f) return 0; // past U+10FFFF
  return n;
}

/** `strconv.Quote` of a byte string: invalid UTF-8 bytes print as `\xNN`. */
function quoteBytes(b: Bytes): string {
  let out = '';
  for (let i = 0; i < b.length; ) {
    const n = utf8SequenceLength(b, i);
    if (n === 0) {
      out += `\\x${b.charCodeAt(i).toString(16).padStart(2, '0')}`;
      i++;
    } else {
      out += goQuote(fromBytes(b.slice(i, i + n))).slice(1, -1);
      i += n;
    }
  }
  return `"${out}"`;
}

enum Mode {
  Path,
  PathSegment,
  Host,
  Zone,
  UserPassword,
  QueryComponent,
  Fragment,
}

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
const unhex = (c: number): number => (c <= 57 ? c - 48 : c >= 97 ? c - 87 : c - 55);
const isAlnum = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);

/** Go's `shouldEscape` (RFC 3986 with Go's deviations), on one byte. */
function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  const ch = String.fromCharCode(c);
  if ((mode === Mode.Host || mode === Mode.Zone) && `!$&'()*+,;=:[]<>"`.includes(ch)) return false;
  if ('-_.~'.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    switch (mode) {
      case Mode.Path:
        return ch === '?';
      case Mode.PathSegment:
        return ch === '/' || ch === ';' || ch === ',' || ch === '?';
      case Mode.UserPassword:
        return ch === '@' || ch === '/' || ch === '?' || ch === ':';
      case Mode.QueryComponent:
        return true;
      case Mode.Fragment:
        return false;
    }
  }
  if (mode === Mode.Fragment && '!()*'.includes(ch)) return false;
  return true;
}

/** A parse failure; `message` is Go's error text. */
export class GoUrlError extends Error {}

function percentDecode(s: Bytes, mode: Mode): Bytes {
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      if (i + 2 >= s.length || !isHex(s.charCodeAt(i + 1)) || !isHex(s.charCodeAt(i + 2))) {
        throw new GoUrlError(`invalid URL escape ${quoteBytes(s.slice(i, i + 3))}`);
      }
      const escaped = s.slice(i, i + 3);
      // In a host, %-encoding is only for non-ASCII bytes (and %25 in a zone, RFC 6874).
      if (mode === Mode.Host && unhex(s.charCodeAt(i + 1)) < 8 && escaped !== '%25') {
        throw new GoUrlError(`invalid URL escape ${quoteBytes(escaped)}`);
      }
      if (mode === Mode.Zone) {
        const v = (unhex(s.charCodeAt(i + 1)) << 4) | unhex(s.charCodeAt(i + 2));
        if (escaped !== '%25' && v !== 0x20 && shouldEscape(v, Mode.Host)) {
          throw new GoUrlError(`invalid URL escape ${quoteBytes(escaped)}`);
        }
      }
      i += 3;
    } else {
      if ((mode === Mode.Host || mode === Mode.Zone) && c < 0x80 && shouldEscape(c, mode)) {
        throw new GoUrlError(`invalid character ${quoteBytes(s[i])} in host name`);
      }
      i++;
    }
  }
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%') {
      out += String.fromCharCode((unhex(s.charCodeAt(i + 1)) << 4) | unhex(s.charCodeAt(i + 2)));
      i += 2;
    } else if (c === '+' && mode === Mode.QueryComponent) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

function percentEncode(s: Bytes, mode: Mode): Bytes {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20 && mode === Mode.QueryComponent) out += '+';
    else if (shouldEscape(c, mode)) out += `%${c.toString(16).toUpperCase().padStart(2, '0')}`;
    else out += s[i];
  }
  return out;
}

/** Go's `getScheme`: a leading `[a-zA-Z][a-zA-Z0-9+-.]*:`, or none. */
function splitScheme(raw: Bytes): [scheme: Bytes, rest: Bytes] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) continue;
    if ((c >= 48 && c <= 57) || c === 0x2b || c === 0x2d || c === 0x2e) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === 0x3a) {
      if (i === 0) throw new GoUrlError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

/** An empty port, or `:` followed by digits only. */
function validOptionalPort(port: Bytes): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  for (let i = 1; i < port.length; i++) if (port[i] < '0' || port[i] > '9') return false;
  return true;
}

function parseHost(host: Bytes): Bytes {
  if (host.startsWith('[')) {
    // An IP-literal (RFC 3986, RFC 6874): "[fe80::1]", "[fe80::1%25en0]", "[fe80::1]:80".
    const i = host.lastIndexOf(']');
    if (i < 0) throw new GoUrlError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new GoUrlError(`invalid port ${quoteBytes(colonPort)} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) {
      return (
        percentDecode(host.slice(0, zone), Mode.Host) +
        percentDecode(host.slice(zone, i), Mode.Zone) +
        percentDecode(host.slice(i), Mode.Host)
      );
    }
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new GoUrlError(`invalid port ${quoteBytes(colonPort)} after host`);
    }
  }
  return percentDecode(host, Mode.Host);
}

const USERINFO_PUNCTUATION = "-._:~!$&'()*+,;=%@";

interface Userinfo {
  readonly username: Bytes;
  readonly password: Bytes;
  readonly passwordSet: boolean;
}

/** A parsed URL, Go's `url.URL` (fields are byte strings). */
export class GoURL {
  scheme: Bytes = '';
  opaque: Bytes = '';
  user: Userinfo | undefined;
  host: Bytes = '';
  path: Bytes = '';
  rawPath: Bytes = '';
  forceQuery = false;
  rawQuery: Bytes = '';
  fragment: Bytes = '';
  rawFragment: Bytes = '';

  /** Go's `EscapedPath`: the raw path when it is a valid escaping of the path. */
  escapedPath(): string {
    return fromBytes(this.escapedPathBytes());
  }

  private escapedPathBytes(): Bytes {
    if (this.rawPath !== '' && validEncoded(this.rawPath, Mode.Path)) {
      try {
        if (percentDecode(this.rawPath, Mode.Path) === this.path) return this.rawPath;
      } catch {
        // Not a valid escaping: compute one.
      }
    }
    if (this.path === '*') return '*';
    return percentEncode(this.path, Mode.Path);
  }

  /** Go's `Hostname`: the host without a valid port and without IPv6 brackets. */
  hostname(): string {
    return fromBytes(splitHostPort(this.host)[0]);
  }

  /** Go's `Port`: the port of the host, if numeric, without the colon. */
  port(): string {
    return fromBytes(splitHostPort(this.host)[1]);
  }

  /** The scheme, lower-cased. */
  getScheme(): string {
    return fromBytes(this.scheme);
  }

  /** The host with its port, IPv6 addresses in brackets, percent-escapes decoded. */
  getHost(): string {
    return fromBytes(this.host);
  }

  /** Go's `Query()`: `ParseQuery` of the raw query, malformed pairs skipped. */
  query(): Map<string, string[]> {
    const values = new Map<string, string[]>();
    for (const pair of this.rawQuery.split('&')) {
      if (pair === '' || pair.includes(';')) continue;
      const eq = pair.indexOf('=');
      let key: Bytes;
      let value: Bytes;
      try {
        key = percentDecode(eq < 0 ? pair : pair.slice(0, eq), Mode.QueryComponent);
        value = percentDecode(eq < 0 ? '' : pair.slice(eq + 1), Mode.QueryComponent);
      } catch {
        continue;
      }
      const k = fromBytes(key);
      const list = values.get(k);
      if (list === undefined) values.set(k, [fromBytes(value)]);
      else list.push(fromBytes(value));
    }
    return values;
  }

  /** Go's `String()`: the URL reassembled (two URLs are equal in CEL when these are). */
  toString(): string {
    let buf = '';
    if (this.scheme !== '') buf += `${this.scheme}:`;
    if (this.opaque !== '') {
      buf += this.opaque;
    } else {
      if (this.scheme !== '' || this.host !== '' || this.user !== undefined) {
        if (this.host !== '' || this.path !== '' || this.user !== undefined) buf += '//';
        if (this.user !== undefined) {
          buf += percentEncode(this.user.username, Mode.UserPassword);
          if (this.user.passwordSet) buf += `:${percentEncode(this.user.password, Mode.UserPassword)}`;
          buf += '@';
        }
        if (this.host !== '') buf += percentEncode(this.host, Mode.Host);
      }
      const path = this.escapedPathBytes();
      if (path !== '' && path[0] !== '/' && this.host !== '') buf += '/';
      // A first segment with a colon would read as a scheme (RFC 3986 §4.2).
      if (buf === '' && path.split('/')[0].includes(':')) buf += './';
      buf += path;
    }
    if (this.forceQuery || this.rawQuery !== '') buf += `?${this.rawQuery}`;
    if (this.fragment !== '') buf += `#${this.escapedFragment()}`;
    return fromBytes(buf);
  }

  private escapedFragment(): Bytes {
    if (this.rawFragment !== '' && validEncoded(this.rawFragment, Mode.Fragment)) {
      try {
        if (percentDecode(this.rawFragment, Mode.Fragment) === this.fragment) return this.rawFragment;
      } catch {
        // Not a valid escaping: compute one.
      }
    }
    return percentEncode(this.fragment, Mode.Fragment);
  }
}

function validEncoded(s: Bytes, mode: Mode): boolean {
  for (let i = 0; i < s.length; i++) {
    if (`!$&'()*+,;=:@[]%`.includes(s[i])) continue;
    if (shouldEscape(s.charCodeAt(i), mode)) return false;
  }
  return true;
}

function splitHostPort(hostPort: Bytes): [host: Bytes, port: Bytes] {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

function parseAuthority(authority: Bytes): [Userinfo | undefined, Bytes] {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return [undefined, host];
  const userinfo = authority.slice(0, at);
  for (const ch of userinfo) {
    if (!isAlnum(ch.charCodeAt(0)) && !USERINFO_PUNCTUATION.includes(ch)) {
      throw new GoUrlError('net/url: invalid userinfo');
    }
  }
  const colon = userinfo.indexOf(':');
  if (colon < 0)
    return [{ username: percentDecode(userinfo, Mode.UserPassword), password: '', passwordSet: false }, host];
  const username = percentDecode(userinfo.slice(0, colon), Mode.UserPassword);
  const password = percentDecode(userinfo.slice(colon + 1), Mode.UserPassword);
  return [{ username, password, passwordSet: true }, host];
}

function parse(raw: Bytes, viaRequest: boolean): GoURL {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) throw new GoUrlError('net/url: invalid control character in URL');
  }
  if (raw === '' && viaRequest) throw new GoUrlError('empty url');
  const url = new GoURL();
  if (raw === '*') {
    url.path = '*';
    return url;
  }
  let [scheme, rest] = splitScheme(raw);
  url.scheme = scheme.toLowerCase();
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    url.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      // A rootless path (RFC 3986) is opaque.
      url.opaque = rest;
      return url;
    }
    if (viaRequest) throw new GoUrlError('invalid URI for request');
    if (rest.split('/')[0].includes(':')) throw new GoUrlError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    [url.user, url.host] = parseAuthority(authority);
  }
  url.path = percentDecode(rest, Mode.Path);
  url.rawPath = percentEncode(url.path, Mode.Path) === rest ? '' : rest;
  return url;
}

/** Go's `url.ParseRequestURI`: an absolute URI or an absolute path, no fragment handling. */
export function parseRequestURI(rawURL: string): GoURL {
  try {
    return parse(toBytes(rawURL), true);
  } catch (err) {
    if (err instanceof GoUrlError) throw new GoUrlError(`parse ${goQuote(rawURL)}: ${err.message}`);
    throw err;
  }
}

/** Go's `url.Parse`: any URI reference, with its `#fragment`. */
export function parseURL(rawURL: string): GoURL {
  const hash = rawURL.indexOf('#');
  const u = hash < 0 ? rawURL : rawURL.slice(0, hash);
  let url: GoURL;
  try {
    url = parse(toBytes(u), false);
  } catch (err) {
    if (err instanceof GoUrlError) throw new GoUrlError(`parse ${goQuote(u)}: ${err.message}`);
    throw err;
  }
  const frag = hash < 0 ? '' : toBytes(rawURL.slice(hash + 1));
  if (frag === '') return url;
  try {
    url.fragment = percentDecode(frag, Mode.Fragment);
  } catch (err) {
    if (err instanceof GoUrlError) throw new GoUrlError(`parse ${goQuote(rawURL)}: ${err.message}`);
    throw err;
  }
  url.rawFragment = percentEncode(url.fragment, Mode.Fragment) === frag ? '' : frag;
  return url;
}
