/**
 * JSON text to values and back, keeping integers exact beyond 2^53.
 *
 * kube-apiserver holds JSON integers as Go `int64`, so 9007199254740993 survives a round trip
 * there; a JavaScript number cannot hold it. In the values these functions produce and accept,
 * an integer literal whose value is not a safe integer (|n| > 2^53 - 1) is a `bigint`; every
 * other number is a `number`, so `bigint`s are rare and a value never has two representations.
 * `structuredClone` copies them; `JSON.stringify` cannot write them, which is why writers of
 * object trees go through {@link stringifyJson}.
 *
 * Both directions run the built-in `JSON` functions first and take a slower exact path only
 * when the value needs it. Pure and synchronous.
 */

/**
 * `JSON.parse(text)`, except that integer literals beyond the safe range come out as `bigint`.
 * Throws what `JSON.parse` throws for malformed text.
 */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  // A lost integer shows as a whole double outside the safe range; checking the parsed value
  // costs a fraction of the parse, whereas scanning the text would also see digits in strings.
  return holdsUnsafeInteger(value) ? parseJsonExact(text) : value;
}

/**
 * Whether `value` (as `JSON.parse` made it) holds a whole number beyond the safe range. Iterative:
 * values may nest 10000 deep.
 */
function holdsUnsafeInteger(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return isUnsafeInteger(value);
  const pending: object[] = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (Array.isArray(next)) {
      for (const item of next) {
        if (typeof item === 'object' && item !== null) pending.push(item);
        else if (isUnsafeInteger(item)) return true;
      }
    } else {
      for (const key in next) {
        const item = (next as Record<string, unknown>)[key];
        if (typeof item === 'object' && item !== null) pending.push(item);
        else if (isUnsafeInteger(item)) return true;
      }
    }
  }
  return false;
}

function isUnsafeInteger(value: unknown): boolean {
  return typeof value === 'number' && !Number.isSafeInteger(value) && Number.isInteger(value);
}

/**
 * The number a JSON number literal stands for: a `bigint` for an integer literal beyond the
 * safe range, a `number` otherwise (fractions and exponents always make a `number`, as
 * kube's decoder makes them a `float64`).
 */
export function jsonNumberValue(literal: string): number | bigint {
  const n = Number(literal);
  if (Number.isSafeInteger(n) || !Number.isInteger(n) || !/^-?\d+$/.test(literal)) return n;
  return BigInt(literal);
}

interface Container {
  readonly value: Record<string, unknown> | unknown[];
  /** The pending key, for objects. */
  key: string;
}

/**
 * Parses valid JSON `text` (one `JSON.parse` accepts; otherwise the result is unspecified) with
 * exact integers, for callers that already know it holds a long integer literal. Iterative.
 */
export function parseJsonExact(text: string): unknown {
  const stack: Container[] = [];
  let root: unknown;
  let i = 0;
  const put = (v: unknown): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) root = v;
    else if (Array.isArray(top.value)) top.value.push(v);
    else if (top.key === '__proto__') {
      // JSON.parse makes an own property of `__proto__`; assignment would set the prototype.
      Object.defineProperty(top.value, top.key, { value: v, writable: true, enumerable: true, configurable: true });
    } else top.value[top.key] = v;
  };
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = jsonStringEnd(text, i);
      const s = JSON.parse(text.slice(i, end)) as string;
      i = end;
      const top = stack[stack.length - 1];
      if (top && !Array.isArray(top.value) && nextNonSpace(text, i) === 0x3a) {
        top.key = s;
        i = text.indexOf(':', i) + 1;
      } else put(s);
    } else if (c === 0x7b || c === 0x5b) {
      const value = c === 0x7b ? {} : [];
      put(value);
      stack.push({ value, key: '' });
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
      put(jsonNumberValue(text.slice(i, end)));
      i = end;
    } else if (c === 0x74) {
      put(true);
      i += 4;
    } else if (c === 0x66) {
      put(false);
      i += 5;
    } else if (c === 0x6e) {
      put(null);
      i += 4;
    } else i++; // whitespace and commas
  }
  return root;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

function nextNonSpace(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return c;
    i++;
  }
}

/** The end (exclusive) of the valid JSON string starting at `i` (a `"`). */
export function jsonStringEnd(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    let b = q - 1;
    while (text.charCodeAt(b) === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/**
 * `JSON.stringify(value, null, indent)`, except that a `bigint` is written as its decimal digits
 * (a JSON integer). `undefined` for the values `JSON.stringify` gives `undefined` for.
 */
export function stringifyJson(value: unknown, indent?: number): string | undefined {
  try {
    return JSON.stringify(value, null, indent);
  } catch (e) {
    if (!(e instanceof TypeError) || !e.message.includes('BigInt')) throw e;
  }
  return write(value, '', indent ? ' '.repeat(indent) : '', '');
}

/** `JSON.stringify`'s algorithm (SerializeJSONProperty) with `bigint` support. */
function write(input: unknown, key: string, gap: string, indent: string): string | undefined {
  let value = input;
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
    case 'boolean':
    case 'number':
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    return JSON.stringify(value);
  }
  const inner = indent + gap;
  const open = gap ? `\n${inner}` : '';
  const separator = gap ? `,\n${inner}` : ',';
  const close = gap ? `\n${indent}` : '';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const parts = value.map((item, i) => write(item, String(i), gap, inner) ?? 'null');
    return `[${open}${parts.join(separator)}${close}]`;
  }
  const parts: string[] = [];
  const colon = gap ? ': ' : ':';
  for (const k of Object.keys(value)) {
    const text = write((value as Record<string, unknown>)[k], k, gap, inner);
    if (text !== undefined) parts.push(`${JSON.stringify(k)}${colon}${text}`);
  }
  if (parts.length === 0) return '{}';
  return `{${open}${parts.join(separator)}${close}}`;
}
