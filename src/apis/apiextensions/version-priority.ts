/**
 * kube's version ordering (`version.CompareKubeAwareVersionStrings`): versions of the form
 * `v<major>[alpha|beta<minor>]` rank GA above beta above alpha, then by major, then by minor;
 * they rank above any other string, and other strings rank in reverse lexical order.
 */
const KUBE_VERSION = /^v([1-9]\d*)(?:(alpha|beta)([1-9]\d*))?$/;

function parse(v: string): { major: number; type: number; minor: number } | undefined {
  const m = KUBE_VERSION.exec(v);
  if (!m) return undefined;
  return { major: Number(m[1]), type: m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2, minor: Number(m[3] ?? 0) };
}

/** Positive when `a` has the higher priority, negative when `b` has, 0 when equal. */
export function compareKubeAwareVersions(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parse(a);
  const pb = parse(b);
  if (!pa && !pb) return a < b ? 1 : -1;
  if (!pa) return -1;
  if (!pb) return 1;
  if (pa.type !== pb.type) return pa.type - pb.type;
  if (pa.major !== pb.major) return pa.major - pb.major;
  return pa.minor - pb.minor;
}

/** `versions` from the highest priority to the lowest (a new array). */
export function byKubeVersionPriority(versions: readonly string[]): string[] {
  return [...versions].sort((a, b) => compareKubeAwareVersions(b, a));
}
