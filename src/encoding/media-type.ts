/**
 * The server's one parser of `Content-Type` and `Accept` headers, with the exact leniency of the
 * Go code kube-apiserver runs: `mime.ParseMediaType` for request bodies and
 * `github.com/munnerz/goautoneg` for `Accept`. Every handler that reads these headers goes
 * through here. Pure and synchronous.
 */
import { MediaTypeParseError } from './errors.js';

/** A parsed `Content-Type`: lower-cased `type/subtype` and lower-cased parameter names. */
export interface ParsedMediaType {
  readonly mediaType: string;
  readonly params: Readonly<Record<string, string>>;
}

const TSPECIALS = '()<>@,;:\\"/[]?=';

function isTokenChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return c > 0x20 && c < 0x7f && !TSPECIALS.includes(ch);
}

function consumeToken(v: string): [token: string, rest: string] {
  let i = 0;
  while (i < v.length && isTokenChar(v[i])) i++;
  return [v.slice(0, i), v.slice(i)];
}

/** A token, or a quoted string (unterminated or holding CR/LF: nothing consumed). */
function consumeValue(v: string): [value: string, rest: string] {
  if (v === '') return ['', ''];
  if (v[0] !== '"') return consumeToken(v);
  let out = '';
  for (let i = 1; i < v.length; i++) {
    const ch = v[i];
    if (ch === '"') return [out, v.slice(i + 1)];
    // Like Go: a backslash escapes only a tspecial; otherwise it is kept (MSIE file paths).
    if (ch === '\\' && i + 1 < v.length && TSPECIALS.includes(v[i + 1])) {
      out += v[++i];
      continue;
    }
    if (ch === '\r' || ch === '\n') return ['', v];
    out += ch;
  }
  return ['', v];
}

function consumeParam(v: string): [key: string, value: string, rest: string] {
  let rest = v.trimStart();
  if (!rest.startsWith(';')) return ['', '', v];
  rest = rest.slice(1).trimStart();
  const [rawKey, afterKey] = consumeToken(rest);
  const key = rawKey.toLowerCase();
  if (key === '') return ['', '', v];
  rest = afterKey.trimStart();
  if (!rest.startsWith('=')) return ['', '', v];
  rest = rest.slice(1).trimStart();
  const [value, afterValue] = consumeValue(rest);
  if (value === '' && afterValue === rest) return ['', '', v];
  return [key, value, afterValue];
}

function checkMediaType(s: string): void {
  const [type, rest] = consumeToken(s);
  if (type === '') throw new MediaTypeParseError('mime: no media type');
  if (rest === '') return;
  if (!rest.startsWith('/')) throw new MediaTypeParseError('mime: expected slash after first token');
  const [subtype, tail] = consumeToken(rest.slice(1));
  if (subtype === '') throw new MediaTypeParseError('mime: expected token after slash');
  if (tail !== '') throw new MediaTypeParseError('mime: unexpected content after media subtype');
}

/**
 * The `type/subtype` of a `Content-Type`, trimmed and lower-cased, parameters dropped, without
 * validating it (for callers that only dispatch on a few known types).
 */
export function mediaTypeEssence(header: string): string {
  const semi = header.indexOf(';');
  return (semi < 0 ? header : header.slice(0, semi)).trim().toLowerCase();
}

/**
 * Go's `mime.ParseMediaType`: `type/subtype` lower-cased and trimmed (a bare `type` is allowed),
 * parameters with lower-cased names; a trailing `;` is ignored. Throws `MediaTypeParseError`
 * with Go's message (`mime: invalid media parameter`, `mime: duplicate parameter name`, ...).
 */
export function parseContentType(header: string): ParsedMediaType {
  const semi = header.indexOf(';');
  const base = semi < 0 ? header : header.slice(0, semi);
  const mediaType = base.toLowerCase().trim();
  checkMediaType(mediaType);
  const params: Record<string, string> = {};
  let v = header.slice(base.length);
  while (v.length > 0) {
    v = v.trimStart();
    if (v.length === 0) break;
    const [key, value, rest] = consumeParam(v);
    if (key === '') {
      if (rest.trim() === ';') break;
      throw new MediaTypeParseError('mime: invalid media parameter');
    }
    if (Object.hasOwn(params, key)) throw new MediaTypeParseError('mime: duplicate parameter name');
    params[key] = value;
    v = rest;
  }
  return { mediaType, params };
}

/** One media range of an `Accept` header, as goautoneg parses it. */
export interface AcceptClause {
  /** Case kept as sent (goautoneg does not lower-case). */
  readonly type: string;
  readonly subType: string;
  /** The `q` parameter (float32), 1 when absent, 0 when unparsable. */
  readonly q: number;
  /** Parameters other than `q`; names and values trimmed of spaces, quotes kept. */
  readonly params: Readonly<Record<string, string>>;
}

const DECIMAL_FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Go's `strconv.ParseFloat(s, 32)` value, errors giving 0 (what goautoneg keeps). */
function parseQ(s: string): number {
  if (DECIMAL_FLOAT.test(s)) return Math.fround(Number(s));
  const lower = s.toLowerCase().replace(/^[+]/, '');
  if (lower === 'inf' || lower === 'infinity') return Number.POSITIVE_INFINITY;
  if (lower === '-inf' || lower === '-infinity') return Number.NEGATIVE_INFINITY;
  if (lower === 'nan' || lower === '-nan') return Number.NaN;
  return 0;
}

const trimSpaces = (s: string): string => s.replace(/^ +| +$/g, '');

/** Go's `nextSplitElement`: the text before the first `sep` and the text after it. */
function splitOnce(s: string, sep: string): [head: string, rest: string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ''] : [s.slice(0, i), s.slice(i + 1)];
}

function parseClause(part: string): AcceptClause | undefined {
  const [range, paramText] = splitOnce(part, ';');
  const [rawType, afterSlash] = splitOnce(range, '/');
  const type = trimSpaces(rawType);
  let subType: string;
  if (afterSlash === '') {
    if (type !== '*') return undefined;
    subType = '*';
  } else {
    const [sub, extra] = splitOnce(afterSlash, '/');
    if (extra !== '') return undefined;
    subType = trimSpaces(sub);
  }
  let q = 1;
  const params: Record<string, string> = {};
  let remaining = paramText;
  while (remaining.length > 0) {
    let param: string;
    [param, remaining] = splitOnce(remaining, ';');
    const [name, afterEq] = splitOnce(param, '=');
    if (afterEq === '') continue;
    const [value, extra] = splitOnce(afterEq, '=');
    if (extra !== '') continue;
    const token = trimSpaces(name);
    // goautoneg parses q from the untrimmed value: `q= 0.5` reads as 0.
    if (token === 'q') q = parseQ(value);
    else params[token] = trimSpaces(value);
  }
  return { type, subType, q, params };
}

/** goautoneg's ordering; not a strict weak order, so the sort below must be the same one. */
function less(a: AcceptClause, b: AcceptClause): boolean {
  if (a.q > b.q) return true;
  if (a.type !== '*' && b.type === '*') return true;
  if (a.subType !== '*' && b.subType === '*') return true;
  return false;
}

/**
 * goautoneg's `ParseAccept`: clauses split on `,`, spaces (only) trimmed, unparsable ranges
 * dropped, then ordered by q and specificity with Go's insertion sort (what `sort.Sort` runs on
 * the short slices Accept headers produce), which keeps header order among equals.
 */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const raw of header.split(',')) {
    const part = trimSpaces(raw);
    if (part === '') continue;
    const clause = parseClause(part);
    if (clause) clauses.push(clause);
  }
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j], clauses[j - 1]); j--) {
      const t = clauses[j];
      clauses[j] = clauses[j - 1];
      clauses[j - 1] = t;
    }
  }
  return clauses;
}

/**
 * Whether an Accept clause admits `type/subType`, as apimachinery's negotiation matches them:
 * the full wildcard, `type/` with a wildcard subtype, or the exact type (compared as sent:
 * goautoneg keeps case).
 */
export function acceptClauseMatches(clause: AcceptClause, type: string, subType: string): boolean {
  if (clause.type === '*' && clause.subType === '*') return true;
  return clause.type === type && (clause.subType === subType || clause.subType === '*');
}

/**
 * The media type to answer in, among `offered` (`type/subtype`, in the server's order of
 * preference): Accept clauses in goautoneg order, the first offered type a clause admits wins.
 * An absent or empty header accepts anything (the first offered type); undefined when no clause
 * admits any offered type.
 */
export function preferredMediaType(accept: string | undefined, offered: readonly string[]): string | undefined {
  if (!accept) return offered[0];
  const split = offered.map((m) => {
    const slash = m.indexOf('/');
    return { mediaType: m, type: m.slice(0, slash), subType: m.slice(slash + 1) };
  });
  for (const clause of parseAccept(accept)) {
    const hit = split.find((o) => acceptClauseMatches(clause, o.type, o.subType));
    if (hit) return hit.mediaType;
  }
  return undefined;
}
