import type { CST } from 'yaml';

/**
 * How deep YAML collections may nest in a request body. go-yaml allows 10000 levels; the
 * composer of our YAML library recurses per level and runs out of stack near a thousand, so
 * bodies are held to this depth, checked on the parse tree (built without recursion) first.
 */
export const MAX_YAML_DEPTH = 500;

/** The message of a body nested deeper than {@link MAX_YAML_DEPTH}, at the given line. */
export function yamlTooDeepMessage(line: number): string {
  return `yaml: line ${line}: exceeded max depth of ${MAX_YAML_DEPTH}`;
}

const COLLECTIONS = new Set(['block-map', 'block-seq', 'flow-collection']);

/**
 * The source offset of the first collection of `doc` nested deeper than {@link MAX_YAML_DEPTH},
 * or undefined. Walks the parse tree with an explicit stack, so any depth is safe to measure.
 */
export function tooDeepOffset(doc: CST.Document): number | undefined {
  const stack: Array<[CST.Token, number]> = doc.value ? [[doc.value, 0]] : [];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [token, parentDepth] = next;
    if (!COLLECTIONS.has(token.type)) continue;
    const depth = parentDepth + 1;
    if (depth > MAX_YAML_DEPTH) return token.offset;
    for (const item of (token as CST.BlockMap | CST.BlockSequence | CST.FlowCollection).items) {
      const { key, value } = item as { key?: CST.Token | null; value?: CST.Token };
      if (key) stack.push([key, depth]);
      if (value) stack.push([value, depth]);
    }
  }
  return undefined;
}
