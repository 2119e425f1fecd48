/**
 * Helpers every API client and controller shares: recognising API failures, a log text for any
 * thrown value, and abortable sleeps. Controllers import them through
 * `controllers/controller-support.ts`.
 */
import { StatusError } from '../apis/meta/status.js';

/** Whether `e` is an API failure (`StatusError`) with HTTP status `code`. */
export function isStatus(e: unknown, code: number): boolean {
  return e instanceof StatusError && e.code === code;
}

/** A short text for logs: the message of an `Error` (the API message of a `StatusError`), else `String(e)`. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Resolves after `ms` (at once when `ms` ≤ 0), or early when `signal` aborts; never rejects. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Resolves after `ms`; rejects with the abort reason (`Error('aborted')` without one) when `signal` aborts first. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new Error('aborted'));
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason ?? new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
