/**
 * The CronJob scheduling arithmetic of kube-controller-manager v1.32 (`mostRecentScheduleTime`,
 * `nextScheduleTime`, `nextScheduleTimeDuration`), pure over a {@link CronTimes}.
 */
import type { CronTimes } from './cron-times.js';

/** kube's nextScheduleDelta: requeue this long after the next firing. */
export const NEXT_SCHEDULE_DELTA_MS = 100;

export type Missed = 'none' | 'few' | 'many';

export interface ScheduleInput {
  readonly creationMs: number;
  readonly lastScheduleMs?: number;
  readonly startingDeadlineSeconds?: number;
}

export interface MostRecent {
  readonly earliestMs: number;
  readonly mostRecentMs?: number;
  readonly missed: Missed;
  readonly error?: string;
}

/**
 * The latest firing not after `nowMs` since the last schedule (or creation; with the starting
 * deadline, not before `now - deadline`), and how many firings were missed: more than 100 is
 * `many`. Firings are counted as kube approximates them (by the gap between the next two).
 */
export function mostRecentScheduleTime(
  cj: ScheduleInput,
  nowMs: number,
  times: CronTimes,
  includeStartingDeadline: boolean,
): MostRecent {
  let earliestMs = cj.lastScheduleMs ?? cj.creationMs;
  if (includeStartingDeadline && cj.startingDeadlineSeconds !== undefined) {
    const deadline = nowMs - cj.startingDeadlineSeconds * 1000;
    if (deadline > earliestMs) earliestMs = deadline;
  }
  const t1 = times.next(new Date(earliestMs))?.getTime();
  if (t1 === undefined || nowMs < t1) return { earliestMs, missed: 'none' };
  const t2 = times.next(new Date(t1))?.getTime();
  if (t2 === undefined || nowMs < t2) return { earliestMs, mostRecentMs: t1, missed: 'few' };
  const between = Math.round((t2 - t1) / 1000);
  if (between < 1)
    return { earliestMs, missed: 'many', error: 'time difference between two schedules is less than 1 second' };
  const elapsed = Math.floor((nowMs - t1) / 1000);
  const count = Math.floor(elapsed / between) + 1;
  let mostRecentMs = (Math.floor(t1 / 1000) + (count - 1) * between) * 1000;
  // The approximation can be off (DST, months of different length): walk to the true latest firing.
  if (mostRecentMs > nowMs) mostRecentMs = t1;
  for (let t = times.next(new Date(mostRecentMs)); t && t.getTime() <= nowMs; t = times.next(t)) {
    mostRecentMs = t.getTime();
  }
  return { earliestMs, mostRecentMs, missed: count > 100 ? 'many' : 'few' };
}

/** How long until the next firing after now, plus kube's 100 ms delta. */
export function nextScheduleDelayMs(cj: ScheduleInput, nowMs: number, times: CronTimes): number | undefined {
  const r = mostRecentScheduleTime(cj, nowMs, times, false);
  let from: number;
  if (r.error) from = nowMs;
  else if (r.mostRecentMs === undefined) from = r.missed === 'none' ? r.earliestMs : nowMs;
  else from = r.mostRecentMs;
  const next = times.next(new Date(from));
  return next === undefined ? undefined : next.getTime() + NEXT_SCHEDULE_DELTA_MS - nowMs;
}
