import { isIP } from 'node:net';
import { goQuote } from '../../util/go-strconv.js';
import {
  formatGoDuration,
  isParseError,
  type Parsed,
  parseCsvRecord,
  parseGoBool,
  parseGoDuration,
  parseGoInt,
} from './go-values.js';

/**
 * One flag of a declarative table. `parse` reads one occurrence: `previous` is the value so far
 * (the default on the first occurrence) and `first` says whether this is the first occurrence, so
 * list flags replace their default once and append afterwards. `parse` throws an `Error` whose
 * message completes `invalid argument "<raw>" for "--<name>" flag: <message>`.
 */
export interface FlagSpec<T> {
  /** Long name without dashes, kebab-case. */
  readonly name: string;
  readonly usage: string;
  /** Value placeholder in help (`string`, `int`, `duration`, ...); empty for booleans. */
  readonly typeName: string;
  readonly defaultValue: T;
  readonly shorthand?: string;
  /** Help section title, e.g. `Etcd`. */
  readonly section?: string;
  /** Value implied by the bare flag (`--verbose`); such flags never take the next argument as value. */
  readonly impliedValue?: string;
  parse(raw: string, previous: T, first: boolean): T;
  /** The default as shown in help; empty to omit it (zero values). */
  formatDefault(value: T): string;
}

/** Options every builder accepts. */
export interface FlagOptions<T> {
  readonly name: string;
  readonly usage: string;
  readonly default?: T;
  readonly shorthand?: string;
  readonly section?: string;
  /** Replaces the generated `(default ...)` text; empty hides it. */
  readonly defaultText?: string;
}

function unwrap<T>(v: Parsed<T>): T {
  if (isParseError(v)) throw new Error(v.error);
  return v;
}

/** The descriptive fields a spec copies from its options. */
function base<T>(o: FlagOptions<T>): Pick<FlagSpec<T>, 'name' | 'usage' | 'shorthand' | 'section'> {
  return { name: o.name, usage: o.usage, shorthand: o.shorthand, section: o.section };
}

function defaultText<T>(o: FlagOptions<T>, generated: (v: T) => string): (v: T) => string {
  return o.defaultText !== undefined ? () => o.defaultText! : generated;
}

/** A free-form string; the last occurrence wins. */
export function stringFlag(o: FlagOptions<string>): FlagSpec<string> {
  return {
    ...base(o),
    typeName: 'string',
    defaultValue: o.default ?? '',
    parse: (raw) => raw,
    formatDefault: defaultText(o, (v) => (v === '' ? '' : goQuote(v))),
  };
}

/** A string restricted to `values`; rejected values name the allowed ones. */
export function enumFlag<const V extends string>(o: FlagOptions<V> & { readonly values: readonly V[] }): FlagSpec<V> {
  return {
    ...base(o),
    typeName: 'string',
    defaultValue: o.default ?? o.values[0],
    parse: (raw) => {
      if (!(o.values as readonly string[]).includes(raw)) throw new Error(`must be one of ${o.values.join(', ')}`);
      return raw as V;
    },
    formatDefault: defaultText(o, (v) => goQuote(v)),
  };
}

/** An integer (Go `ParseInt` base 0), optionally range-checked. */
export function intFlag(o: FlagOptions<number> & { readonly min?: number; readonly max?: number }): FlagSpec<number> {
  return {
    ...base(o),
    typeName: 'int',
    defaultValue: o.default ?? 0,
    parse: (raw) => {
      const n = unwrap(parseGoInt(raw));
      if ((o.min !== undefined && n < o.min) || (o.max !== undefined && n > o.max)) {
        throw new Error(`must be between ${o.min ?? '-inf'} and ${o.max ?? 'inf'}, inclusive`);
      }
      return n;
    },
    formatDefault: defaultText(o, (v) => (v === 0 ? '' : String(v))),
  };
}

/** A boolean: `--x` means true, `--x=false` false; never consumes the next argument. */
export function boolFlag(o: FlagOptions<boolean>): FlagSpec<boolean> {
  return {
    ...base(o),
    typeName: '',
    defaultValue: o.default ?? false,
    impliedValue: 'true',
    parse: (raw) => unwrap(parseGoBool(raw)),
    formatDefault: defaultText(o, (v) => (v ? 'true' : '')),
  };
}

/** A Go duration (`500ms`, `30s`, `1h30m`), held in milliseconds. */
export function durationFlag(o: FlagOptions<number>): FlagSpec<number> {
  return {
    ...base(o),
    typeName: 'duration',
    defaultValue: o.default ?? 0,
    parse: (raw) => unwrap(parseGoDuration(raw)),
    formatDefault: defaultText(o, (v) => (v === 0 ? '' : formatGoDuration(v))),
  };
}

/** An IP address (v4 or v6), surrounding spaces ignored, as pflag's `ip` type. */
export function ipFlag(o: FlagOptions<string>): FlagSpec<string> {
  return {
    ...base(o),
    typeName: 'ip',
    defaultValue: o.default ?? '',
    parse: (raw) => {
      const trimmed = raw.trim();
      if (isIP(trimmed) === 0) throw new Error(`failed to parse IP: ${goQuote(raw)}`);
      return trimmed;
    },
    formatDefault: defaultText(o, (v) => v),
  };
}

/** A list: each occurrence is a CSV record; the first occurrence replaces the default, later ones append. */
export function stringListFlag(o: FlagOptions<readonly string[]>): FlagSpec<readonly string[]> {
  return {
    ...base(o),
    typeName: 'strings',
    defaultValue: o.default ?? [],
    parse: (raw, previous, first) => {
      const items = unwrap(parseCsvRecord(raw));
      return first ? items : [...previous, ...items];
    },
    formatDefault: defaultText(o, (v) => (v.length === 0 ? '' : `[${v.join(',')}]`)),
  };
}

/**
 * `key[=value]` pairs, comma-separated and trimmed, merged across occurrences (kube's
 * `ConfigurationMap`); a key without `=` maps to the empty string.
 */
export function keyValueFlag(
  o: FlagOptions<Readonly<Record<string, string>>>,
): FlagSpec<Readonly<Record<string, string>>> {
  return {
    ...base(o),
    typeName: 'mapStringString',
    defaultValue: o.default ?? {},
    parse: (raw, previous) => {
      const out = { ...previous };
      for (const item of raw.split(',')) {
        if (item === '') continue;
        const eq = item.indexOf('=');
        if (eq < 0) out[item.trim()] = '';
        else out[item.slice(0, eq).trim()] = item.slice(eq + 1).trim();
      }
      return out;
    },
    formatDefault: defaultText(o, (v) =>
      Object.keys(v).length === 0
        ? ''
        : Object.entries(v)
            .map(([k, x]) => `${k}=${x}`)
            .join(','),
    ),
  };
}

/** Any value type, with a parser of one occurrence; for flags the builders above do not cover. */
export function customFlag<T>(
  o: FlagOptions<T> & {
    readonly default: T;
    readonly typeName: string;
    parse(raw: string, previous: T, first: boolean): T;
    formatDefault?(value: T): string;
  },
): FlagSpec<T> {
  return {
    ...base(o),
    typeName: o.typeName,
    defaultValue: o.default,
    parse: o.parse,
    formatDefault: defaultText(o, (v) => o.formatDefault?.(v) ?? ''),
  };
}
