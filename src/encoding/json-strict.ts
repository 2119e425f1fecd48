/**
 * JSON decoding for `fieldValidation`: the value as `JSON.parse` gives it (a duplicated key
 * keeps its last value, as kube's decoder does for unstructured objects; integers beyond 2^53
 * are exact `bigint`s, as they are exact int64s in kube), plus the duplicated
 * keys with their paths as `sigs.k8s.io/json` prints them (`metadata.labels.a`,
 * `spec.items[0].name`, `[0].a` under a top-level array). Malformed input throws a
 * `JsonSyntaxError` worded like Go's. Pure and synchronous.
 */
import { jsonStringEnd, parseJsonExact } from '../util/json-text.js';
import { JsonSyntaxError } from './errors.js';
import { findJsonSyntaxError } from './json-syntax.js';

/** A key that appears more than once in one object. */
export interface DuplicateField {
  /** `sigs.k8s.io/json` path of the repeated key. */
  readonly path: string;
  /** UTF-16 offset of the repeated occurrence (the first repeat). */
  readonly offset: number;
}

export interface JsonStrictResult {
  readonly value: unknown;
  /** In document order, each path once, at most 100 (kube's cap on strict errors). */
  readonly duplicates: readonly DuplicateField[];
}

/** kube's limit on accumulated strict decoding errors. */
export const MAX_STRICT_ERRORS = 100;

/**
 * Parses `text` and reports duplicated keys. With `detectDuplicates: false` (the
 * `fieldValidation=Ignore` case) the duplicate scan is skipped.
 */
export function decodeJsonStrict(text: string, options: { detectDuplicates?: boolean } = {}): JsonStrictResult {
  let value = parseJsonText(text);
  if (options.detectDuplicates === false) {
    // Go cannot hold a number beyond float64 range (JSON.parse makes it Infinity), nor nest
    // deeper than 10000; the walk below checks both, and finds long integers, here only when
    // the text could need it.
    if ((text.length > TEXT_WITHIN_NESTING_LIMIT || MAYBE_LONG_NUMBER.test(text)) && walkKeys(text, {}).longIntegers) {
      value = parseJsonExact(text);
    }
    return { value, duplicates: [] };
  }
  // Without a repeated key, the text holds as many keys as the value has properties: counting
  // both is much cheaper than the walk that names the repeats, which runs only when they differ.
  const parsed = keysAndLargeNumbers(value);
  if (countTextKeys(text) === parsed.keys) {
    // As above; a number the text writes with 16 digits or more, or beyond float64 range, is
    // one of at least 1e15 in the value, which the count has looked at already.
    if ((text.length > TEXT_WITHIN_NESTING_LIMIT || parsed.largeNumbers) && walkKeys(text, {}).longIntegers) {
      value = parseJsonExact(text);
    }
    return { value, duplicates: [] };
  }
  const duplicates: DuplicateField[] = [];
  const walked = walkKeys(text, {
    onDuplicate(path, offset) {
      if (duplicates.length < MAX_STRICT_ERRORS && !duplicates.some((d) => d.path === path)) {
        duplicates.push({ path, offset });
      }
    },
  });
  // The walk saw every number literal: only one of 16 digits or more can be beyond 2^53.
  if (walked.longIntegers) value = parseJsonExact(text);
  return { value, duplicates };
}

/**
 * `JSON.parse(text)`, malformed input thrown as a `JsonSyntaxError` worded like Go's. Integers
 * beyond 2^53 are not exact: see {@link decodeJsonStrict}.
 */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw findJsonSyntaxError(text) ?? new JsonSyntaxError((err as Error).message, 0);
  }
}

const MAYBE_LONG_NUMBER = /[eE]\+?\d{3}|\d{16}/;

/**
 * The keys of every object in a valid JSON text: the colons outside its strings. One pass over
 * the characters, skipping strings whole.
 */
export function countTextKeys(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a) n++;
    else if (c === 0x22) i = jsonStringEnd(text, i) - 1;
  }
  return n;
}

/** The smallest magnitude of a number literal with 16 digits before its point (or exponent). */
const SIXTEEN_DIGITS = 1e15;

/**
 * The properties of every object in a parsed JSON value, and whether it holds a number of
 * magnitude 1e15 or more (or an infinite one). No recursion: any depth. `for...in` rather than
 * `Object.keys`: the parsed objects inherit nothing enumerable, and it makes no array per object.
 */
function keysAndLargeNumbers(value: unknown): { keys: number; largeNumbers: boolean } {
  let keys = 0;
  let largeNumbers = isLarge(value);
  const pending: object[] = [];
  let next: unknown = value;
  while (next !== null && typeof next === 'object') {
    if (Array.isArray(next)) {
      for (let i = 0; i < next.length; i++) {
        const v: unknown = next[i];
        if (v !== null && typeof v === 'object') pending.push(v);
        else if (!largeNumbers) largeNumbers = isLarge(v);
      }
    } else {
      const obj = next as Record<string, unknown>;
      for (const key in obj) {
        keys++;
        const v = obj[key];
        if (v !== null && typeof v === 'object') pending.push(v);
        else if (!largeNumbers) largeNumbers = isLarge(v);
      }
    }
    next = pending.pop();
  }
  return { keys, largeNumbers };
}

function isLarge(value: unknown): boolean {
  return typeof value === 'number' && !(value < SIXTEEN_DIGITS && value > -SIXTEEN_DIGITS);
}

/**
 * The offset of the first occurrence of each of `paths` in a valid JSON `text`, for ordering
 * unknown-field reports as kube does (document order). Paths not found are absent.
 */
export function locateJsonPaths(text: string, paths: Iterable<string>): Map<string, number> {
  const wanted = new Set(paths);
  const found = new Map<string, number>();
  if (wanted.size === 0) return found;
  walkKeys(text, {
    onKey(path, offset) {
      if (wanted.has(path) && !found.has(path)) found.set(path, offset);
    },
  });
  return found;
}

interface KeyVisitor {
  onDuplicate?(path: string, offset: number): void;
  /** Called for every key, with its full path; makes the walk build a path per key. */
  onKey?(path: string, offset: number): void;
}

interface Frame {
  readonly isObject: boolean;
  /** Current key (objects) or element index (arrays). */
  key: string;
  index: number;
  /** Keys met so far: a short array, turned into a set for wide objects. */
  keys?: string[];
  seen?: Set<string>;
}

/** sigs.k8s.io/json joins keys with `.` whenever anything precedes them, even an empty key. */
function pathOf(frames: readonly Frame[], key: string): string {
  let p = '';
  let empty = true;
  for (let f = 0; f < frames.length - 1; f++) {
    const fr = frames[f];
    if (fr.isObject) p = empty ? fr.key : `${p}.${fr.key}`;
    else p = `${p}[${fr.index}]`;
    empty = false;
  }
  return empty ? key : `${p}.${key}`;
}

/** Go's `maxNestingDepth`, which `JSON.parse` does not enforce. */
const MAX_DEPTH = 10_000;

/**
 * The longest text that cannot nest deeper than Go's limit: {@link decodeJsonStrict} walks a
 * longer one to find out.
 */
export const TEXT_WITHIN_NESTING_LIMIT = 2 * MAX_DEPTH;

function tooDeep(text: string, i: number): JsonSyntaxError {
  return new JsonSyntaxError(`invalid character '${text[i]}' exceeded max depth`, i);
}

/**
 * Walks the keys of a text already known to be valid JSON; enforces Go's nesting limit. Tells
 * whether the text has an integer literal of 16 digits or more (which may be beyond 2^53).
 */
function walkKeys(text: string, visitor: KeyVisitor): { longIntegers: boolean } {
  const frames: Frame[] = [];
  let longIntegers = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    switch (c) {
      case 0x7b: // {
        if (frames.length >= MAX_DEPTH) throw tooDeep(text, i);
        frames.push({ isObject: true, key: '', index: 0 });
        i = readKey(text, i + 1, frames, visitor);
        break;
      case 0x5b: // [
        if (frames.length >= MAX_DEPTH) throw tooDeep(text, i);
        frames.push({ isObject: false, key: '', index: 0 });
        i++;
        break;
      case 0x2c: {
        // ,
        const top = frames[frames.length - 1];
        if (top.isObject) i = readKey(text, i + 1, frames, visitor);
        else {
          top.index++;
          i++;
        }
        break;
      }
      case 0x7d: // }
      case 0x5d: // ]
        frames.pop();
        i++;
        break;
      case 0x22: // a string value
        i = jsonStringEnd(text, i);
        break;
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          const end = numberEnd(text, i);
          if (end - i >= 16 && !longIntegers) longIntegers = isIntegerLiteral(text, i, end);
          i = end;
        } else i++;
    }
  }
  return { longIntegers };
}

function isIntegerLiteral(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e || c === 0x65 || c === 0x45) return false;
  }
  return true;
}

/**
 * The end of the number at `i`. Throws Go's unmarshal error for a number beyond float64 range,
 * which only a long mantissa or an exponent can produce.
 */
function numberEnd(text: string, i: number): number {
  let end = i + 1;
  let exponent = false;
  for (;;) {
    const c = text.charCodeAt(end);
    if (c === 0x65 || c === 0x45) exponent = true;
    else if (!((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2b || c === 0x2d)) break;
    end++;
  }
  if ((exponent || end - i > 308) && !Number.isFinite(Number(text.slice(i, end)))) {
    const token = text.slice(i, end);
    throw new JsonSyntaxError(`json: cannot unmarshal number ${token} into Go value of type float64`, i);
  }
  return end;
}

/** After `{` or `,` in an object: reads `"key":`, records it, returns the offset after `:`. */
function readKey(text: string, from: number, frames: Frame[], visitor: KeyVisitor): number {
  let i = from;
  while (text.charCodeAt(i) !== 0x22) {
    if (text.charCodeAt(i) === 0x7d) return i; // empty object: `}` is handled by the caller
    i++;
  }
  const end = jsonStringEnd(text, i);
  const raw = text.slice(i + 1, end - 1);
  const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
  const frame = frames[frames.length - 1];
  frame.key = key;
  if (visitor.onKey) visitor.onKey(pathOf(frames, key), i);
  if (visitor.onDuplicate) {
    if (frame.seen) {
      if (frame.seen.has(key)) visitor.onDuplicate(pathOf(frames, key), i);
      else frame.seen.add(key);
    } else if (!frame.keys) {
      frame.keys = [key];
    } else if (frame.keys.includes(key)) {
      visitor.onDuplicate(pathOf(frames, key), i);
    } else if (frame.keys.length < 16) {
      frame.keys.push(key);
    } else {
      frame.seen = new Set(frame.keys);
      frame.seen.add(key);
    }
  }
  return text.indexOf(':', end) + 1;
}
