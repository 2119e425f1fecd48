/**
 * Semantic versions as `github.com/blang/semver/v4` reads and orders them (kube validates and
 * compares LeaseCandidate versions with it): `MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]`.
 */
export interface SemVer {
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  /** Dot-separated pre-release identifiers: numbers for numeric ones, strings otherwise. */
  readonly pre: readonly (bigint | string)[];
  readonly build: readonly string[];
}

/** The zero version `0.0.0` (what kube compares an unparsable version as). */
export const ZERO_SEMVER: SemVer = Object.freeze({ major: 0n, minor: 0n, patch: 0n, pre: [], build: [] });

const ALNUM = /^[0-9A-Za-z-]+$/;
const DIGITS = /^[0-9]+$/;
const UINT64_MAX = 2n ** 64n - 1n;

function numeric(part: string): bigint | undefined {
  if (!DIGITS.test(part)) return undefined;
  if (part.length > 1 && part.startsWith('0')) return undefined;
  const n = BigInt(part);
  return n > UINT64_MAX ? undefined : n;
}

/** blang's `Parse`: strict, no leading `v`, no leading zeros, all three numbers present. */
export function parseSemVer(s: string): SemVer | undefined {
  if (s === '') return undefined;
  const parts = s.split('.');
  if (parts.length < 3) return undefined;
  const major = numeric(parts[0]);
  const minor = numeric(parts[1]);
  if (major === undefined || minor === undefined) return undefined;
  // The patch number runs until the first `-` or `+`; the rest (dots included) is metadata.
  const rest = parts.slice(2).join('.');
  const cut = rest.search(/[-+]/);
  const patch = numeric(cut < 0 ? rest : rest.slice(0, cut));
  if (patch === undefined) return undefined;
  let tail = cut < 0 ? '' : rest.slice(cut);
  let build: string[] = [];
  const plus = tail.indexOf('+');
  if (plus >= 0) {
    build = tail.slice(plus + 1).split('.');
    tail = tail.slice(0, plus);
    if (build.some((b) => !ALNUM.test(b))) return undefined;
  }
  const pre: (bigint | string)[] = [];
  if (tail.startsWith('-')) {
    for (const id of tail.slice(1).split('.')) {
      if (!ALNUM.test(id)) return undefined;
      if (DIGITS.test(id)) {
        const n = numeric(id);
        if (n === undefined) return undefined;
        pre.push(n);
      } else pre.push(id);
    }
  } else if (tail !== '') return undefined;
  return { major, minor, patch, pre, build };
}

/**
 * blang's `ParseTolerant`: surrounding spaces and a leading `v` are dropped, leading zeros
 * removed, and a missing minor or patch number reads as 0 (`v1.32` → `1.32.0`).
 */
export function parseSemVerTolerant(s: string): SemVer | undefined {
  let t = s.trim();
  if (t.startsWith('v')) t = t.slice(1);
  const parts = t.split('.');
  const head = parts.length > 3 ? [...parts.slice(0, 2), parts.slice(2).join('.')] : parts;
  const trimmed = head.map((p) => {
    if (p.length <= 1) return p;
    const q = p.replace(/^0+/, '');
    return q === '' || !/^[0-9]/.test(q) ? `0${q}` : q;
  });
  if (trimmed.length < 3) {
    if (/[-+]/.test(trimmed[trimmed.length - 1])) return undefined;
    while (trimmed.length < 3) trimmed.push('0');
  }
  return parseSemVer(trimmed.join('.'));
}

function cmp(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Precedence order (build metadata ignored): -1, 0 or 1. */
export function compareSemVer(a: SemVer, b: SemVer): number {
  const byNumbers = cmp(a.major, b.major) || cmp(a.minor, b.minor) || cmp(a.patch, b.patch);
  if (byNumbers !== 0) return byNumbers;
  // A release outranks its pre-releases.
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i];
    const y = b.pre[i];
    if (typeof x === 'bigint' && typeof y === 'bigint') {
      if (x !== y) return cmp(x, y);
    } else if (typeof x === 'bigint') return -1;
    else if (typeof y === 'bigint') return 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return cmp(BigInt(a.pre.length), BigInt(b.pre.length));
}

/** `MAJOR.MINOR.PATCH[-PRE][+BUILD]`. */
export function formatSemVer(v: SemVer): string {
  const pre = v.pre.length > 0 ? `-${v.pre.join('.')}` : '';
  const build = v.build.length > 0 ? `+${v.build.join('.')}` : '';
  return `${v.major}.${v.minor}.${v.patch}${pre}${build}`;
}
