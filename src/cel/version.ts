/**
 * The major.minor versions CEL environments are versioned by, as kube-apiserver versions them:
 * every language feature and library carries the version that introduced it (and, when replaced,
 * the version that removed it), and an environment set is built for one compatibility version.
 */

/** A Kubernetes `major.minor` version. */
export interface CelVersion {
  readonly major: number;
  readonly minor: number;
}

/** `major.minor` as a version. */
export function celVersion(major: number, minor: number): CelVersion {
  if (!Number.isSafeInteger(major) || !Number.isSafeInteger(minor) || major < 0 || minor < 0) {
    throw new RangeError(`invalid CEL compatibility version ${major}.${minor}`);
  }
  return { major, minor };
}

/** Parses `1.31` (or `v1.31`); throws a `RangeError` on anything else. */
export function parseCelVersion(text: string): CelVersion {
  const m = /^v?(\d+)\.(\d+)$/.exec(text);
  if (!m) throw new RangeError(`invalid CEL compatibility version ${JSON.stringify(text)}: want major.minor`);
  return celVersion(Number(m[1]), Number(m[2]));
}

/** Negative, zero or positive as `a` is older than, equal to or newer than `b`. */
export function compareCelVersions(a: CelVersion, b: CelVersion): number {
  return a.major !== b.major ? a.major - b.major : a.minor - b.minor;
}

/** `1.31`. */
export function formatCelVersion(v: CelVersion): string {
  return `${v.major}.${v.minor}`;
}

/**
 * The compatibility version of new expressions by default: kube-apiserver v1.32 validates new
 * expressions against the previous minor release (n-1) so that a rollback can still run them.
 */
export const DEFAULT_COMPATIBILITY_VERSION: CelVersion = celVersion(1, 31);
