/**
 * Calls `resync` every `periodMs`..2×`periodMs` (a fresh random delay each time, as client-go's
 * jittered resync) until `signal` aborts; resolves then. A period ≤ 0 never resyncs.
 */
export async function periodicResync(periodMs: number, signal: AbortSignal, resync: () => void): Promise<void> {
  if (!(periodMs > 0)) return;
  while (!signal.aborted) {
    const delay = periodMs * (1 + Math.random());
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, delay);
      t.unref?.();
      function done() {
        clearTimeout(t);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
    if (!signal.aborted) resync();
  }
}
