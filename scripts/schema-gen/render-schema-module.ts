import { dirname, relative } from 'node:path';
import { type ProtoField, refOf, SchemaGenError, type UpstreamFacts, type UpstreamSchema } from './facts.js';
import type { ModuleConfig } from './module-config.js';
import { type ProtobufLayout, propertyOrder, protobufLayout } from './protobuf-layout.js';
import { Code, convertKeywords, convertMarkers, GVK, MARKERS, type Node, print, Spread } from './schema-nodes.js';

/**
 * Renders an Orch schema module (TypeScript source, before formatting) from upstream facts:
 * one `namedType` constant per generated definition, dependencies first; `x-kubernetes-*`
 * markers become `x-orch-*`; every property gets its protobuf field number (and explicit
 * presence for Go pointers to scalars); structs Go inlines are listed in
 * `x-orch-protobuf-inline`; a zero default of an `omitempty` field is published, not applied
 * (`x-orch-published-default`); references to types Orch already defines, or another generated
 * module provides, use those constants. Kinds carry Orch's description; other types may have
 * none. Pure: the same facts and config give the same text. Throws `SchemaGenError` naming the
 * definition and field for anything it cannot map.
 */

/** A definition another generated module exports: its constant and module (repository path). */
export interface ProvidedType {
  readonly constant: string;
  readonly from: string;
}

interface Context {
  readonly facts: UpstreamFacts;
  readonly config: ModuleConfig;
  /** Generated definitions: upstream name → constant name. */
  readonly constants: Map<string, string>;
  /** Definitions of other generated modules. */
  readonly provided: ReadonlyMap<string, ProvidedType>;
  /** Imports needed: module (repository path) → names. */
  readonly imports: Map<string, Set<string>>;
}

function need(ctx: Context, from: string, name: string): void {
  const names = ctx.imports.get(from) ?? new Set<string>();
  names.add(name);
  ctx.imports.set(from, names);
}

/** The constant a reference to `def` is written with (imported when it lives elsewhere). */
function constantFor(ctx: Context, def: string, where: string): string {
  const own = ctx.constants.get(def);
  if (own !== undefined) return own;
  const provided = ctx.provided.get(def);
  if (provided) {
    need(ctx, provided.from, provided.constant);
    return provided.constant;
  }
  const external = ctx.config.external[def];
  if (external) {
    for (const n of external.names) need(ctx, external.from, n);
    return external.names[0];
  }
  throw new SchemaGenError(`${where}: ${def} is neither generated nor mapped here`);
}

/**
 * `io.k8s.api.rbac.v1.PolicyRule` → `policyRuleSchema`; a leading acronym is lowercased whole
 * (`HTTPGetAction` → `httpGetActionSchema`, `SELinuxOptions` → `seLinuxOptionsSchema`).
 */
export function constantName(upstream: string): string {
  const last = upstream.slice(upstream.lastIndexOf('.') + 1);
  const caps = /^[A-Z]+/.exec(last)?.[0] ?? '';
  const lower = caps.length > 1 && caps.length < last.length ? caps.length - 1 : caps.length;
  return `${last.slice(0, lower).toLowerCase()}${last.slice(lower)}Schema`;
}

function internalName(upstream: string, config: ModuleConfig): string {
  const { upstream: from, internal } = config.namePrefix;
  if (!upstream.startsWith(from)) throw new SchemaGenError(`${upstream}: name outside ${from}*`);
  return internal + upstream.slice(from.length);
}

/** The schema of a value: a reference to a named type's constant, or an inline schema. */
function convert(ctx: Context, s: UpstreamSchema, where: string): Node {
  const ref = refOf(s);
  if (ref !== undefined) {
    const constant = constantFor(ctx, ref, where);
    const markers = convertMarkers(s);
    const extra: Record<string, Node> = { ...convertKeywords(s, where), ...markers };
    const overrides = fieldOverrides(ctx, ref, markers, where);
    if (Object.keys(overrides).length > 0) extra['x-orch-field-overrides'] = overrides;
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

/** Markers only a field can carry (the patch directives); others belong to the type too. */
const FIELD_MARKERS = new Set(['x-orch-patch-strategy', 'x-orch-patch-merge-key']);

/**
 * The referenced type's own values of the type markers a field sets differently (`null` where
 * the type has none), so that publishing keeps the type's definition intact.
 */
function fieldOverrides(ctx: Context, ref: string, markers: Record<string, Node>, where: string): Record<string, Node> {
  const out: Record<string, Node> = {};
  for (const [key, value] of Object.entries(markers)) {
    if (FIELD_MARKERS.has(key)) continue;
    const target = ctx.facts.schemas[ref];
    const external = ctx.config.external[ref]?.markers;
    if (target === undefined && external === undefined) {
      throw new SchemaGenError(`${where}: overrides ${key} of ${ref}, a type of another module`);
    }
    const own = ((target ? convertMarkers(target)[key] : external?.[key]) ?? null) as Node;
    if (JSON.stringify(own) !== JSON.stringify(value)) out[key] = own;
  }
  return out;
}

function checkLabel(s: UpstreamSchema, pf: ProtoField, where: string): void {
  const isMap = s.type === 'object' && typeof s.additionalProperties === 'object' && !s.properties;
  const expected = s.type === 'array' ? 'repeated' : isMap ? 'map' : 'optional';
  if (pf.label !== expected) throw new SchemaGenError(`${where}: protobuf label ${pf.label}, JSON shape ${expected}`);
  if (!Number.isInteger(pf.number) || pf.number < 1) throw new SchemaGenError(`${where}: bad field number`);
}

/** `node` with `extra` keys added (a bare constant becomes a spread). */
function withKeys(node: Node, extra: Record<string, Node>): Node {
  if (Object.keys(extra).length === 0) return node;
  if (node instanceof Code) return new Spread(node.text, extra);
  if (node instanceof Spread) return new Spread(node.base, { ...node.extra, ...extra });
  return { ...(node as Record<string, Node>), ...extra };
}

/** Upstream markers as Orch writes them: the keys Orch's own markers may not set. */
const UPSTREAM_MARKERS = new Set(Object.values(MARKERS));

/** Orch's own markers of a property (see `ModuleConfig.orchMarkers`), checked. */
function orchMarkersOf(ctx: Context, def: string, name: string): Record<string, Node> {
  const markers = ctx.config.orchMarkers?.[def]?.[name] ?? {};
  for (const key of Object.keys(markers)) {
    if (!key.startsWith('x-orch-') || UPSTREAM_MARKERS.has(key) || key.startsWith('x-orch-protobuf-')) {
      throw new SchemaGenError(`${def}.${name}: ${key} is not a marker of Orch's own`);
    }
  }
  return { ...markers };
}

/** One property of a definition, with its protobuf number. */
function convertProperty(
  ctx: Context,
  def: string,
  name: string,
  s: UpstreamSchema,
  isKind: boolean,
  layout: ProtobufLayout,
): Node {
  const where = `${def}.${name}`;
  const tm = ctx.config.typeMeta;
  if (isKind && (name === 'apiVersion' || name === 'kind')) {
    if (s.type !== 'string' || Object.keys(s).length !== 1) throw new SchemaGenError(`${where}: not a TypeMeta field`);
    need(ctx, tm.from, tm[name]);
    return new Code(tm[name]);
  }
  const pf = layout.properties.get(name)?.field;
  if (pf === undefined) throw new SchemaGenError(`${where}: no protobuf field number`);
  checkLabel(s, pf, where);
  const pb: Record<string, Node> = { 'x-orch-protobuf-field': pf.number };
  // A zero value of a Go pointer to a scalar is a set value (messages are always written).
  const scalar = refOf(s) === undefined && s.type !== undefined && s.type !== 'object' && s.type !== 'array';
  if (pf.pointer === true && scalar) pb['x-orch-protobuf-presence'] = 'explicit';
  let node = convert(ctx, s, where);
  if (pf.omitEmpty === true) node = publishedOnlyDefault(node, where);
  return withKeys(node, { ...orchMarkersOf(ctx, def, name), ...pb });
}

/**
 * A scalar whose default kube publishes but never writes (the zero value of an `omitempty`
 * field): `default` becomes `x-orch-published-default`, so that it is published, not applied.
 */
function publishedOnlyDefault(node: Node, where: string): Node {
  const inline = node !== null && typeof node === 'object' && !Array.isArray(node);
  if (!inline || node instanceof Code || node instanceof Spread || !('default' in node)) {
    throw new SchemaGenError(`${where}: an omitempty default on a value that is not an inline scalar`);
  }
  const { default: value, ...rest } = node;
  return { ...rest, 'x-orch-published-default': value };
}

function convertDefinition(ctx: Context, def: string): Node {
  const s = ctx.facts.schemas[def];
  const out = { ...convertKeywords(s, def), ...convertMarkers(s) };
  if (s.items !== undefined || s.additionalProperties !== undefined || refOf(s) !== undefined) {
    throw new SchemaGenError(`${def}: only object definitions are supported`);
  }
  const isKind = s[GVK] !== undefined;
  const props = s.properties ?? {};
  const layout = protobufLayout(ctx.facts, def, s);
  const order = propertyOrder(layout, Object.keys(props));
  if (layout.inlined.length > 0) {
    out['x-orch-protobuf-inline'] = layout.inlined.map((field) => ({
      field: field.number,
      properties: order.filter((name) => layout.properties.get(name)?.via === field),
    }));
  }
  const properties: Record<string, Node> = {};
  for (const name of Object.keys(ctx.config.orchMarkers?.[def] ?? {})) {
    if (!(name in props)) throw new SchemaGenError(`${def}.${name}: Orch markers for a property upstream lacks`);
  }
  for (const name of order) {
    properties[name] = convertProperty(ctx, def, name, props[name], isKind, layout);
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

/**
 * The definitions `config` generates from `facts`, each after the definitions it references:
 * its types and everything they reach, except what Orch defines (`external`) or another
 * module provides.
 */
export function generationOrder(
  facts: UpstreamFacts,
  config: ModuleConfig,
  provided: ReadonlyMap<string, ProvidedType> = new Map(),
): string[] {
  const order: string[] = [];
  const visiting = new Set<string>();
  const visit = (def: string, from: string): void => {
    if (order.includes(def) || config.external[def] || provided.has(def)) return;
    if (visiting.has(def)) throw new SchemaGenError(`${def}: recursive definitions are not supported`);
    const s = facts.schemas[def];
    if (s === undefined) throw new SchemaGenError(`${from}: ${def} is not in the facts`);
    if (s[GVK] !== undefined && config.types[def] === undefined) {
      throw new SchemaGenError(`${def}: a kind needs a description of our own`);
    }
    visiting.add(def);
    for (const ref of referencesOf(s)) visit(ref, def);
    visiting.delete(def);
    order.push(def);
  };
  for (const def of Object.keys(config.types).sort()) visit(def, 'config');
  return order;
}

/** `to` (a repository path) as an import specifier in the module at `from`. */
function specifier(from: string, to: string): string {
  const path = relative(dirname(from), to).replace(/\.ts$/, '.js');
  return path.startsWith('.') ? path : `./${path}`;
}

/** The provenance in the module header. */
function sourceLine(facts: UpstreamFacts): string {
  const source = facts.source as {
    repository?: string;
    openapi?: { commit?: string };
    repositories?: { repository: string; tag: string; commit: string }[];
  };
  if (source.repositories) {
    const repos = source.repositories.map((r) => `${r.repository} ${r.tag} ${r.commit.slice(0, 12)}`);
    return `Go declarations: ${repos.join(', ')}`;
  }
  return `${source.repository ?? 'upstream'} OpenAPI v3 at ${source.openapi?.commit ?? 'an unrecorded commit'}`;
}

/** The module source for `config` (unformatted; see `formatModule`). */
export function renderSchemaModule(
  facts: UpstreamFacts,
  config: ModuleConfig,
  provided: ReadonlyMap<string, ProvidedType> = new Map(),
): string {
  const ctx: Context = { facts, config, constants: new Map(), provided, imports: new Map() };
  const order = generationOrder(facts, config, provided);
  for (const def of Object.keys(config.orchMarkers ?? {})) {
    if (!order.includes(def)) throw new SchemaGenError(`${def}: Orch markers for a type this module does not generate`);
  }
  // Constants imported from other modules must not clash with the ones declared here.
  const imported = new Set(order.flatMap((def) => referencesOf(facts.schemas[def])).filter((d) => provided.has(d)));
  const taken = new Map([...imported].map((def) => [(provided.get(def) as ProvidedType).constant, def]));
  const decls: string[] = [];
  for (const def of order) {
    const name = internalName(def, config);
    const constant = constantName(def);
    if (taken.has(constant) && taken.get(constant) !== def) {
      throw new SchemaGenError(`${def}: constant ${constant} is also ${taken.get(constant)}`);
    }
    taken.set(constant, def);
    const body = print(convertDefinition(ctx, def));
    const description = config.types[def];
    ctx.constants.set(def, constant);
    const described = description === undefined ? 'undefined' : JSON.stringify(description);
    decls.push(
      `/** \`${name}\`. */\nexport const ${constant}: Schema = namedType(${JSON.stringify(name)}, ${described}, ${body});`,
    );
  }
  need(ctx, config.imports.namedType, 'namedType');
  const imports = [...ctx.imports].map(
    ([from, names]) => `import { ${[...names].sort().join(', ')} } from '${specifier(config.output, from)}';`,
  );
  imports.push(`import type { Schema } from '${specifier(config.output, config.imports.schema)}';`);
  const header = [
    `// Generated by \`${config.command}\` from ${config.facts}`,
    `// (${sourceLine(facts)}). Do not edit by hand.`,
  ];
  return `${header.join('\n')}\n${imports.join('\n')}\n\n${decls.join('\n\n')}\n`;
}
