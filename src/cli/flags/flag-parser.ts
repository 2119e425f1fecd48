import { goQuote } from '../../util/go-strconv.js';
import { FlagParseError } from './errors.js';
import type { FlagSpec } from './flag-spec.js';

/** A declarative flag table: property name → spec. Property names become the keys of the parsed values. */
// biome-ignore lint/suspicious/noExplicitAny: specs of any value type; `parse` is a method, so variance is bivariant anyway.
export type FlagTable = Readonly<Record<string, FlagSpec<any>>>;

/** The parsed values of a table, typed per property. */
export type FlagValues<T extends FlagTable> = { -readonly [K in keyof T]: T[K] extends FlagSpec<infer V> ? V : never };

export interface ParsedFlags<T extends FlagTable> {
  readonly values: FlagValues<T>;
  /** Properties whose flag appeared on the command line. */
  readonly changed: ReadonlySet<keyof T & string>;
  /** Non-flag arguments, including everything after `--`. */
  readonly args: readonly string[];
  /** `--help` or `-h` appeared (and the table defines neither itself). */
  readonly help: boolean;
}

/** kube normalizes `_` to `-` in flag names (`--secure_port` is `--secure-port`). */
function normalize(name: string): string {
  return name.replaceAll('_', '-');
}

function display(spec: FlagSpec<unknown>): string {
  return spec.shorthand ? `-${spec.shorthand}, --${spec.name}` : `--${spec.name}`;
}

interface Entry {
  readonly key: string;
  readonly spec: FlagSpec<unknown>;
}

/**
 * Parses `argv` (without the program name) against `table`, pflag-style: `--name=value`,
 * `--name value`, `--bool`, `--bool=false`, shorthands `-p 1`, `-p1`, `-p=1` and grouped boolean
 * shorthands; flags and positional arguments may interleave; `--` ends flags. Flags not given keep
 * their defaults. Pure; validates each value as it is read.
 *
 * @throws FlagParseError with pflag's one-line messages: `unknown flag: --x`,
 *   `unknown shorthand flag: 'x' in -x`, `flag needs an argument: --x`, `bad flag syntax: ---x`,
 *   `invalid argument "abc" for "--secure-port" flag: strconv.ParseInt: parsing "abc": invalid syntax`.
 */
export function parseFlags<T extends FlagTable>(table: T, argv: readonly string[]): ParsedFlags<T> {
  const byName = new Map<string, Entry>();
  const byShorthand = new Map<string, Entry>();
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) {
    byName.set(normalize(spec.name), { key, spec });
    if (spec.shorthand) byShorthand.set(spec.shorthand, { key, spec });
    values[key] = spec.defaultValue;
  }
  const changed = new Set<string>();
  const args: string[] = [];
  let help = false;

  const set = (entry: Entry, raw: string) => {
    try {
      values[entry.key] = entry.spec.parse(raw, values[entry.key], !changed.has(entry.key));
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new FlagParseError(
        'InvalidArgument',
        `invalid argument ${goQuote(raw)} for ${goQuote(display(entry.spec))} flag: ${reason}`,
        `--${entry.spec.name}`,
        { cause: err },
      );
    }
    changed.add(entry.key);
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      args.push(arg);
      continue;
    }
    if (arg.startsWith('--')) {
      const body = arg.slice(2);
      if (body.startsWith('-') || body.startsWith('='))
        throw new FlagParseError('BadSyntax', `bad flag syntax: ${arg}`, arg);
      const eq = body.indexOf('=');
      const name = eq < 0 ? body : body.slice(0, eq);
      const entry = byName.get(normalize(name));
      if (!entry) {
        if (name === 'help') {
          help = true;
          continue;
        }
        throw new FlagParseError('UnknownFlag', `unknown flag: --${name}`, `--${name}`);
      }
      if (eq >= 0) set(entry, body.slice(eq + 1));
      else if (entry.spec.impliedValue !== undefined) set(entry, entry.spec.impliedValue);
      else if (i + 1 < argv.length) set(entry, argv[++i]);
      else throw new FlagParseError('MissingArgument', `flag needs an argument: --${name}`, `--${name}`);
      continue;
    }
    // One or more shorthands in a single argument: `-abc`, `-p8080`, `-p=8080`, `-p 8080`.
    let rest = arg.slice(1);
    while (rest !== '') {
      const c = rest[0];
      rest = rest.slice(1);
      const entry = byShorthand.get(c);
      if (!entry) {
        if (c === 'h') {
          help = true;
          continue;
        }
        throw new FlagParseError('UnknownFlag', `unknown shorthand flag: '${c}' in ${arg}`, `-${c}`);
      }
      if (rest.startsWith('=')) {
        set(entry, rest.slice(1));
        rest = '';
      } else if (entry.spec.impliedValue !== undefined) {
        set(entry, entry.spec.impliedValue);
      } else if (rest !== '') {
        set(entry, rest);
        rest = '';
      } else if (i + 1 < argv.length) {
        set(entry, argv[++i]);
      } else {
        throw new FlagParseError('MissingArgument', `flag needs an argument: '${c}' in -${c}`, `-${c}`);
      }
    }
  }
  return { values: values as FlagValues<T>, changed: changed as Set<keyof T & string>, args, help };
}
