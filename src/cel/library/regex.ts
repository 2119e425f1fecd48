import { RE2JS } from 're2js';
import type { CelLibrary } from '../cel-library.js';
import { celError, registerFunctions } from './cel-values.js';

/** How many compiled patterns one environment keeps (most expressions use literal patterns). */
const CACHE_SIZE = 256;

/**
 * Compiles patterns with RE2's syntax and linear-time matching (as Go's `regexp`), keeping the
 * most recently used ones. Errors read as kube's: `Illegal regex: error parsing regexp: …`.
 */
class RegexCache {
  private readonly compiled = new Map<string, RE2JS>();

  get(pattern: string): RE2JS {
    let re = this.compiled.get(pattern);
    if (re !== undefined) {
      this.compiled.delete(pattern);
    } else {
      try {
        re = RE2JS.compile(pattern);
      } catch (err) {
        throw celError(`Illegal regex: ${(err as Error).message}`);
      }
      if (this.compiled.size >= CACHE_SIZE) this.compiled.delete(this.compiled.keys().next().value as string);
    }
    this.compiled.set(pattern, re);
    return re;
  }
}

/** The width, in UTF-16 code units, of the code point at `i`. */
function codePointWidth(s: string, i: number): number {
  const c = s.codePointAt(i) as number;
  return c > 0xffff ? 2 : 1;
}

/**
 * Go's `FindAllString`: successive non-overlapping matches, an empty match right after the
 * previous match skipped, at most `n` of them when `n >= 0`.
 */
function findAllStrings(re: RE2JS, s: string, n: bigint): string[] {
  const out: string[] = [];
  if (n === 0n) return out;
  const m = re.matcher(s);
  let pos = 0;
  let prevEnd = -1;
  while (pos <= s.length && (n < 0n || BigInt(out.length) < n)) {
    if (!m.find(pos)) break;
    const start = m.start();
    const end = m.end();
    let accept = true;
    if (end === pos) {
      // An empty match at pos: skip it if it abuts the previous match, then move one character on.
      if (start === prevEnd) accept = false;
      pos = pos < s.length ? pos + codePointWidth(s, pos) : s.length + 1;
    } else {
      pos = end;
    }
    prevEnd = end;
    if (accept) out.push(s.slice(start, end));
  }
  return out;
}

/**
 * kube's `kubernetes.regex` library (regex.go, v1.32): `<string>.find(<regex>)` (the leftmost
 * match, or `''`), `<string>.findAll(<regex>)` and `<string>.findAll(<regex>, <limit>)`. Patterns
 * run on re2js, a port of the linear-time RE2 engine Go's `regexp` implements, never on the
 * backtracking JavaScript engine.
 */
export function regexLibrary(): CelLibrary {
  return {
    name: 'kubernetes.regex',
    register(env) {
      const cache = new RegexCache();
      registerFunctions(env, [
        [
          'string.find(string): string',
          (s: string, pattern: string) => {
            const m = cache.get(pattern).matcher(s);
            return m.find() ? (m.group() ?? '') : '';
          },
        ],
        [
          'string.findAll(string): list<string>',
          (s: string, pattern: string) => findAllStrings(cache.get(pattern), s, -1n),
        ],
        [
          'string.findAll(string, int): list<string>',
          (s: string, pattern: string, n: bigint) => findAllStrings(cache.get(pattern), s, n),
        ],
      ]);
    },
  };
}
