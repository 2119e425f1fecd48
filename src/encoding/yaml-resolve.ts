/**
 * go-yaml v2's implicit typing of plain scalars (YAML 1.1 flavoured), which kube-apiserver
 * applies both when reading YAML bodies (`sigs.k8s.io/yaml`) and when deciding whether a string
 * must be quoted in YAML output: `yes`/`on` are booleans, `0x1F`/`0o17`/`017` integers,
 * `2024-01-02` a timestamp, `1_000` the integer 1000, `~` null. Pure.
 */

export type ResolvedScalar =
  | { readonly tag: 'null'; readonly value: null }
  | { readonly tag: 'bool'; readonly value: boolean }
  /** A `bigint` beyond 2^53 (go-yaml holds it exactly, as an int64 or uint64). */
  | { readonly tag: 'int'; readonly value: number | bigint }
  | { readonly tag: 'float'; readonly value: number }
  /** A timestamp-looking string; go-yaml still decodes it to the string itself. */
  | { readonly tag: 'timestamp'; readonly value: string }
  | { readonly tag: 'str'; readonly value: string };

const MAP: ReadonlyMap<string, ResolvedScalar> = (() => {
  const m = new Map<string, ResolvedScalar>();
  const add = (r: ResolvedScalar, names: string[]) => {
    for (const n of names) m.set(n, r);
  };
  add({ tag: 'bool', value: true }, ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
  add({ tag: 'bool', value: false }, ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
  add({ tag: 'null', value: null }, ['', '~', 'null', 'Null', 'NULL']);
  add({ tag: 'float', value: Number.NaN }, ['.nan', '.NaN', '.NAN']);
  add({ tag: 'float', value: Number.POSITIVE_INFINITY }, ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']);
  add({ tag: 'float', value: Number.NEGATIVE_INFINITY }, ['-.inf', '-.Inf', '-.INF']);
  return m;
})();

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const GO_FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** Go's `strconv.ParseUint(s, 0, 64)` without underscores: base prefixes 0b/0o/0x/0. */
function parseGoUint(s: string): bigint | undefined {
  if (s === '') return undefined;
  let base = 10;
  let digits = s;
  if (s[0] === '0') {
    const p = s.length >= 3 ? s[1].toLowerCase() : '';
    if (p === 'b' || p === 'o' || p === 'x') {
      base = p === 'b' ? 2 : p === 'o' ? 8 : 16;
      digits = s.slice(2);
    } else {
      base = 8;
      digits = s.slice(1);
    }
  }
  const valid = base === 2 ? /^[01]*$/ : base === 8 ? /^[0-7]*$/ : base === 10 ? /^[0-9]+$/ : /^[0-9a-fA-F]+$/;
  if (!valid.test(digits)) return undefined;
  if (digits === '') return 0n;
  const prefix = base === 2 ? '0b' : base === 8 ? '0o' : base === 16 ? '0x' : '';
  const v = BigInt(prefix + digits);
  return v > UINT64_MAX ? undefined : v;
}

/** Go's `strconv.ParseInt(s, 0, 64)` (sign allowed, int64 range). */
function parseGoInt(s: string): bigint | undefined {
  const neg = s.startsWith('-');
  const body = s.startsWith('+') || neg ? s.slice(1) : s;
  const u = parseGoUint(body);
  if (u === undefined) return undefined;
  const v = neg ? -u : u;
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

/**
 * Go's `strconv.ParseFloat(s, 64)` for decimal input: underscores allowed between digits, a
 * range error (overflow) fails.
 */
function parseGoFloat(s: string): number | undefined {
  let text = s;
  if (s.includes('_')) {
    for (let i = 0; i < s.length; i++) {
      if (s[i] === '_' && !(/[0-9]/.test(s[i - 1] ?? '') && /[0-9]/.test(s[i + 1] ?? ''))) return undefined;
    }
    text = s.replaceAll('_', '');
  }
  if (!GO_FLOAT.test(text)) return undefined;
  const v = Number(text);
  return Number.isFinite(v) ? v : undefined;
}

const DATE_TIME = /^(\d{4})-(\d\d?)-(\d\d?)[Tt](\d\d?):(\d\d?):(\d\d?)([.,]\d+)?(Z|[+-](\d\d):(\d\d))$/;
const DATE_SPACE_TIME = /^(\d{4})-(\d\d?)-(\d\d?) (\d\d?):(\d\d?):(\d\d?)([.,]\d+)?$/;
const DATE_ONLY = /^(\d{4})-(\d\d?)-(\d\d?)$/;

function daysIn(month: number, year: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** go-yaml's `parseTimestamp`: Go `time.Parse` with its four accepted layouts. */
export function isGoYamlTimestamp(s: string): boolean {
  if (!/^\d{4}-/.test(s)) return false;
  const m = DATE_TIME.exec(s) ?? DATE_SPACE_TIME.exec(s) ?? DATE_ONLY.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year)) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59)) return false;
  if (m[9] !== undefined && (Number(m[9]) > 24 || Number(m[10]) > 60)) return false;
  return true;
}

/** go-yaml's `isBase60Float`: such strings are quoted on output though never parsed as floats. */
export function isBase60Float(s: string): boolean {
  return s.length > 0 && /^[-+0-9]/.test(s) && s.includes(':') && BASE60_FLOAT.test(s);
}

/** go-yaml v2's `resolve("", s)`: the type a plain (unquoted, untagged) scalar takes. */
export function resolvePlainScalar(s: string): ResolvedScalar {
  const c = s.charCodeAt(0);
  const hint =
    s === ''
      ? 'N'
      : c === 0x2b || c === 0x2d
        ? 'S'
        : c >= 0x30 && c <= 0x39
          ? 'D'
          : c === 0x2e
            ? '.'
            : 'yYnNtTfFoO~'.includes(s[0])
              ? 'M'
              : '';
  // Like go-yaml, only a scalar whose first character hints at another type is looked up.
  if (hint === '') return { tag: 'str', value: s };
  const known = MAP.get(s);
  if (known) return known;
  if (hint === '.') {
    const f = parseGoFloat(s);
    if (f !== undefined) return { tag: 'float', value: f };
  } else if (hint === 'D' || hint === 'S') {
    if (isGoYamlTimestamp(s)) return { tag: 'timestamp', value: s };
    const plain = s.replaceAll('_', '');
    const i = parseGoInt(plain);
    if (i !== undefined) return { tag: 'int', value: exactInteger(i) };
    const u = parseGoUint(plain);
    if (u !== undefined) return { tag: 'int', value: exactInteger(u) };
    if (YAML_STYLE_FLOAT.test(plain)) {
      const f = parseGoFloat(plain);
      if (f !== undefined) return { tag: 'float', value: f };
    }
  }
  return { tag: 'str', value: s };
}

/** A number when it holds `v` exactly, else `v` itself. */
function exactInteger(v: bigint): number | bigint {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}

/** True when `s` is go-yaml's merge key `<<` (only as a plain, untagged key). */
export function isMergeKey(s: string): boolean {
  return s === '<<';
}
