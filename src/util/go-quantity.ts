/**
 * Kubernetes' `resource.Quantity` (k8s.io/apimachinery/pkg/api/resource, v1.32), the parts CEL
 * sees: `ParseQuantity`, `Add`, `Sub`, `Cmp`, `Sign`, `AsInt64`, `AsApproximateFloat64`. Like
 * kube's, a quantity is either an int64 scaled by a power of ten (the fast form) or an exact
 * decimal (`inf.Dec`); which form a value has is observable (`AsInt64` fails on the decimal
 * form, `AsApproximateFloat64` rounds differently), so this port keeps kube's form rules.
 */

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const DECIMAL_SUFFIXES = new Map<number, string>([
  [-9, 'n'],
  [-6, 'u'],
  [-3, 'm'],
  [0, ''],
  [3, 'k'],
  [6, 'M'],
  [9, 'G'],
  [12, 'T'],
  [15, 'P'],
  [18, 'E'],
]);

/** A parse failure; `message` is kube's error text. */
export class QuantityError extends Error {}

const SPLIT_RE_STRING = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
const ERR_FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_RE_STRING}'`;
const ERR_NUMERIC = 'unable to parse numeric part of quantity';
const ERR_SUFFIX = "unable to parse quantity's suffix";

/**
 * How far a decimal is rescaled, in digits. Kube would build numbers of any size (and run out
 * of memory on a mantissa with a huge exponent); past this, values stay unscaled and
 * arithmetic that needs them aligned fails.
 */
const MAX_RESCALE_DIGITS = 1_000_000;

/** `value × 10^scale` (kube's int64Amount) or `unscaled × 10^-scale` (inf.Dec). */
type Amount =
  | { readonly form: 'int'; readonly value: bigint; readonly scale: number }
  | { readonly form: 'dec'; readonly unscaled: bigint; readonly scale: number };

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
type Format = QuantityFormat;

const inInt64 = (v: bigint): boolean => v >= INT64_MIN && v <= INT64_MAX;
/** Go's int64 negation, which wraps for the most negative value. */
const negInt64 = (v: bigint): bigint => (v === INT64_MIN ? v : -v);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** base × 10^scale if it fits an int64 (kube's positiveScaleInt64). */
function positiveScale(base: bigint, scale: number): bigint | undefined {
  if (base === 0n) return 0n;
  if (scale > 19) return undefined;
  const v = base * 10n ** BigInt(scale);
  return inInt64(v) ? v : undefined;
}

function digitCount(v: bigint): number {
  return v === 0n ? 0 : (v < 0n ? -v : v).toString().length;
}

/** Exact order of u1×10^e1 and u2×10^e2, without building numbers of huge exponents. */
function compareScaled(u1: bigint, e1: number, u2: bigint, e2: number): -1 | 0 | 1 {
  const s1 = u1 < 0n ? -1 : u1 > 0n ? 1 : 0;
  const s2 = u2 < 0n ? -1 : u2 > 0n ? 1 : 0;
  if (s1 !== s2 || s1 === 0) return s1 < s2 ? -1 : s1 > s2 ? 1 : 0;
  // Same sign: the position of the leading digit decides, unless equal.
  const lead1 = digitCount(u1) + e1;
  const lead2 = digitCount(u2) + e2;
  if (lead1 !== lead2) return ((lead1 > lead2 ? 1 : -1) * s1) as -1 | 1;
  const e = Math.min(e1, e2);
  const a = u1 * 10n ** BigInt(e1 - e);
  const b = u2 * 10n ** BigInt(e2 - e);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** kube's int64Amount.Add: undefined on overflow. */
function addInt(a: bigint, aScale: number, b: bigint, bScale: number): Amount | undefined {
  if (b === 0n) return { form: 'int', value: a, scale: aScale };
  if (a === 0n) return { form: 'int', value: b, scale: bScale };
  let value: bigint | undefined;
  let scale: number;
  if (aScale === bScale) {
    value = a + b;
    scale = aScale;
  } else if (aScale > bScale) {
    const c = positiveScale(a, aScale - bScale);
    value = c === undefined ? undefined : c + b;
    scale = bScale;
  } else {
    const c = positiveScale(b, bScale - aScale);
    value = c === undefined ? undefined : a + c;
    scale = aScale;
  }
  return value !== undefined && inInt64(value) ? { form: 'int', value, scale } : undefined;
}

function asDec(a: Amount): { unscaled: bigint; scale: number } {
  return a.form === 'dec' ? a : { unscaled: a.value, scale: -a.scale };
}

/** inf.Dec addition: exact, at the larger of the two scales. */
function addDec(x: Amount, y: Amount, negateY: boolean): Amount {
  const a = asDec(x);
  const b = asDec(y);
  const scale = Math.max(a.scale, b.scale);
  if (scale - Math.min(a.scale, b.scale) > MAX_RESCALE_DIGITS) {
    throw new QuantityError(`quantity arithmetic needs more than ${MAX_RESCALE_DIGITS} digits`);
  }
  const ua = a.unscaled * 10n ** BigInt(scale - a.scale);
  const ub = b.unscaled * 10n ** BigInt(scale - b.scale);
  return { form: 'dec', unscaled: negateY ? ua - ub : ua + ub, scale };
}

/** Go's math.Pow10: products of correctly rounded table entries. */
function pow10(n: number): number {
  if (n >= 0 && n <= 308) return Number(`1e${Math.floor(n / 32) * 32}`) * Number(`1e${n % 32}`);
  if (n <= 0 && n >= -323) return Number(`1e-${Math.floor(-n / 32) * 32}`) / Number(`1e${-n % 32}`);
  return n > 0 ? Number.POSITIVE_INFINITY : 0;
}

/** The suffixes kube knows: base, exponent and format, or undefined. */
function interpretSuffix(s: string): [base: 10 | 2, exponent: number, format: Format] | undefined {
  const decimal: Record<string, number> = { '': 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
  const binary: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
  if (Object.hasOwn(decimal, s)) return [10, decimal[s], 'DecimalSI'];
  if (Object.hasOwn(binary, s)) return [2, binary[s], 'BinarySI'];
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E')) {
    // strconv.ParseInt(s[1:], 10, 64), then kube's int32 conversion (which wraps).
    if (!/^[+-]?[0-9]+$/.test(s.slice(1))) return undefined;
    const parsed = BigInt(s.slice(1));
    if (!inInt64(parsed)) return undefined;
    return [10, Number(BigInt.asIntN(32, parsed)), 'DecimalExponent'];
  }
  return undefined;
}

interface QuantityParts {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

/** kube's parseQuantityString: sign, digits (leading zeros stripped), fraction, suffix. */
function splitQuantity(str: string): QuantityParts {
  const parts: QuantityParts = { positive: true, value: '', num: '', denom: '', suffix: '' };
  const end = str.length;
  let pos = 0;
  if (str[0] === '-') {
    parts.positive = false;
    pos++;
  } else if (str[0] === '+') {
    pos++;
  }
  while (str[pos] === '0') pos++;
  if (pos >= end) return { ...parts, value: '0', num: '0' };
  let i = pos;
  while (isDigit(str[i])) i++;
  parts.num = str.slice(pos, i) || '0';
  if (i >= end) return { ...parts, value: str };
  pos = i;
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (isDigit(str[i])) i++;
    parts.denom = str.slice(pos, i);
    if (i >= end) return { ...parts, value: str };
    pos = i;
  }
  parts.value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && 'eEinumkKMGTP'.includes(str[pos])) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityError(ERR_FORMAT_WRONG);
  parts.suffix = str.slice(suffixStart);
  return parts;
}

/** inf.Dec's SetString on the numeric part: `[+-]digits[.digits]`, at least one digit. */
function parseDecimal(value: string): { unscaled: bigint; scale: number } {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(value);
  if (m === null || m[2] + (m[3] ?? '') === '') throw new QuantityError(ERR_NUMERIC);
  const digits = m[2] + (m[3] ?? '');
  const unscaled = BigInt(digits);
  return { unscaled: m[1] === '-' ? -unscaled : unscaled, scale: m[3]?.length ?? 0 };
}

/** inf.Dec rounding of a non-negative, non-zero value to scale 9, away from zero. */
function roundUpToNano(unscaled: bigint, scale: number): { unscaled: bigint; scale: number } {
  if (scale === 9) return { unscaled, scale };
  if (scale < 9) {
    if (9 - scale > MAX_RESCALE_DIGITS) return { unscaled, scale };
    return { unscaled: unscaled * 10n ** BigInt(9 - scale), scale: 9 };
  }
  if (scale - 9 > digitCount(unscaled)) return { unscaled: 1n, scale: 9 };
  const divisor = 10n ** BigInt(scale - 9);
  const q = unscaled / divisor;
  return { unscaled: unscaled % divisor === 0n ? q : q + 1n, scale: 9 };
}

/**
 * Recently parsed quantities by their text (a pure function's memo, cleared when full): the only
 * state of this module, invisible to callers since quantities are immutable.
 */
const PARSED = new Map<string, Quantity>();
const PARSED_LIMIT = 4096;

/** A `resource.Quantity` value, immutable. */
export class Quantity {
  /** `toString()`, computed once. */
  private canonical: string | undefined;

  private constructor(
    private readonly amount: Amount,
    /** The format the quantity was written in; its canonical string keeps it where exact. */
    readonly format: Format = 'DecimalSI',
  ) {}

  /**
   * kube's `ParseQuantity`, with its three errors. The same few strings (`100m`, `128Mi`) arrive
   * on every pod write: a bounded memo of recent results (quantities are immutable) saves the
   * big-integer work.
   */
  static parse(str: string): Quantity {
    const known = PARSED.get(str);
    if (known !== undefined) return known;
    const q = Quantity.parseUncached(str);
    if (PARSED.size >= PARSED_LIMIT) PARSED.clear();
    PARSED.set(str, q);
    return q;
  }

  private static parseUncached(str: string): Quantity {
    if (str.length === 0) throw new QuantityError(ERR_FORMAT_WRONG);
    if (str === '0') return new Quantity({ form: 'int', value: 0n, scale: 0 });
    const { positive, value, num, denom, suffix } = splitQuantity(str);
    const interpreted = interpretSuffix(suffix);
    if (interpreted === undefined) throw new QuantityError(ERR_SUFFIX);
    const [base, exponent, format] = interpreted;
    let precision: number;
    let scale = 0;
    let mantissa = 1n;
    if (format === 'BinarySI') {
      if (exponent >= 0 && denom.length === 0) {
        mantissa <<= BigInt(exponent);
        // 1Mi (2^20) has about 6 digits of decimal precision.
        precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
      } else {
        precision = -1;
      }
    } else {
      scale = exponent;
      precision = 18 - (num.length + denom.length);
    }
    if (precision >= 0) {
      scale = (scale - denom.length) | 0;
      if (scale >= -9) {
        const result = BigInt(num + denom) * mantissa;
        if (inInt64(result)) return new Quantity({ form: 'int', value: positive ? result : -result, scale }, format);
      }
    }
    let dec = parseDecimal(value);
    if (base === 10) dec.scale = (dec.scale - exponent) | 0;
    else dec.unscaled <<= BigInt(exponent);
    const negative = dec.unscaled < 0n;
    if (negative) dec.unscaled = -dec.unscaled;
    // Non-zero values round up to the smallest representable amount (1n).
    if (dec.unscaled !== 0n) dec = roundUpToNano(dec.unscaled, dec.scale);
    if (format === 'BinarySI' && compareScaled(dec.unscaled, -dec.scale, INT64_MAX, 0) > 0) {
      dec = { unscaled: INT64_MAX, scale: 0 };
    }
    return new Quantity({ form: 'dec', unscaled: negative ? -dec.unscaled : dec.unscaled, scale: dec.scale }, format);
  }

  /** kube's `NewQuantity(v, DecimalExponent)`. */
  static fromInt64(v: bigint): Quantity {
    return new Quantity({ form: 'int', value: v, scale: 0 }, 'DecimalExponent');
  }

  add(y: Quantity): Quantity {
    const a = this.amount;
    const b = y.amount;
    if (a.form === 'int' && b.form === 'int') {
      const sum = addInt(a.value, a.scale, b.value, b.scale);
      if (sum !== undefined) return new Quantity(sum, this.format);
    }
    return new Quantity(addDec(a, b, false), this.format);
  }

  sub(y: Quantity): Quantity {
    const a = this.amount;
    const b = y.amount;
    if (a.form === 'int' && b.form === 'int') {
      // kube subtracts by adding the int64 negation, which wraps for the most negative value.
      const diff = addInt(a.value, a.scale, negInt64(b.value), b.scale);
      if (diff !== undefined) return new Quantity(diff, this.format);
    }
    return new Quantity(addDec(a, b, true), this.format);
  }

  /** -1, 0 or 1, exactly. */
  cmp(y: Quantity): -1 | 0 | 1 {
    // A request and its limit are usually written alike (`100m` and `500m`): same form and scale.
    const x = this.amount;
    const z = y.amount;
    if (x.form === 'int' && z.form === 'int' && x.scale === z.scale) {
      return x.value < z.value ? -1 : x.value > z.value ? 1 : 0;
    }
    const a = asDec(this.amount);
    const b = asDec(y.amount);
    return compareScaled(a.unscaled, -a.scale, b.unscaled, -b.scale);
  }

  sign(): -1 | 0 | 1 {
    const v = this.amount.form === 'int' ? this.amount.value : this.amount.unscaled;
    return v < 0n ? -1 : v > 0n ? 1 : 0;
  }

  /** kube's `AsInt64`: the value if the int form holds it without loss; never the decimal form. */
  asInt64(): bigint | undefined {
    const a = this.amount;
    if (a.form === 'dec' || a.scale < 0) return undefined;
    return positiveScale(a.value, a.scale);
  }

  /**
   * kube's `MilliValue`: the value in thousandths, rounded away from zero (values beyond int64
   * are not clamped here).
   */
  milliValue(): bigint {
    const d = asDec(this.amount);
    const shift = d.scale - 3;
    if (shift <= 0) return d.unscaled * 10n ** BigInt(-shift);
    const div = 10n ** BigInt(shift);
    const q = d.unscaled / div;
    if (d.unscaled % div === 0n) return q;
    return d.unscaled < 0n ? q - 1n : q + 1n;
  }

  /**
   * kube's `String()` (`CanonicalizeBytes`): `0`; binary quantities of whole values of at least
   * 1024 in magnitude as `<n>Ki`…`<n>Ei`; everything else as the shortest mantissa with an
   * exponent that is a multiple of three, written with an SI suffix (`500m`, `2k`) or, for
   * exponent-format quantities, `e<exp>`.
   */
  toString(): string {
    this.canonical ??= this.canonicalString();
    return this.canonical;
  }

  private canonicalString(): string {
    const d = asDec(this.amount);
    if (d.unscaled === 0n) return '0';
    if (this.format === 'BinarySI') {
      const whole = d.scale <= 0 || d.unscaled % 10n ** BigInt(d.scale) === 0n;
      const magnitude = d.unscaled < 0n ? -d.unscaled : d.unscaled;
      const atLeast1024 = compareScaled(magnitude, -d.scale, 1024n, 0) >= 0;
      if (whole && atLeast1024) {
        let v = d.scale <= 0 ? d.unscaled * 10n ** BigInt(-d.scale) : d.unscaled / 10n ** BigInt(d.scale);
        let times = 0;
        while ((v < 0n ? -v : v) >= 1024n && v % 1024n === 0n && times < 6) {
          v /= 1024n;
          times++;
        }
        return `${v}${['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][times]}`;
      }
    }
    let m = d.unscaled;
    let exponent = -d.scale;
    while ((m < 0n ? -m : m) >= 10n && m % 10n === 0n) {
      m /= 10n;
      exponent++;
    }
    while (((exponent % 3) + 3) % 3 !== 0) {
      m *= 10n;
      exponent--;
    }
    if (this.format === 'DecimalExponent') return exponent === 0 ? `${m}` : `${m}e${exponent}`;
    const suffix = DECIMAL_SUFFIXES.get(exponent);
    return suffix === undefined ? `${m}e${exponent}` : `${m}${suffix}`;
  }

  /** kube's `AsApproximateFloat64`: the mantissa as a float times a power of ten. */
  asApproximateFloat64(): number {
    const a = this.amount;
    const base = Number(a.form === 'int' ? a.value : a.unscaled);
    const exponent = a.form === 'int' ? a.scale : -a.scale;
    return exponent === 0 ? base : base * pow10(exponent);
  }
}
