import assert from 'node:assert/strict';

/** Small, pure helpers shared by the storage conformance suites. */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function bytes(s: string): Uint8Array {
  return encoder.encode(s);
}

export function text(value: Uint8Array): string {
  return decoder.decode(value);
}

/** Thrown when a promise under test does not settle in time. */
export class TimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not settle within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/** Resolves or rejects like `promise`, or rejects with TimeoutError after `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Awaits `promise` (bounded by `timeoutMs`), asserts that it rejected with an instance of `type`,
 * and returns the error for further assertions.
 */
export async function expectError<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
  what: string,
  timeoutMs = 10_000,
): Promise<E> {
  let outcome: unknown;
  try {
    outcome = await withTimeout(promise, timeoutMs, what);
  } catch (err) {
    if (err instanceof type) return err;
    assert.fail(`${what}: expected ${type.name}, got ${describeError(err)}`);
  }
  assert.fail(`${what}: expected ${type.name}, but it resolved with ${describeValue(outcome)}`);
}

/** Retries `fn` until it resolves or `timeoutMs` passes; rethrows the last failure. */
export async function eventually<T>(
  fn: () => Promise<T>,
  opts: { timeoutMs: number; intervalMs?: number; what: string },
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  let last: unknown;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    try {
      return await withTimeout(fn(), left, opts.what);
    } catch (err) {
      last = err;
    }
    await sleep(opts.intervalMs ?? 100);
  }
  throw new Error(`${opts.what}: still failing after ${opts.timeoutMs} ms: ${describeError(last)}`, { cause: last });
}

export function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

function describeValue(value: unknown): string {
  try {
    return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))?.slice(0, 300) ?? String(value);
  } catch {
    return String(value);
  }
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** A deterministic pseudo-random generator in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `size` deterministic pseudo-random bytes. */
export function patternBytes(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  const random = seededRandom(seed);
  for (let i = 0; i < size; i += 4) {
    const word = Math.floor(random() * 4294967296);
    out[i] = word & 0xff;
    if (i + 1 < size) out[i + 1] = (word >>> 8) & 0xff;
    if (i + 2 < size) out[i + 2] = (word >>> 16) & 0xff;
    if (i + 3 < size) out[i + 3] = (word >>> 24) & 0xff;
  }
  return out;
}
