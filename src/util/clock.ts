/** Time source, injected so tests and controllers can control it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** RFC 3339 with second precision, as `metav1.Time` serializes (`2006-01-02T15:04:05Z`). */
export function formatTime(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

/** RFC 3339 with microsecond precision, as `metav1.MicroTime` serializes. */
export function formatMicroTime(d: Date): string {
  return `${d.toISOString().slice(0, 23)}000Z`;
}
