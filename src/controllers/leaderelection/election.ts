import type { Lease } from '../../apis/coordination/lease.js';
import type { LeaseCandidate } from '../../apis/coordination/lease-candidate.js';
import { compareSemVer, parseSemVerTolerant, type SemVer, ZERO_SEMVER } from '../../util/semver.js';
import { timeMs } from '../controller-support.js';

/** How long a candidate counts without renewing (kube's `leaseCandidateValidDuration`). */
export const LEASE_CANDIDATE_VALID_MS = 30 * 60_000;

function version(s: string | undefined): SemVer {
  return parseSemVerTolerant(s ?? '') ?? ZERO_SEMVER;
}

/**
 * kube v1.32's strategy choice: the strategy of the candidate with the highest binary version
 * (unparsable versions count as 0.0.0). Candidates at that version that disagree are a user
 * error: no strategy, and the Lease is not operated until it is resolved.
 */
export function pickBestStrategy(candidates: readonly LeaseCandidate[]): { strategy: string } | { error: string } {
  if (candidates.length === 0) return { error: 'no candidates' };
  let best = candidates[0];
  let bestVersion = version(best.spec?.binaryVersion);
  for (const c of candidates.slice(1)) {
    const v = version(c.spec?.binaryVersion);
    const order = compareSemVer(bestVersion, v);
    if (order < 0) {
      best = c;
      bestVersion = v;
    } else if (order === 0 && (c.spec?.strategy ?? '') !== (best.spec?.strategy ?? '')) {
      return {
        error: `candidates ${best.metadata.name}, ${c.metadata.name} at version ${formatVersion(v)} have different strategies ${best.spec?.strategy ?? ''}, ${c.spec?.strategy ?? ''}`,
      };
    }
  }
  return { strategy: best.spec?.strategy ?? '' };
}

function formatVersion(v: SemVer): string {
  return `${v.major}.${v.minor}.${v.patch}`;
}

/** -1 when `a` is the better leader, 1 when `b` is (kube's `compare`). */
function compareCandidates(a: LeaseCandidate, b: LeaseCandidate): number {
  const byEmulation = compareSemVer(version(a.spec?.emulationVersion), version(b.spec?.emulationVersion));
  if (byEmulation !== 0) return byEmulation;
  const byBinary = compareSemVer(version(a.spec?.binaryVersion), version(b.spec?.binaryVersion));
  if (byBinary !== 0) return byBinary;
  // The older candidate wins; a tie keeps the one found first.
  return Date.parse(a.metadata.creationTimestamp ?? '') > Date.parse(b.metadata.creationTimestamp ?? '') ? 1 : -1;
}

/**
 * `OldestEmulationVersion`: among candidates whose versions parse, the lowest emulation version,
 * then the lowest binary version, then the oldest candidate.
 */
export function pickBestLeaderOldestEmulationVersion(
  candidates: readonly LeaseCandidate[],
): LeaseCandidate | undefined {
  let electee: LeaseCandidate | undefined;
  for (const c of candidates) {
    if (!parseSemVerTolerant(c.spec?.emulationVersion ?? '') || !parseSemVerTolerant(c.spec?.binaryVersion ?? ''))
      continue;
    if (!electee || compareCandidates(electee, c) > 0) electee = c;
  }
  return electee;
}

/** A Lease without renewTime or duration, or whose renewTime + duration is past. */
export function isLeaseExpired(lease: Lease, nowMs: number): boolean {
  const renew = timeMs(lease.spec?.renewTime);
  const duration = lease.spec?.leaseDurationSeconds;
  return renew === undefined || duration === undefined || renew + duration * 1000 < nowMs;
}

/** A candidate that has not renewed for {@link LEASE_CANDIDATE_VALID_MS}. */
export function isLeaseCandidateExpired(c: LeaseCandidate, nowMs: number): boolean {
  const renew = timeMs(c.spec?.renewTime);
  return renew === undefined || renew + LEASE_CANDIDATE_VALID_MS < nowMs;
}
