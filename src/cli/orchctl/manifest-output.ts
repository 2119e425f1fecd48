/**
 * Printing converted objects as kubectl's printers do: YAML with keys sorted (JSON turned into
 * YAML, as sigs.k8s.io/yaml does) and block sequences unindented; JSON indented by four spaces
 * with `kind` and `apiVersion` first (Go's struct order of TypeMeta).
 */
import { stringify } from 'yaml';
import { isPlainObject } from '../../apis/schema/json-value.js';

export type OutputFormat = 'yaml' | 'json';

/** The formats `-o` accepts. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['json', 'yaml'];

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
  return out;
}

function typeMetaFirst(v: Record<string, unknown>): Record<string, unknown> {
  const { kind, apiVersion, ...rest } = v;
  return { kind, apiVersion, ...rest };
}

/** `items` as a core/v1 List, as kubectl wraps several objects. */
export function asList(items: readonly unknown[]): Record<string, unknown> {
  return { kind: 'List', apiVersion: 'v1', metadata: {}, items: [...items] };
}

/** The object in `format`, ending with a newline. */
export function formatObject(value: Record<string, unknown>, format: OutputFormat): string {
  if (format === 'json') {
    const top = typeMetaFirst(value);
    if (Array.isArray(top.items)) top.items = top.items.map((i) => (isPlainObject(i) ? typeMetaFirst(i) : i));
    return `${JSON.stringify(top, null, 4)}\n`;
  }
  return stringify(sortKeys(value), { lineWidth: 0, indentSeq: false, aliasDuplicateObjects: false });
}
