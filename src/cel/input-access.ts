import type { EngineEvaluator, EngineNode, EngineScope } from './engine-internals.js';
import { toCelDynamic } from './json-values.js';
import { type SchemaField, SchemaObject } from './schema-object.js';
import { invalidData } from './schema-scalars.js';

/**
 * Converts variable values as an expression reads them instead of all at once. A checked
 * program is specialized once (when compiled): a chain of field selections that starts at a
 * variable (`self.spec.replicas`) walks the decoded JSON and converts only the value the chain
 * ends at, by the type of that field; every other use of the variable (`self == oldSelf`,
 * `has(self.x)`, `size(claims)`) converts the whole value where it is read. The variable's JSON
 * is then passed to the engine unconverted. Results are the same as converting up front.
 *
 * Values already converted (a prepared activation) pass through every specialized node
 * unchanged, so a program serves both.
 */

/** How the values of one variable are converted, for the variables that may be read lazily. */
export type LazyInput =
  /** A schema object type: `convert` makes the typed object (see schema-object.ts). */
  | { readonly kind: 'object'; readonly typeName: string; readonly convert: (value: unknown) => unknown }
  /** Dynamic JSON (`toCelDynamic`). */
  | { readonly kind: 'json' };

/** What specialization needs to know of an environment. */
export interface InputAccessContext {
  readonly lazyInputs: ReadonlyMap<string, LazyInput>;
  /** Fields of each schema object type, by type name, then by CEL field name. */
  readonly objectTypes: ReadonlyMap<string, ReadonlyMap<string, SchemaField>>;
}

/** A node the engine has checked, with the members specialization reads and replaces. */
interface CheckedNode extends EngineNode {
  handle?: Handle;
  evaluate: (ev: EngineEvaluator, ast: EngineNode, ctx: EngineScope) => unknown;
}

type Handle = (left: unknown, right: unknown, ast: EngineNode, ev: EngineEvaluator) => unknown;

interface Scope {
  getValue(name: string): unknown;
  getCheckedValue(ev: EngineEvaluator, ast: EngineNode): unknown;
}

/** Whether `v` is a decoded JSON object (not a typed object, map, list or other engine value). */
function isJsonObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  // Decoded JSON cannot hold the function `Object`: a key `constructor` never passes this test.
  if ((v as { constructor?: unknown }).constructor === Object) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Specializes the checked syntax tree `ast` for lazy conversion and returns the variables whose
 * values may now be passed unconverted. A variable is left out (and nothing of it changed) when
 * the expression rebinds its name (a macro's iteration variable) or reads it in a way the
 * engine's tree does not show as expected.
 */
export function specializeInputs(ast: EngineNode, context: InputAccessContext): ReadonlySet<string> {
  if (context.lazyInputs.size === 0) return new Set();
  const parents = new Map<EngineNode, EngineNode>();
  const ids: EngineNode[] = [];
  const rebound = new Set<string>();
  const insideHas = new Set<EngineNode>();
  walk(ast, undefined, false);

  function walk(node: EngineNode, parent: EngineNode | undefined, inHas: boolean): void {
    if (parent) parents.set(node, parent);
    if (node.op === 'id') {
      ids.push(node);
      if (inHas) insideHas.add(node);
    }
    let has = inHas;
    if (node.op === 'call' || node.op === 'rcall') {
      const args = node.args as readonly unknown[];
      if (node.op === 'call' && args[0] === 'has') has = true;
      const callArgs = (node.op === 'call' ? args[1] : args[2]) as readonly EngineNode[] | undefined;
      // Macros bind their first argument as a variable (`all(x, ...)`, `cel.bind(x, ...)`).
      const first = callArgs?.[0];
      if (first?.op === 'id') rebound.add(first.args as string);
    }
    visit(node.args, node, has);
  }
  function visit(value: unknown, parent: EngineNode, inHas: boolean): void {
    if (Array.isArray(value)) for (const v of value) visit(v, parent, inHas);
    else if (typeof value === 'object' && value !== null && 'op' in value && 'args' in value) {
      walk(value as EngineNode, parent, inHas);
    }
  }

  const plans = new Map<string, (() => void)[]>();
  const failed = new Set<string>(rebound);
  for (const id of ids) {
    const name = id.args as string;
    const input = context.lazyInputs.get(name);
    if (!input || failed.has(name)) continue;
    const steps = plans.get(name) ?? [];
    plans.set(name, steps);
    const ok = input.kind === 'object' ? planObject(id, input, steps) : planJson(id, steps);
    if (!ok) failed.add(name);
  }

  function planObject(id: EngineNode, input: Extract<LazyInput, { kind: 'object' }>, steps: (() => void)[]): boolean {
    const node = id as CheckedNode;
    if (node.checkedType?.name !== input.typeName) return false;
    const convert = input.convert;
    const parent = parents.get(id);
    if (insideHas.has(id) || !selectsSchemaField(parent, id)) {
      steps.push(() => {
        node.evaluate = (ev, ast, ctx) => {
          const v = (ctx as Scope).getValue(ast.args as string);
          return isJsonObject(v) ? convert(v) : (ctx as Scope).getCheckedValue(ev, ast);
        };
      });
      return true;
    }
    steps.push(() => {
      node.evaluate = (ev, ast, ctx) => {
        const v = (ctx as Scope).getValue(ast.args as string);
        if (isJsonObject(v)) return v;
        if (v === undefined || v === null || v instanceof SchemaObject) return (ctx as Scope).getCheckedValue(ev, ast);
        return convert(v); // not an object: the conversion's `invalid data` error
      };
    });
    // The chain of selections over schema objects, up to the value it ends at.
    let select = parent as CheckedNode;
    for (;;) {
      const next = parents.get(select) as CheckedNode | undefined;
      const intermediate = selectsSchemaField(next, select);
      const step = schemaSelectStep(select, intermediate);
      if (!step) return false;
      steps.push(step);
      if (!intermediate) return true;
      select = next as CheckedNode;
    }
  }

  /** Whether `parent` selects a field of a schema object type from `child`. */
  function selectsSchemaField(parent: EngineNode | undefined, child: EngineNode): boolean {
    if (parent?.op !== '.' || (parent.args as readonly unknown[])[0] !== child) return false;
    const type = child.checkedType;
    return type?.kind === 'message' && context.objectTypes.has(type.name);
  }

  function schemaSelectStep(select: CheckedNode, intermediate: boolean): (() => void) | undefined {
    const [left, name] = select.args as [EngineNode, string];
    const field = context.objectTypes.get((left.checkedType as { name: string }).name)?.get(name);
    const engine = select.handle;
    if (!field || engine?.name !== 'fieldAccessStatic') return undefined;
    const { jsonName, convert } = field;
    const read: Handle = intermediate
      ? (l, r, ast, ev) => {
          if (!isJsonObject(l)) return typedField(l, r, ast, ev, engine);
          const v = Object.hasOwn(l, jsonName) ? l[jsonName] : undefined;
          if (v === undefined || v === null) return engine(l, r, ast, ev); // `no such key`
          if (!isJsonObject(v)) throw invalidData('object', v);
          return v;
        }
      : (l, r, ast, ev) => {
          if (!isJsonObject(l)) return typedField(l, r, ast, ev, engine);
          const v = Object.hasOwn(l, jsonName) ? l[jsonName] : undefined;
          if (v === undefined || v === null) return engine(l, r, ast, ev);
          return convert(v);
        };
    return () => {
      select.handle = read;
    };
  }

  function planJson(id: EngineNode, steps: (() => void)[]): boolean {
    // `has()` finds the same keys in the JSON as in its conversion: nothing to convert.
    if (insideHas.has(id)) return true;
    const node = id as CheckedNode;
    let end: EngineNode = id;
    for (;;) {
      const next = parents.get(end);
      if ((next?.op !== '.' && next?.op !== '[]') || (next.args as readonly unknown[])[0] !== end) break;
      end = next;
    }
    if (end === id) {
      steps.push(() => {
        node.evaluate = (ev, ast, ctx) => toCelDynamic((ctx as Scope).getCheckedValue(ev, ast));
      });
      return true;
    }
    const last = end as CheckedNode;
    const engine = last.handle;
    if (engine?.name !== 'fieldAccessStatic' && engine?.name !== 'fieldAccess') return false;
    steps.push(() => {
      last.handle = (l, r, ast, ev) => toCelDynamic(engine(l, r, ast, ev));
    });
    return true;
  }

  const lazy = new Set<string>();
  for (const [name, steps] of plans) {
    if (failed.has(name)) continue;
    for (const step of steps) step();
    lazy.add(name);
  }
  return lazy;
}

/** A field of a typed (already converted) object: its getter, or the engine for anything else. */
function typedField(l: unknown, r: unknown, ast: EngineNode, ev: EngineEvaluator, engine: Handle): unknown {
  if (l instanceof SchemaObject) {
    const v = l instanceof Map ? l.get(r) : (l as unknown as Record<string, unknown>)[r as string];
    if (v !== undefined) return v;
  }
  return engine(l, r, ast, ev);
}
