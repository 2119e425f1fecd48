import { getMaxListeners, setMaxListeners } from 'node:events';

/**
 * Lets `count` listeners share `signal` at once, by design, without Node's leak warning: raises
 * its limit to `count` when lower, never lowers it, and leaves an unlimited one (0) unlimited.
 */
export function expectListeners(signal: AbortSignal, count: number): void {
  const limit = limitOf(signal);
  if (limit !== 0 && limit < count) setMaxListeners(count, signal);
}

/** The signal's listener limit; 0 when unlimited. */
function limitOf(signal: AbortSignal): number {
  try {
    return getMaxListeners(signal);
  } catch {
    // Node 20 throws for an EventTarget whose limit was set to 0 (it tests the limit for truth).
    return 0;
  }
}
