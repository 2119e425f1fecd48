import { SchemaGenError, type UpstreamSchema } from './facts.js';

/**
 * The value tree the renderer prints as TypeScript, and the mapping of upstream OpenAPI
 * keywords and extensions onto Orch's schema keywords and `x-orch-*` markers.
 */

/** Source code to print verbatim. */
export class Code {
  constructor(readonly text: string) {}
}

/** `{ ...base, extra }`: a named type with field-level additions. */
export class Spread {
  constructor(
    readonly base: string,
    readonly extra: Record<string, Node>,
  ) {}
}

export type Node = Code | Spread | null | boolean | number | string | Node[] | { [key: string]: Node };

/** Upstream extensions and the Orch markers they become. */
export const MARKERS: Readonly<Record<string, string>> = {
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
/** Kinds are recognised by it; it is not copied (the API server adds it when publishing). */
export const GVK = 'x-kubernetes-group-version-kind';
const STRUCTURE = new Set(['properties', 'items', 'additionalProperties', 'allOf', '$ref']);
/**
 * Extensions deliberately dropped: `x-kubernetes-unions` documents `+union` structs, but kube's
 * API server does not act on it (no server-side union normalization in v1.32).
 */
const IGNORED = new Set([GVK, 'x-kubernetes-unions']);

/** The keywords of `s` (not its structure or markers), checked. */
export function convertKeywords(s: UpstreamSchema, where: string): Record<string, Node> {
  const out: Record<string, Node> = {};
  for (const key of Object.keys(s)) {
    const known = (KEYWORDS as readonly string[]).includes(key) || key in MARKERS || STRUCTURE.has(key);
    if (!known && !IGNORED.has(key)) throw new SchemaGenError(`${where}: no mapping for "${key}"`);
  }
  if (s.type !== undefined && !TYPES.has(s.type)) throw new SchemaGenError(`${where}: unknown type ${s.type}`);
  for (const key of KEYWORDS) if (s[key] !== undefined) out[key] = s[key] as Node;
  return out;
}

/** The `x-kubernetes-*` markers of `s` as Orch's `x-orch-*` markers. */
export function convertMarkers(s: UpstreamSchema): Record<string, Node> {
  const out: Record<string, Node> = {};
  for (const [from, to] of Object.entries(MARKERS)) if (s[from] !== undefined) out[to] = s[from] as Node;
  return out;
}

function printKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/** TypeScript source of `node` (unformatted). */
export function print(node: Node): string {
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
