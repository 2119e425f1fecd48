import { goQuote } from '../../util/go-strconv.js';
import type { CelLibrary } from '../cel-library.js';
import { type CelObject, celError, registerFunctions, registerObjectType, UINT64_MAX } from './cel-values.js';

const SEMVER = 'kubernetes.Semver';
const ALPHANUM = /^[0-9A-Za-z-]*$/;
const NUMBERS = /^[0-9]*$/;

/** A pre-release identifier: a number or an alphanumeric string. */
type PreRelease = bigint | string;

/** A version parse failure, with blang/semver's message. */
class SemverError extends Error {}

/** Go's `strconv.ParseUint(s, 10, 64)` on a string of digits. */
function parseUint(s: string): bigint {
  if (s === '') throw new SemverError(`strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v > UINT64_MAX) throw new SemverError(`strconv.ParseUint: parsing ${goQuote(s)}: value out of range`);
  return v;
}

const hasLeadingZeroes = (s: string): boolean => s.length > 1 && s[0] === '0';

function parseNumber(s: string, what: 'major' | 'minor' | 'patch'): bigint {
  if (!NUMBERS.test(s)) throw new SemverError(`Invalid character(s) found in ${what} number ${goQuote(s)}`);
  if (hasLeadingZeroes(s)) {
    const title = what[0].toUpperCase() + what.slice(1);
    throw new SemverError(`${title} number must not contain leading zeroes ${goQuote(s)}`);
  }
  return parseUint(s);
}

function parsePreRelease(s: string): PreRelease {
  if (s === '') throw new SemverError('Prerelease is empty');
  if (NUMBERS.test(s)) {
    if (hasLeadingZeroes(s)) {
      throw new SemverError(`Numeric PreRelease version must not contain leading zeroes ${goQuote(s)}`);
    }
    return parseUint(s);
  }
  if (ALPHANUM.test(s)) return s;
  throw new SemverError(`Invalid character(s) found in prerelease ${goQuote(s)}`);
}

/** Go's `strings.SplitN(s, sep, n)` for n > 0. */
function splitN(s: string, sep: string, n: number): string[] {
  const parts = s.split(sep);
  return parts.length <= n ? parts : [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

const cmp = <T extends bigint | string | number>(a: T, b: T): -1 | 0 | 1 => (a < b ? -1 : a > b ? 1 : 0);

/** A CEL `kubernetes.Semver` (blang/semver v4's `Version`). */
class SemverValue implements CelObject {
  readonly celType = SEMVER;
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly PreRelease[],
  ) {}

  /** blang/semver's `Parse`: strict `MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]`. */
  static parse(s: string): SemverValue {
    if (s === '') throw new SemverError('Version string empty');
    const parts = splitN(s, '.', 3);
    if (parts.length !== 3) throw new SemverError('No Major.Minor.Patch elements found');
    const major = parseNumber(parts[0], 'major');
    const minor = parseNumber(parts[1], 'minor');
    let patchStr = parts[2];
    let build: string[] = [];
    let prerelease: string[] = [];
    const plus = patchStr.indexOf('+');
    if (plus !== -1) {
      build = patchStr.slice(plus + 1).split('.');
      patchStr = patchStr.slice(0, plus);
    }
    const dash = patchStr.indexOf('-');
    if (dash !== -1) {
      prerelease = patchStr.slice(dash + 1).split('.');
      patchStr = patchStr.slice(0, dash);
    }
    const patch = parseNumber(patchStr, 'patch');
    const pre = prerelease.map(parsePreRelease);
    for (const b of build) {
      if (b === '') throw new SemverError('Build meta data is empty');
      if (!ALPHANUM.test(b)) throw new SemverError(`Invalid character(s) found in build meta data ${goQuote(b)}`);
    }
    return new SemverValue(major, minor, patch, pre);
  }

  /** Semantic Versioning precedence; build metadata is ignored. */
  compare(o: SemverValue): -1 | 0 | 1 {
    const c = cmp(this.major, o.major) || cmp(this.minor, o.minor) || cmp(this.patch, o.patch);
    if (c !== 0) return c;
    if (this.pre.length === 0 || o.pre.length === 0) return cmp(o.pre.length, this.pre.length);
    for (let i = 0; i < this.pre.length && i < o.pre.length; i++) {
      const a = this.pre[i];
      const b = o.pre[i];
      // Numeric identifiers sort before alphanumeric ones.
      const d = typeof a === typeof b ? cmp(a, b) : typeof a === 'bigint' ? -1 : 1;
      if (d !== 0) return d;
    }
    return cmp(this.pre.length, o.pre.length);
  }

  equals(other: CelObject): boolean {
    return other instanceof SemverValue && this.compare(other) === 0;
  }
}

function toSemver(s: string): SemverValue {
  try {
    return SemverValue.parse(s);
  } catch (err) {
    if (err instanceof SemverError) throw celError(err.message);
    throw err;
  }
}

function isSemver(s: string): boolean {
  try {
    SemverValue.parse(s);
    return true;
  } catch (err) {
    if (err instanceof SemverError) return false;
    throw err;
  }
}

/** kube reads the uint64 parts as CEL ints (wrapping past 2^63-1). */
const asInt = (v: bigint): bigint => BigInt.asIntN(64, v);

/**
 * kube's `kubernetes.Semver` library (semverlib.go): `semver(<string>)` (blang/semver's strict
 * parser and messages), `isSemver(<string>)`, and on a version `major()`, `minor()`, `patch()`,
 * `compareTo`, `isLessThan`, `isGreaterThan`; `==` ignores build metadata. In kube-apiserver
 * v1.32 it is part of the DRA device-selector environment only; the base environment has it
 * from v1.33.
 */
export const semverLibrary: CelLibrary = {
  name: 'kubernetes.Semver',
  register(env) {
    registerObjectType(env, SEMVER, SemverValue);
    registerFunctions(env, [
      [`semver(string): ${SEMVER}`, toSemver],
      ['isSemver(string): bool', isSemver],
      [`${SEMVER}.isGreaterThan(${SEMVER}): bool`, (a: SemverValue, b: SemverValue) => a.compare(b) === 1],
      [`${SEMVER}.isLessThan(${SEMVER}): bool`, (a: SemverValue, b: SemverValue) => a.compare(b) === -1],
      [`${SEMVER}.compareTo(${SEMVER}): int`, (a: SemverValue, b: SemverValue) => BigInt(a.compare(b))],
      [`${SEMVER}.major(): int`, (v: SemverValue) => asInt(v.major)],
      [`${SEMVER}.minor(): int`, (v: SemverValue) => asInt(v.minor)],
      [`${SEMVER}.patch(): int`, (v: SemverValue) => asInt(v.patch)],
    ]);
  },
};
