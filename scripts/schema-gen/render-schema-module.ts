import { type ProtoField, refOf, SchemaGenError, type UpstreamFacts, type UpstreamSchema } from './facts.js';
import type { ModuleConfig } from './module-config.js';

/**
 * Renders an Orch schema module (TypeScript source, before formatting) from upstream facts:
 * one `namedType` constant per generated definition, dependencies first; `x-kubernetes-*`
 * markers become `x-orch-*`; every property gets its protobuf field number; references to types
 * Orch already defines use Orch's constants. Pure: the same facts and config give the same text.
 * Throws `SchemaGenError` naming the definition and field for anything it cannot map.
 */

/** Source code to print verbatim. */
class Code {
  constructor(readonly text: string) {}
}

/** `{ ...base, extra }`: a named type with field-level additions. */
class Spread {
  constructor(
    readonly base: string,
    readonly extra: Record<string, Node>,
  ) {}
}

type Node = Code | Spread | null | boolean | number | string | Node[] | { [key: string]: Node };

/** Upstream extensions and the Orch markers they become. */
const MARKERS: Readonly<Record<string, string>> = {
  'x-kubernetes-list-type': 'x-orch-list-type',
  'x-kubernetes-list-map-keys': 'x-orch-list-map-keys',
  'x-kubernetes-map-type': 'x-orch-map-type',
  'x-kubernetes-preserve-unknown-fields': 'x-orch-preserve-unknown-fields',
  'x-kubernetes-int-or-string': 'x-orch-int-or-string',
  'x-kubernetes-embedded-resource': 'x-orch-embedded-resource',
  'x-kubernetes-patch-strategy': 'x-orch-patch-strategy',
  'x-kubernetes-patch-merge-key': 'x-orch-patch-merge-key',
};

/** Plain OpenAPI keywords copied as they are, in the order they are written. */
const KEYWORDS = [
  'type',
  'format',
  'required',
  'enum',
  'default',
  'nullable',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'pattern',
] as const;

const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);
const GVK = 'x-kubernetes-group-version-kind';
const STRUCTURE = new Set(['properties', 'items', 'additionalProperties', 'allOf', '$ref']);

interface Context {
  readonly facts: UpstreamFacts;
  readonly config: ModuleConfig;
  /** Generated definitions: upstream name → constant name. */
  readonly constants: Map<string, string>;
  /** Imports needed: module → names. */
  readonly imports: Map<string, Set<string>>;
}

function need(ctx: Context, from: string, name: string): void {
  const names = ctx.imports.get(from) ?? new Set<string>();
  names.add(name);
  ctx.imports.set(from, names);
}

/** `io.k8s.api.rbac.v1.PolicyRule` → `policyRuleSchema`. */
export function constantName(upstream: string): string {
  const last = upstream.slice(upstream.lastIndexOf('.') + 1);
  return `${last[0].toLowerCase()}${last.slice(1)}Schema`;
}

function internalName(upstream: string, config: ModuleConfig): string {
  const { upstream: from, internal } = config.namePrefix;
  if (!upstream.startsWith(from)) throw new SchemaGenError(`${upstream}: name outside ${from}*`);
  return internal + upstream.slice(from.length);
}

/** The keywords and markers of `s` (not its structure), checked and renamed. */
function convertKeywords(s: UpstreamSchema, where: string): Record<string, Node> {
  const out: Record<string, Node> = {};
  for (const key of Object.keys(s)) {
    const known = (KEYWORDS as readonly string[]).includes(key) || key in MARKERS || STRUCTURE.has(key);
    if (!known && key !== GVK) throw new SchemaGenError(`${where}: no mapping for "${key}"`);
  }
  if (s.type !== undefined && !TYPES.has(s.type)) throw new SchemaGenError(`${where}: unknown type ${s.type}`);
  for (const key of KEYWORDS) if (s[key] !== undefined) out[key] = s[key] as Node;
  return out;
}

/** The `x-kubernetes-*` markers of `s` as Orch's `x-orch-*` markers. */
function convertMarkers(s: UpstreamSchema): Record<string, Node> {
  const out: Record<string, Node> = {};
  for (const [from, to] of Object.entries(MARKERS)) if (s[from] !== undefined) out[to] = s[from] as Node;
  return out;
}

/** The schema of a value: a reference to a generated constant, or an inline schema. */
function convert(ctx: Context, s: UpstreamSchema, where: string): Node {
  const ref = refOf(s);
  if (ref !== undefined) {
    const constant = ctx.constants.get(ref);
    if (constant === undefined) throw new SchemaGenError(`${where}: ${ref} is neither generated nor mapped here`);
    const extra = { ...convertKeywords(s, where), ...convertMarkers(s) };
    return Object.keys(extra).length === 0 ? new Code(constant) : new Spread(constant, extra);
  }
  const out = convertKeywords(s, where);
  if (s.items !== undefined) out.items = convert(ctx, s.items, `${where}[]`);
  if (typeof s.additionalProperties === 'boolean') out.additionalProperties = s.additionalProperties;
  else if (s.additionalProperties !== undefined) {
    out.additionalProperties = convert(ctx, s.additionalProperties, `${where}{}`);
  }
  return { ...out, ...convertMarkers(s) };
}

function checkLabel(s: UpstreamSchema, pf: ProtoField, where: string): void {
  const isMap = s.type === 'object' && typeof s.additionalProperties === 'object' && !s.properties;
  const expected = s.type === 'array' ? 'repeated' : isMap ? 'map' : 'optional';
  if (pf.label !== expected) throw new SchemaGenError(`${where}: protobuf label ${pf.label}, JSON shape ${expected}`);
  if (!Number.isInteger(pf.number) || pf.number < 1) throw new SchemaGenError(`${where}: bad field number`);
}

function withField(node: Node, number: number): Node {
  const pb = { 'x-orch-protobuf-field': number };
  if (node instanceof Code) return new Spread(node.text, pb);
  if (node instanceof Spread) return new Spread(node.base, { ...node.extra, ...pb });
  return { ...(node as Record<string, Node>), ...pb };
}

/** One property of a definition, with its protobuf number. */
function convertProperty(ctx: Context, def: string, name: string, s: UpstreamSchema, isKind: boolean): Node {
  const where = `${def}.${name}`;
  const tm = ctx.config.typeMeta;
  if (isKind && (name === 'apiVersion' || name === 'kind')) {
    if (s.type !== 'string' || Object.keys(s).length !== 1) throw new SchemaGenError(`${where}: not a TypeMeta field`);
    need(ctx, tm.from, tm[name]);
    return new Code(tm[name]);
  }
  const pf = ctx.facts.protobuf[def]?.[name];
  if (pf === undefined) throw new SchemaGenError(`${where}: no protobuf field number`);
  checkLabel(s, pf, where);
  const ref = refOf(s);
  const external = ref === undefined ? undefined : ctx.config.external[ref];
  if (external) {
    for (const n of external.names) need(ctx, external.from, n);
    const extra = { ...convertKeywords(s, where), ...convertMarkers(s) };
    const code = external.field(pf.number);
    return Object.keys(extra).length === 0 ? new Code(code) : new Spread(code, extra);
  }
  return withField(convert(ctx, s, where), pf.number);
}

/**
 * Properties in Go struct order: the TypeMeta fields first, then by protobuf number (go-to-protobuf
 * numbers fields in struct order). Decoders give objects their keys in this order.
 */
function propertyOrder(ctx: Context, def: string, names: string[]): string[] {
  const pb = ctx.facts.protobuf[def] ?? {};
  const typeMeta = ['apiVersion', 'kind'];
  const rank = (n: string) => pb[n]?.number ?? (typeMeta.includes(n) ? typeMeta.indexOf(n) - 2 : 0);
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function convertDefinition(ctx: Context, def: string): Node {
  const s = ctx.facts.schemas[def];
  const out = { ...convertKeywords(s, def), ...convertMarkers(s) };
  if (s.items !== undefined || s.additionalProperties !== undefined || refOf(s) !== undefined) {
    throw new SchemaGenError(`${def}: only object definitions are supported`);
  }
  const isKind = s[GVK] !== undefined;
  const props = s.properties ?? {};
  for (const name of Object.keys(ctx.facts.protobuf[def] ?? {})) {
    if (!(name in props)) throw new SchemaGenError(`${def}: protobuf field ${name} has no JSON property`);
  }
  const properties: Record<string, Node> = {};
  for (const name of propertyOrder(ctx, def, Object.keys(props))) {
    properties[name] = convertProperty(ctx, def, name, props[name], isKind);
  }
  if (Object.keys(properties).length > 0) out.properties = properties;
  return out;
}

/** Definitions referenced from `s`. */
function referencesOf(s: UpstreamSchema): string[] {
  const ref = refOf(s);
  const own = ref === undefined ? [] : [ref];
  const nested = [
    ...Object.values(s.properties ?? {}),
    ...(s.items ? [s.items] : []),
    ...(typeof s.additionalProperties === 'object' ? [s.additionalProperties] : []),
  ];
  return [...own, ...nested.flatMap(referencesOf)];
}

/** The generated definitions, each after the definitions it references. */
function generationOrder(facts: UpstreamFacts, config: ModuleConfig): string[] {
  const order: string[] = [];
  const visiting = new Set<string>();
  const visit = (def: string, from: string): void => {
    if (order.includes(def) || config.external[def]) return;
    if (visiting.has(def)) throw new SchemaGenError(`${def}: recursive definitions are not supported`);
    const s = facts.schemas[def];
    if (s === undefined) throw new SchemaGenError(`${from}: ${def} is not in the facts`);
    if (config.types[def] === undefined) throw new SchemaGenError(`${def}: needs a description of our own`);
    visiting.add(def);
    for (const ref of referencesOf(s)) visit(ref, def);
    visiting.delete(def);
    order.push(def);
  };
  for (const def of Object.keys(config.types).sort()) visit(def, 'config');
  return order;
}

function printKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

function print(node: Node): string {
  if (node instanceof Code) return node.text;
  if (node instanceof Spread) {
    const extra = Object.entries(node.extra).map(([k, v]) => `, ${printKey(k)}: ${print(v)}`);
    return `{ ...${node.base}${extra.join('')} }`;
  }
  if (Array.isArray(node)) return `[${node.map(print).join(', ')}]`;
  if (node !== null && typeof node === 'object') {
    return `{ ${Object.entries(node)
      .map(([k, v]) => `${printKey(k)}: ${print(v)}`)
      .join(', ')} }`;
  }
  return JSON.stringify(node);
}

/** The module source for `config` (unformatted; see `formatModule`). */
export function renderSchemaModule(facts: UpstreamFacts, config: ModuleConfig): string {
  const ctx: Context = { facts, config, constants: new Map(), imports: new Map() };
  const order = generationOrder(facts, config);
  const decls: string[] = [];
  for (const def of order) {
    const name = internalName(def, config);
    const body = print(convertDefinition(ctx, def));
    const description = config.types[def];
    ctx.constants.set(def, constantName(def));
    decls.push(
      `/** \`${name}\`. */\nexport const ${constantName(def)}: Schema = namedType(${JSON.stringify(name)}, ${JSON.stringify(description)}, ${body});`,
    );
  }
  need(ctx, config.imports.namedType, 'namedType');
  const imports = [...ctx.imports].map(([from, names]) => `import { ${[...names].sort().join(', ')} } from '${from}';`);
  imports.push(`import type { Schema } from '${config.imports.schema}';`);
  const source = facts.source as { repository?: string; openapi?: { commit?: string } };
  const header = [
    `// Generated by \`${config.command}\` from ${config.facts}`,
    `// (${source.repository ?? 'upstream'} OpenAPI v3 at ${source.openapi?.commit ?? 'an unrecorded commit'}). Do not edit by hand.`,
  ];
  return `${header.join('\n')}\n${imports.join('\n')}\n\n${decls.join('\n\n')}\n`;
}
