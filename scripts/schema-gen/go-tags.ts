import { SchemaGenError } from './facts.js';

/**
 * Struct tags and comment markers of Go API types, read the way kube's generators read them:
 * `reflect.StructTag` lookup for `json:"..."` / `protobuf:"..."`, and gengo's comment tags
 * (`+name=value` lines, repeatable, the value kept whole).
 */

/** The value of `key` in a Go struct tag (`json:"name,omitempty" protobuf:"..."`), like `StructTag.Get`. */
export function structTag(tag: string, key: string): string | undefined {
  let rest = tag;
  while (rest.length > 0) {
    rest = rest.replace(/^ +/, '');
    const m = /^([^\s:"]+):"((?:[^"\\]|\\.)*)"/.exec(rest);
    if (!m) return undefined;
    if (m[1] === key) return m[2].replace(/\\(.)/g, '$1');
    rest = rest.slice(m[0].length);
  }
  return undefined;
}

/** The `json` tag of a field: its name (`''` when the tag names none) and options. */
export interface JsonTag {
  readonly name: string;
  readonly omitempty: boolean;
  readonly inline: boolean;
  /** `json:",string"`: the value travels as a JSON string. */
  readonly string: boolean;
  readonly skip: boolean;
}

export function jsonTag(tag: string): JsonTag | undefined {
  const value = structTag(tag, 'json');
  if (value === undefined) return undefined;
  const [name, ...options] = value.split(',');
  return {
    name,
    omitempty: options.includes('omitempty'),
    inline: options[0] === 'inline',
    string: options[0] === 'string',
    skip: name === '-' && options.length === 0,
  };
}

/** The `protobuf` tag of a field: `<wire>,<number>,<opt|rep|req>,name=<name>,...`. */
export interface ProtobufTag {
  readonly wire: string;
  readonly number: number;
  readonly repeated: boolean;
  readonly name?: string;
}

export function protobufTag(tag: string, where: string): ProtobufTag | undefined {
  const value = structTag(tag, 'protobuf');
  if (value === undefined) return undefined;
  const [wire, number, ...options] = value.split(',');
  const n = Number(number);
  if (!Number.isInteger(n) || n < 1) throw new SchemaGenError(`${where}: unreadable protobuf tag "${value}"`);
  // The label may be missing (`bytes,2,name=spec`); go-to-protobuf goes by the Go type anyway.
  const label = ['opt', 'rep', 'req'].includes(options[0]) ? options.shift() : undefined;
  const name = options.find((o) => o.startsWith('name='))?.slice('name='.length);
  return { wire, number: n, repeated: label === 'rep', ...(name === undefined ? {} : { name }) };
}

/**
 * gengo's comment tags: each line `+name=value` (or `+name`, value `''`), trimmed, by name in
 * order of appearance. Lines not starting with `+` are ignored.
 */
export function commentTags(lines: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const raw of lines) {
    const line = raw.trim();
    if (!line.startsWith('+')) continue;
    const body = line.slice(1);
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const value = eq < 0 ? '' : body.slice(eq + 1);
    out.set(name, [...(out.get(name) ?? []), value]);
  }
  return out;
}

/** The single value of tag `name`, or undefined; two different values are an error. */
export function singleTag(tags: Map<string, string[]>, name: string, where: string): string | undefined {
  const values = tags.get(name);
  if (values === undefined) return undefined;
  if (new Set(values).size > 1) throw new SchemaGenError(`${where}: +${name} given twice with different values`);
  return values[0];
}

/**
 * Whether a comment block carries prose (what openapi-gen would turn into a description): a
 * line that is neither empty, a `+marker`, a one-line `TODO`, nor after a `---` line. Only the
 * presence is used (kube's v3 documents wrap a `$ref` in `allOf` when it has siblings).
 */
export function hasProse(lines: readonly string[]): boolean {
  for (const raw of lines) {
    if (raw === '---' || raw.trim() === '---') return false;
    const line = raw.trim();
    if (line === '' || line.startsWith('+') || line.startsWith('TODO')) continue;
    return true;
  }
  return false;
}
