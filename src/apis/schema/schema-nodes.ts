import type { Schema } from './schema.js';

/** A node while it is being linked. */
export type NodeUnderConstruction<N> = { -readonly [K in keyof N]: N[K] };

/**
 * How a walk that runs per request derives its facts of a schema node and links them to the
 * nodes below it.
 */
export interface SchemaNodeRecipe<N extends object> {
  /**
   * The node of a schema, with what the walk reads of it and no links yet. `fields` is filled
   * after it returns, with the nodes of the declared properties that `follow`, in the schema's
   * order; a node keeps it (or not) as its walk needs.
   */
  facts(schema: Schema, fields: ReadonlyMap<string, N>): NodeUnderConstruction<N>;
  /** Called for each declared property that `follows`, after its node is in `fields`. */
  linkProperty?(node: NodeUnderConstruction<N>, name: string, child: N, sub: Schema): void;
  /** The node of `items`, when it `follows`. */
  linkItems?(node: NodeUnderConstruction<N>, child: N): void;
  /** The node of `additionalProperties` given as a schema, when it `follows`. */
  linkValues?(node: NodeUnderConstruction<N>, child: N): void;
  /** Which sub-schemas get a node (every one when absent): a walk may skip subtrees it never needs. */
  follows?(sub: Schema): boolean;
}

/**
 * A node per schema object, derived once and linked to the nodes of its properties, list items
 * and map values, so that a walk reads no schema keywords per value: reading the keywords of
 * (many differently shaped) schema objects for every value was most of such walks' cost.
 * Schemas are not changed after they are built, so the facts stay true. A schema that reaches
 * itself gets one node that links to itself.
 */
export function schemaNodes<N extends object>(recipe: SchemaNodeRecipe<N>): (schema: Schema) => N {
  const memo = new WeakMap<Schema, N>();
  const follows = recipe.follows ?? (() => true);
  const nodeOf = (schema: Schema): N => {
    const known = memo.get(schema);
    if (known !== undefined) return known;
    const fields = new Map<string, N>();
    const node = recipe.facts(schema, fields);
    // Remembered before its children are made: a schema may reach itself.
    memo.set(schema, node as N);
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      if (!follows(sub)) continue;
      const child = nodeOf(sub);
      fields.set(name, child);
      recipe.linkProperty?.(node, name, child, sub);
    }
    if (schema.items && recipe.linkItems && follows(schema.items)) recipe.linkItems(node, nodeOf(schema.items));
    const values = schema.additionalProperties;
    if (typeof values === 'object' && recipe.linkValues && follows(values)) recipe.linkValues(node, nodeOf(values));
    return node as N;
  };
  return nodeOf;
}
