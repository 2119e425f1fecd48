import { isBrokenCircuitError } from 'cockatiel';
import { ClientClosedError, EtcdWatchStreamEnded, isRecoverableError } from 'etcd3';

/** etcd's ErrCompacted: the requested revision is below etcd's compacted revision. */
export function isEtcdCompacted(e: unknown): boolean {
  return messageOf(e).includes('required revision has been compacted');
}

/** etcd's ErrFutureRev: the requested revision is above etcd's current revision. */
export function isEtcdFutureRevision(e: unknown): boolean {
  return messageOf(e).includes('required revision is a future revision');
}

/**
 * Whether the failure is about reaching etcd (connection, deadline, leader loss, overload,
 * open circuit breaker, closed client) rather than about the request itself.
 */
export function isTransient(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (isBrokenCircuitError(e) || e instanceof ClientClosedError || e instanceof EtcdWatchStreamEnded) return true;
  if (isRecoverableError(e)) return true;
  return TRANSIENT_MESSAGES.some((m) => e.message.includes(m));
}

const TRANSIENT_MESSAGES = [
  'etcdserver: no leader',
  'etcdserver: leader changed',
  'etcdserver: request timed out',
  'etcdserver: too many requests',
  'etcdserver: server stopped',
  'No connection established',
];

/**
 * Whether a failed call certainly never reached etcd, so that even a non-idempotent write may be
 * retried. Anything else (a deadline, a dropped connection, "request timed out") may have been
 * applied, and retrying a create or a guarded update could then fail against our own write.
 */
export function wasNotSent(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (isBrokenCircuitError(e)) return true;
  // grpc-js fails calls fast with this when the channel has no connection; etcd returns
  // "no leader" before proposing anything.
  return e.message.includes('No connection established') || e.message.includes('etcdserver: no leader');
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
