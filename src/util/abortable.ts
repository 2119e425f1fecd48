/**
 * Something whose `signal` aborts when its work should stop (the client went away, the request
 * timed out). Implementations create the signal on first read: pass this instead of the signal
 * itself so a caller that never waits (an authorizer deciding from memory) costs nothing.
 */
export interface Abortable {
  readonly signal: AbortSignal;
}
