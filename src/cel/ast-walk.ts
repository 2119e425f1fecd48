import type { EngineNode } from './engine-internals.js';

/**
 * Visits every node of a parsed expression as written (a macro call is visited as the call, with
 * its arguments), parents before children.
 */
export function forEachNode(node: EngineNode, visit: (node: EngineNode) => void): void {
  visit(node);
  visitArgs(node.args, visit);
}

function visitArgs(value: unknown, visit: (node: EngineNode) => void): void {
  if (Array.isArray(value)) {
    for (const v of value) visitArgs(v, visit);
  } else if (isNode(value)) {
    forEachNode(value, visit);
  }
}

function isNode(value: unknown): value is EngineNode {
  return typeof value === 'object' && value !== null && 'op' in value && 'args' in value;
}
