/**
 * YAML request bodies decoded as kube-apiserver decodes them (`sigs.k8s.io/yaml.YAMLToJSON`
 * over go-yaml v2, then strict mode for `fieldValidation`):
 *
 * - only the first document counts; an empty stream is `null`;
 * - plain scalars are typed the go-yaml v2 way (`yes` is true, `017` is 15, timestamps stay
 *   strings), non-string keys become strings (`1`, `1.5`, `true`);
 * - anchors, aliases and `<<` merges are expanded (merged keys then explicit ones, in order);
 * - a repeated key keeps its last value and is reported as go-yaml's strict mode words it:
 *   `line 4: key "b" already set in map` (the line of the repeated value).
 *
 * Syntax errors throw `YamlSyntaxError` with go-yaml's wording where the problem is one of the
 * common ones (`yaml: line 3: mapping values are not allowed in this context`, ...); otherwise
 * the parser's own message after `yaml: line N: `. Pure and synchronous.
 */
import {
  Composer,
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  Parser,
  type Scalar,
  type YAMLMap,
} from 'yaml';
import { goFormatFloat32G, goFormatFloatG, goQuote } from '../util/go-strconv.js';
import { stringifyJson } from '../util/json-text.js';
import { UnsupportedValueError, YamlSyntaxError } from './errors.js';
import { MAX_YAML_DEPTH, tooDeepOffset, yamlTooDeepMessage } from './yaml-depth.js';
import { yamlErrorMessage } from './yaml-errors.js';
import { isMergeKey, type ResolvedScalar, resolvePlainScalar } from './yaml-resolve.js';

export interface YamlStrictResult {
  readonly value: unknown;
  /** go-yaml's strict-mode reports, in document order: `line 4: key "b" already set in map`. */
  readonly duplicates: readonly string[];
}

/** The multi-line error go-yaml's strict mode returns for `duplicates`. */
export function yamlStrictErrorText(duplicates: readonly string[]): string {
  return `yaml: unmarshal errors:\n  ${duplicates.join('\n  ')}`;
}

const TAG = 'tag:yaml.org,2002:';

/** A decoded key: its go-yaml type matters for duplicate detection (`1` and `"1"` differ). */
interface Key {
  readonly kind: ResolvedScalar['tag'];
  readonly value: unknown;
}

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= 400_000) return 0.99;
  if (decodeCount >= 4_000_000) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - 400_000) / 3_600_000);
}

class Decoder {
  readonly duplicates: string[] = [];
  private decodeCount = 0;
  private aliasCount = 0;
  private aliasDepth = 0;
  /** Collections being decoded: aliases may nest deeper than the text does. */
  private depth = 0;
  private readonly expanding = new Set<Node>();

  constructor(
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
  ) {}

  private lineOf(node: Node | null, fallback: number): number {
    const offset = node?.range?.[0] ?? fallback;
    return this.lines.linePos(offset).line;
  }

  decode(node: Node | null): unknown {
    this.decodeCount++;
    if (this.aliasDepth > 0) this.aliasCount++;
    if (
      this.aliasCount > 100 &&
      this.decodeCount > 1000 &&
      this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)
    ) {
      throw new YamlSyntaxError('yaml: document contains excessive aliasing');
    }
    if (node === null) return null;
    if (isAlias(node)) return this.alias(node.source, node.resolve(this.doc) ?? null);
    if (isScalar(node)) return this.scalarValue(node);
    if (!isSeq(node) && !isMap(node)) return null;
    if (++this.depth > MAX_YAML_DEPTH) throw new YamlSyntaxError(yamlTooDeepMessage(this.lineOf(node, 0)));
    try {
      if (isSeq(node)) return node.items.map((item) => this.decode(item as Node | null));
      const out = new Map<string, { key: Key; value: unknown }>();
      this.mapping(node, out);
      return toJsonObject(out);
    } finally {
      this.depth--;
    }
  }

  private alias(name: string, target: Node | null): unknown {
    // go-yaml's anchor names stop at the first character outside [0-9A-Za-z_-].
    if (!target) throw new YamlSyntaxError(`yaml: unknown anchor '${/^[\w-]*/.exec(name)?.[0]}' referenced`);
    if (this.expanding.has(target)) throw new YamlSyntaxError(`yaml: anchor '${name}' value contains itself`);
    this.expanding.add(target);
    this.aliasDepth++;
    try {
      return this.decode(target);
    } finally {
      this.aliasDepth--;
      this.expanding.delete(target);
    }
  }

  private resolveScalar(node: Scalar): ResolvedScalar {
    // The parser decodes `!!binary` itself, even under the failsafe schema.
    if (node.value instanceof Uint8Array) return { tag: 'str', value: Buffer.from(node.value).toString('utf8') };
    const text = String(node.value ?? '');
    const tag = node.tag;
    if (!tag) {
      return node.type === 'PLAIN' || node.type === undefined ? resolvePlainScalar(text) : { tag: 'str', value: text };
    }
    if (!tag.startsWith(TAG)) return { tag: 'str', value: text };
    const want = tag.slice(TAG.length);
    if (want === 'str' || want === 'timestamp') return { tag: 'str', value: text };
    if (want === 'binary')
      return { tag: 'str', value: Buffer.from(text.replace(/\s/g, ''), 'base64').toString('utf8') };
    const got = resolvePlainScalar(text);
    if (got.tag === want) return got;
    if (want === 'float' && got.tag === 'int') return { tag: 'float', value: Number(got.value) };
    throw new YamlSyntaxError(`yaml: cannot decode !!${got.tag} \`${text}\` as a !!${want}`);
  }

  private scalarValue(node: Scalar): unknown {
    const r = this.resolveScalar(node);
    if (r.tag === 'float' && !Number.isFinite(r.value)) {
      throw new UnsupportedValueError(`json: unsupported value: ${goFormatFloatG(r.value)}`);
    }
    return r.value;
  }

  private key(node: Node | null): Key {
    if (node === null) return { kind: 'null', value: null };
    if (isAlias(node)) return this.key(node.resolve(this.doc) ?? null);
    if (!isScalar(node)) {
      throw new YamlSyntaxError(`yaml: invalid map key: ${stringifyJson(this.decode(node))}`);
    }
    const r = this.resolveScalar(node);
    return { kind: r.tag, value: r.value };
  }

  /** go-yaml's `d.mapping` into a generic map, merges included, strict-mode reports kept. */
  private mapping(node: YAMLMap, out: Map<string, { key: Key; value: unknown }>): void {
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null;
      const valueNode = pair.value as Node | null;
      if (isScalar(keyNode) && !keyNode.tag && keyNode.type === 'PLAIN' && isMergeKey(String(keyNode.value))) {
        this.merge(valueNode, out);
        continue;
      }
      const key = this.key(keyNode);
      const value = this.decode(valueNode);
      const id = `${key.kind}:${String(key.value)}`;
      if (out.has(id)) {
        const fallback = keyNode?.range?.[1] ?? 0;
        this.duplicates.push(`line ${this.lineOf(valueNode, fallback)}: key ${goKeyText(key)} already set in map`);
      }
      out.set(id, { key, value });
    }
  }

  private merge(node: Node | null, out: Map<string, { key: Key; value: unknown }>): void {
    const target = isAlias(node) ? (node.resolve(this.doc) ?? null) : node;
    if (isAlias(node) && !target) throw new YamlSyntaxError(`yaml: unknown anchor '${node.source}' referenced`);
    if (isMap(target)) {
      this.mergeMap(target, isAlias(node), out);
      return;
    }
    if (isSeq(target)) {
      // go-yaml merges the maps of a sequence last to first.
      for (let i = target.items.length - 1; i >= 0; i--) {
        const item = target.items[i] as Node | null;
        const m = isAlias(item) ? (item.resolve(this.doc) ?? null) : item;
        if (!isMap(m)) throw new YamlSyntaxError(MERGE_WANTS_MAP);
        this.mergeMap(m, isAlias(item), out);
      }
      return;
    }
    throw new YamlSyntaxError(MERGE_WANTS_MAP);
  }

  private mergeMap(map: YAMLMap, viaAlias: boolean, out: Map<string, { key: Key; value: unknown }>): void {
    if (viaAlias) this.aliasDepth++;
    try {
      this.mapping(map, out);
    } finally {
      if (viaAlias) this.aliasDepth--;
    }
  }
}

const MERGE_WANTS_MAP = 'yaml: map merge requires map or sequence of maps as the value';

/** `%#v` of a go-yaml key in the duplicate report. */
function goKeyText(key: Key): string {
  if (key.kind === 'str' || key.kind === 'timestamp') return goQuote(String(key.value));
  if (key.kind === 'null') return '<nil>';
  if (key.kind === 'float') return goFormatFloatG(key.value as number);
  return String(key.value);
}

const FLOAT_KEY_NAMES: Readonly<Record<string, string>> = { '+Inf': '.inf', '-Inf': '-.inf', NaN: '.nan' };

/** `%+#v` of a decoded scalar (collections are shown as JSON, an approximation). */
function goValueText(value: unknown): string {
  if (value === null) return '<nil>';
  if (typeof value === 'string') return goQuote(value);
  return stringifyJson(value) ?? 'null';
}

/** `sigs.k8s.io/yaml`'s conversion of a go-yaml map to a JSON object. */
function toJsonObject(map: Map<string, { key: Key; value: unknown }>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of map.values()) {
    let name: string;
    switch (key.kind) {
      case 'str':
      case 'timestamp':
        name = String(key.value);
        break;
      case 'int':
        name = String(key.value);
        break;
      case 'float':
        name = FLOAT_KEY_NAMES[goFormatFloat32G(key.value as number)] ?? goFormatFloat32G(key.value as number);
        break;
      case 'bool':
        name = key.value ? 'true' : 'false';
        break;
      default:
        throw new YamlSyntaxError(`unsupported map key of type: %!s(<nil>), key: <nil>, value: ${goValueText(value)}`);
    }
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Decodes the first document of `text` and lists go-yaml's strict-mode duplicate reports. */
export function decodeYamlStrict(text: string): YamlStrictResult {
  const lines = new LineCounter();
  const list = parseDocuments(text, lines);
  if (list.length === 0) return { value: null, duplicates: [] };
  const doc = list[0];
  // go-yaml stops reading once the root node is complete: problems after it go unnoticed.
  const rootEnd = (doc.contents as Node | null)?.range?.[1] ?? Number.POSITIVE_INFINITY;
  const errors = doc.errors.filter((e) => e.pos[0] < rootEnd || e.code !== 'UNEXPECTED_TOKEN');
  if (errors.length > 0) throw new YamlSyntaxError(yamlErrorMessage(text, errors, lines));
  const decoder = new Decoder(doc, lines);
  const value = decoder.decode(doc.contents as Node | null);
  return { value, duplicates: decoder.duplicates };
}

/**
 * The documents of `text` (what `parseAllDocuments` returns), composed only after the parse tree
 * has been checked for depth: a first document nested deeper than the limit is an error, a
 * later one (which go-yaml never reads) is dropped with everything after it.
 */
function parseDocuments(text: string, lines: LineCounter): Document.Parsed[] {
  const tokens = Array.from(new Parser(lines.addNewLine).parse(text));
  let documents = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type !== 'document') continue;
    const deep = tooDeepOffset(token);
    if (deep !== undefined) {
      if (documents === 0) throw new YamlSyntaxError(yamlTooDeepMessage(lines.linePos(deep).line));
      tokens.length = i;
      break;
    }
    documents++;
  }
  const composer = new Composer({ schema: 'failsafe', uniqueKeys: false });
  return Array.from(composer.compose(tokens));
}
