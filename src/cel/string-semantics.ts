import { EvaluationError } from '@marcbachmann/cel-js';
import type { EnginePatch } from './engine-patches.js';

/**
 * cel-go's string extension (`ext.Strings`, version 2) where the engine's built-ins differ:
 * positions count code points (the engine counts UTF-16 units), offsets out of range fail with
 * cel-go's `index out of range: <n>` (and `invalid substring range. start: <s>, end: <e>`),
 * `lowerAscii`/`upperAscii` change ASCII letters only, and `trim` removes what Go's
 * `strings.TrimSpace` removes (Unicode white space, U+0085 included, U+FEFF not).
 */

function outOfRange(n: bigint | number): EvaluationError {
  return new EvaluationError(`index out of range: ${n}`);
}

/** Whether `needle` occurs in `chars` at `at`. */
function occursAt(chars: readonly string[], needle: readonly string[], at: number): boolean {
  for (let j = 0; j < needle.length; j++) if (chars[at + j] !== needle[j]) return false;
  return true;
}

/** `s.indexOf(sub, offset)`: the first code-point position at or after `offset`, or -1. */
export function indexOfFrom(s: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  const chars = [...s];
  if (offset < 0n || offset >= BigInt(chars.length)) throw outOfRange(offset);
  const needle = [...sub];
  for (let i = Number(offset); i <= chars.length - needle.length; i++) if (occursAt(chars, needle, i)) return BigInt(i);
  return -1n;
}

/** `s.lastIndexOf(sub, offset)`: the last code-point position at or before `offset`, or -1. */
export function lastIndexOfFrom(s: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  const chars = [...s];
  if (offset < 0n || offset >= BigInt(chars.length)) throw outOfRange(offset);
  const needle = [...sub];
  for (let i = Math.min(Number(offset), chars.length - needle.length); i >= 0; i--) {
    if (occursAt(chars, needle, i)) return BigInt(i);
  }
  return -1n;
}

/** `s.lastIndexOf(sub)`; like cel-go, a non-empty `sub` in an empty string is out of range (-1). */
export function lastIndexOf(s: string, sub: string): bigint {
  const length = BigInt([...s].length);
  return sub === '' ? length : lastIndexOfFrom(s, sub, length - 1n);
}

export function substringFrom(s: string, start: bigint): string {
  const chars = [...s];
  if (start < 0n || start > BigInt(chars.length)) throw outOfRange(start);
  return chars.slice(Number(start)).join('');
}

export function substringRange(s: string, start: bigint, end: bigint): string {
  if (start > end) throw new EvaluationError(`invalid substring range. start: ${start}, end: ${end}`);
  const chars = [...s];
  const length = BigInt(chars.length);
  if (start < 0n || start > length) throw outOfRange(start);
  if (end < 0n || end > length) throw outOfRange(end);
  return chars.slice(Number(start), Number(end)).join('');
}

export function lowerAscii(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

export function upperAscii(s: string): string {
  return s.replace(/[a-z]+/g, (m) => m.toUpperCase());
}

/** Go's `unicode.IsSpace`: Latin-1 space characters (U+0085 and U+00A0 included) and category Z. */
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const LEADING_SPACE = new RegExp(`^${GO_SPACE}+`);
const TRAILING_SPACE = new RegExp(`${GO_SPACE}+$`);

/** Go's `strings.TrimSpace`. */
export function trimSpace(s: string): string {
  return s.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '');
}

const replaceMethod = (
  name: string,
  arity: number,
  signature: string,
  impl: (...args: never[]) => unknown,
): EnginePatch => ({
  table: 'function',
  name,
  receiver: true,
  arity,
  signature,
  wrap: () => impl as (...args: unknown[]) => unknown,
});

/** The patches that give the engine's string built-ins cel-go's behaviour. */
export const STRING_PATCHES: readonly EnginePatch[] = [
  replaceMethod('indexOf', 1, 'string.indexOf(string): int', (s: string, sub: string) => indexOfFrom(s, sub, 0n)),
  replaceMethod('indexOf', 2, 'string.indexOf(string, int): int', indexOfFrom),
  replaceMethod('lastIndexOf', 1, 'string.lastIndexOf(string): int', lastIndexOf),
  replaceMethod('lastIndexOf', 2, 'string.lastIndexOf(string, int): int', lastIndexOfFrom),
  replaceMethod('substring', 1, 'string.substring(int): string', substringFrom),
  replaceMethod('substring', 2, 'string.substring(int, int): string', substringRange),
  replaceMethod('lowerAscii', 0, 'string.lowerAscii(): string', lowerAscii),
  replaceMethod('upperAscii', 0, 'string.upperAscii(): string', upperAscii),
  replaceMethod('trim', 0, 'string.trim(): string', trimSpace),
];
