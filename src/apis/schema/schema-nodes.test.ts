import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from './schema.js';
import { schemaNodes } from './schema-nodes.js';

interface Node {
  readonly type: string | undefined;
  readonly fields: ReadonlyMap<string, Node>;
  readonly order: readonly string[];
  readonly items: Node | undefined;
  readonly values: Node | undefined;
}

function nodesOf(follows?: (sub: Schema) => boolean) {
  let made = 0;
  const nodeOf = schemaNodes<Node>({
    facts: (schema, fields) => {
      made++;
      return { type: schema.type as string | undefined, fields, order: [], items: undefined, values: undefined };
    },
    linkProperty: (node, name) => (node.order = [...node.order, name]),
    linkItems: (node, child) => (node.items = child),
    linkValues: (node, child) => (node.values = child),
    follows,
  });
  return { nodeOf, made: () => made };
}

describe('schema nodes', () => {
  it('makes one node per schema object, links properties in order, items and map values', () => {
    const shared: Schema = { type: 'string' };
    const schema: Schema = {
      type: 'object',
      properties: {
        b: shared,
        a: { type: 'array', items: shared },
        m: { type: 'object', additionalProperties: { type: 'integer' } },
      },
    };
    const { nodeOf, made } = nodesOf();
    const root = nodeOf(schema);
    assert.deepEqual([...root.fields.keys()], ['b', 'a', 'm']);
    assert.deepEqual(root.order, ['b', 'a', 'm']);
    assert.equal(root.fields.get('a')!.items, root.fields.get('b'));
    assert.equal(root.fields.get('m')!.values!.type, 'integer');
    assert.equal(made(), 5, 'the root, the shared string, the list, the map and its values');
    assert.equal(nodeOf(schema), root);
    assert.equal(made(), 5, 'a second call makes no node');
  });

  it('links a schema that reaches itself to its own node', () => {
    const schema: { -readonly [K in keyof Schema]: Schema[K] } = { type: 'object', properties: {} };
    (schema.properties as Record<string, Schema>).self = schema as Schema;
    (schema as { items?: Schema }).items = schema as Schema;
    const { nodeOf } = nodesOf();
    const root = nodeOf(schema as Schema);
    assert.equal(root.fields.get('self'), root);
    assert.equal(root.items, root);
  });

  it('gives no node to the sub-schemas that do not follow', () => {
    const schema: Schema = {
      type: 'object',
      properties: { keep: { type: 'integer' }, skip: { type: 'string' } },
      additionalProperties: { type: 'string' },
      items: { type: 'integer' },
    };
    const { nodeOf, made } = nodesOf((sub) => sub.type === 'integer');
    const root = nodeOf(schema);
    assert.deepEqual([...root.fields.keys()], ['keep']);
    assert.deepEqual(root.order, ['keep']);
    assert.equal(root.values, undefined);
    assert.equal(root.items!.type, 'integer');
    assert.equal(made(), 3);
  });
});
