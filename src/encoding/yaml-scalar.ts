/**
 * Scalar analysis and style choice of go-yaml v2's emitter (a port of libyaml's), which
 * kube-apiserver's YAML output goes through: which strings may be plain, single-quoted, or
 * literal blocks, and how numbers are spelled. Used by `yaml-encode.ts`. Pure.
 */

import { goFormatFloatG } from '../util/go-strconv.js';
import { UnsupportedValueError } from './errors.js';
import { isBase60Float, resolvePlainScalar } from './yaml-resolve.js';

export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal';

/** What libyaml's `yaml_emitter_analyze_scalar` finds out about a scalar. */
export interface ScalarAnalysis {
  readonly multiline: boolean;
  readonly blockPlainAllowed: boolean;
  readonly singleQuotedAllowed: boolean;
  readonly blockAllowed: boolean;
}

/** libyaml's `is_printable` on code points (astral characters are not "printable"). */
export function isPrintable(cp: number): boolean {
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
  );
}

export function isBreak(cp: number): boolean {
  return cp === 0x0d || cp === 0x0a || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
}

const FIRST_INDICATOR_CODES = new Set(Array.from('#,[]{}&*!|>\'"%@`', (ch) => ch.charCodeAt(0)));

/** Port of `yaml_emitter_analyze_scalar` (only the block-context results are kept). */
export function analyzeScalar(value: string): ScalarAnalysis {
  if (value.length === 0) {
    return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  }
  let blockIndicators = value.startsWith('---') || value.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  const n = value.length;
  for (let i = 0; i < n; ) {
    const c = value.codePointAt(i) as number;
    const width = c > 0xffff ? 2 : 1;
    const next = i + width < n ? (value.codePointAt(i + width) as number) : -1;
    const last = i + width >= n;
    const followedByWhitespace = next === -1 || next === 0x20 || next === 0x09 || isBreak(next);
    if (i === 0) {
      // # , [ ] { } & * ! | > ' " % @ `
      if (FIRST_INDICATOR_CODES.has(c)) blockIndicators = true;
      else if ((c === 0x3f || c === 0x3a || c === 0x2d) && followedByWhitespace) blockIndicators = true;
    } else if (c === 0x3a && followedByWhitespace) {
      blockIndicators = true;
    } else if (c === 0x23 && precededByWhitespace) {
      blockIndicators = true;
    }
    if (!isPrintable(c)) special = true;
    if (c === 0x20) {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = c === 0x20 || c === 0x09 || c === 0 || isBreak(c);
    i += width;
  }
  // Flow indicators are not tracked: Orch never emits a scalar in flow context.
  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
  }
  if (spaceBreak || special) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
    blockAllowed = false;
  }
  if (lineBreaks || blockIndicators) blockPlainAllowed = false;
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

/** The style go-yaml's encoder asks for a string (`encoder.stringv`). */
export function requestedStringStyle(s: string): ScalarStyle {
  if (s.includes('\n')) return 'literal';
  const resolved = resolvePlainScalar(s);
  return resolved.tag === 'str' && !isBase60Float(s) ? 'plain' : 'double';
}

/** libyaml's `yaml_emitter_select_scalar_style` for block context. */
export function selectStyle(requested: ScalarStyle, a: ScalarAnalysis, value: string, simpleKey: boolean): ScalarStyle {
  let style = requested;
  if (simpleKey && a.multiline) style = 'double';
  if (style === 'plain') {
    if (!a.blockPlainAllowed) style = 'single';
    if (value.length === 0 && simpleKey) style = 'single';
  }
  if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
  return style;
}

/**
 * A number as kube's YAML shows it: Go writes the number as JSON, go-yaml reads that back as
 * an int when it fits int64/uint64, else as a float, printed with `%g`-style shortest digits.
 * A `bigint` is an int64 in kube (exact); beyond uint64 it can only have been a float64 there.
 */
export function formatYamlNumber(n: number | bigint): string {
  if (typeof n === 'bigint') return n >= -(2n ** 63n) && n < 2n ** 64n ? n.toString() : goFormatFloatG(Number(n));
  if (!Number.isFinite(n)) throw new UnsupportedValueError(`json: unsupported value: ${goFormatFloatG(n)}`);
  if (Number.isInteger(n) && Math.abs(n) < 1e21) {
    // Go's JSON spells a whole float64 with its shortest digits padded by zeros, as JS does.
    const text = String(n);
    const big = BigInt(text);
    if (big >= -(2n ** 63n) && big < 2n ** 64n) return text === '-0' ? '0' : text;
  }
  return goFormatFloatG(n);
}
