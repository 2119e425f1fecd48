import { relaxEquality } from './dynamic-equality.js';
import type { EngineEvaluator, EngineNode, EngineScope } from './engine-internals.js';
import { checkHomogeneousLiteral } from './homogeneous-literals.js';
import { toCelDynamic } from './json-values.js';
import type { SchemaField } from './schema-object.js';
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
  /** Whether list and map literals must be homogeneous (kube's rule; off only in tests). */
  readonly homogeneousAggregateLiterals?: boolean;
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
 * Specializes the checked syntax tree `ast` for lazy conversion and returns the identifiers it
 * reads (`read`) and the variables whose values may now be passed unconverted (`lazy`). The same
 * walk checks homogeneous literals (throwing the engine's type error) and gives dynamic `==`
 * cel-go's heterogeneous equality (see homogeneous-literals.ts, dynamic-equality.ts). A variable is left out (and nothing of it changed) when
 * the expression rebinds its name (a macro's iteration variable) or reads it in a way the
 * engine's tree does not show as expected.
 */
export function specializeInputs(
  ast: EngineNode,
  context: InputAccessContext,
): { readonly read: ReadonlySet<string>; readonly lazy: ReadonlySet<string> } {
  return new Specializer(context).run(ast);
}

/** Walk flags: inside `has()`; inside `format`'s arguments (no homogeneous-literal check). */
const IN_HAS = 1;
const EXEMPT = 2;

/** An identifier as the walk found it. */
interface IdUse {
  readonly node: EngineNode;
  /** Inside `has()`, which reads its argument's fields itself. */
  readonly inHas: boolean;
  /** The selections (`.`, `[]`) applied to it, innermost first; empty for a use of the whole value. */
  readonly chain: readonly CheckedNode[];
}

/** One specialization: the identifiers of the tree with the selections applied to each, then a plan per variable. */
class Specializer {
  private readonly context: InputAccessContext;
  private readonly uses: IdUse[] = [];
  private readonly rebound = new Set<string>();
  /** `==` and `!=` nodes, whose run-time dispatch gets cel-go's heterogeneous equality. */
  private readonly equalities: EngineNode[] = [];

  constructor(context: InputAccessContext) {
    this.context = context;
  }

  run(ast: EngineNode): { read: ReadonlySet<string>; lazy: ReadonlySet<string> } {
    this.walk(ast, this.context.homogeneousAggregateLiterals === false ? EXEMPT : 0);
    for (const node of this.equalities) relaxEquality(node);
    const read = new Set<string>();
    for (const use of this.uses) read.add(use.node.args as string);
    const lazy = new Set<string>();
    if (this.context.lazyInputs.size === 0) return { read, lazy };
    const plans = new Map<string, (() => void)[]>();
    const failed = new Set<string>(this.rebound);
    for (const use of this.uses) {
      const name = use.node.args as string;
      const input = this.context.lazyInputs.get(name);
      if (!input || failed.has(name)) continue;
      let steps = plans.get(name);
      if (steps === undefined) {
        steps = [];
        plans.set(name, steps);
      }
      const ok = input.kind === 'object' ? this.planObject(use, input, steps) : this.planJson(use, steps);
      if (!ok) failed.add(name);
    }
    for (const [name, steps] of plans) {
      if (failed.has(name)) continue;
      for (const step of steps) step();
      lazy.add(name);
    }
    return { read, lazy };
  }

  private walk(node: EngineNode, flags: number): void {
    const op = node.op;
    if (op === 'id') {
      this.uses.push({ node, inHas: (flags & IN_HAS) !== 0, chain: [] });
      return;
    }
    if (op === '.' || op === '[]') {
      // The top of a chain of selections: walk down to what it starts at.
      const chain: CheckedNode[] = [];
      let at: EngineNode = node;
      while (at.op === '.' || at.op === '[]') {
        chain.push(at as CheckedNode);
        const args = at.args as readonly unknown[];
        if (at.op === '[]') this.visit(args[1], flags);
        at = args[0] as EngineNode;
      }
      if (at.op === 'id') this.uses.push({ node: at, inHas: (flags & IN_HAS) !== 0, chain: chain.reverse() });
      else this.walk(at, flags);
      return;
    }
    if (op === '==' || op === '!=') this.equalities.push(node);
    let inner = flags;
    if (op === 'call' || op === 'rcall') {
      const args = node.args as readonly unknown[];
      if (op === 'call' && args[0] === 'has') inner |= IN_HAS;
      const callArgs = (op === 'call' ? args[1] : args[2]) as readonly EngineNode[] | undefined;
      // Macros bind their first argument as a variable (`all(x, ...)`, `cel.bind(x, ...)`).
      const first = callArgs?.[0];
      if (first?.op === 'id') this.rebound.add(first.args as string);
      if (op === 'rcall' && args[0] === 'format') {
        // The literals among format's arguments are exempt from the homogeneous check, as in kube.
        this.visit(args[1], flags);
        this.visit(args[2], flags | EXEMPT);
        return;
      }
    }
    // Inner literals first, as cel-go's checker reports them.
    this.visit(node.args, inner);
    if ((op === 'list' || op === 'map') && (flags & EXEMPT) === 0) checkHomogeneousLiteral(node);
  }

  private visit(value: unknown, flags: number): void {
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) this.visit(value[i], flags);
    else if (typeof value === 'object' && value !== null && typeof (value as EngineNode).op === 'string') {
      this.walk(value as EngineNode, flags);
    }
  }

  private planObject(use: IdUse, input: Extract<LazyInput, { kind: 'object' }>, steps: (() => void)[]): boolean {
    const node = use.node as CheckedNode;
    if (node.checkedType?.name !== input.typeName) return false;
    // The selections of schema object fields the chain starts with.
    let n = 0;
    if (!use.inHas) while (n < use.chain.length && this.selectsSchemaField(use.chain[n])) n++;
    if (n === 0) {
      steps.push(() => {
        node.evaluate = convertingRead(input.convert);
      });
      return true;
    }
    steps.push(() => {
      node.evaluate = jsonRead(input.convert);
    });
    for (let i = 0; i < n; i++) {
      const step = this.schemaSelectStep(use.chain[i], i < n - 1);
      if (!step) return false;
      steps.push(step);
    }
    return true;
  }

  /** Whether `select` selects a field of a schema object type. */
  private selectsSchemaField(select: CheckedNode): boolean {
    if (select.op !== '.') return false;
    const type = (select.args as readonly EngineNode[])[0].checkedType;
    return type?.kind === 'message' && this.context.objectTypes.has(type.name);
  }

  private schemaSelectStep(select: CheckedNode, intermediate: boolean): (() => void) | undefined {
    const [left, name] = select.args as [EngineNode, string];
    const field = this.context.objectTypes.get((left.checkedType as { name: string }).name)?.get(name);
    const engine = select.handle;
    if (!field || engine?.name !== 'fieldAccessStatic') return undefined;
    const handle = intermediate ? objectField(field.jsonName, engine) : convertedField(field, engine);
    return () => {
      select.handle = handle;
    };
  }

  private planJson(use: IdUse, steps: (() => void)[]): boolean {
    // `has()` finds the same keys in the JSON as in its conversion: nothing to convert.
    if (use.inHas) return true;
    const node = use.node as CheckedNode;
    if (use.chain.length === 0) {
      steps.push(() => {
        node.evaluate = dynamicRead;
      });
      return true;
    }
    const last = use.chain[use.chain.length - 1];
    const engine = last.handle;
    if (engine?.name !== 'fieldAccessStatic' && engine?.name !== 'fieldAccess') return false;
    steps.push(() => {
      last.handle = (l, r, ast, ev) => toCelDynamic(engine(l, r, ast, ev));
    });
    return true;
  }
}

type Evaluate = CheckedNode['evaluate'];

/**
 * A variable read whole: its JSON converted (a value already converted passes through); `null`
 * (a cluster-scoped resource's `namespaceObject`) as `null`, for `== null`.
 */
function convertingRead(convert: (value: unknown) => unknown): Evaluate {
  return (ev, ast, ctx) => {
    const v = (ctx as Scope).getValue(ast.args as string);
    if (v === null) return null;
    return isJsonObject(v) ? convert(v) : (ctx as Scope).getCheckedValue(ev, ast);
  };
}

/** A variable at the start of a chain: its JSON as is (a typed object, prepared, as is too). */
function jsonRead(convert: (value: unknown) => unknown): Evaluate {
  return (ev, ast, ctx) => {
    const v = (ctx as Scope).getValue(ast.args as string);
    if (typeof v === 'object' && v !== null) {
      // A typed object (or anything else the engine reports as not of the type) goes to the engine.
      return isJsonObject(v) ? v : (ctx as Scope).getCheckedValue(ev, ast);
    }
    if (v === undefined || v === null) return (ctx as Scope).getCheckedValue(ev, ast);
    return convert(v); // not an object: the conversion's `invalid data` error
  };
}

/** A dynamic JSON variable read whole. */
const dynamicRead: Evaluate = (ev, ast, ctx) => toCelDynamic((ctx as Scope).getCheckedValue(ev, ast));

/** A field inside a chain: the JSON object it holds. */
function objectField(jsonName: string, engine: Handle): Handle {
  return (l, r, ast, ev) => {
    if (!isJsonObject(l)) return typedField(l, r, ast, ev, engine);
    const v = Object.hasOwn(l, jsonName) ? l[jsonName] : undefined;
    if (v === undefined || v === null) return engine(l, r, ast, ev); // `no such key`
    if (!isJsonObject(v)) throw invalidData('object', v);
    return v;
  };
}

/** The field a chain ends at: converted by its type. */
function convertedField(field: SchemaField, engine: Handle): Handle {
  const { jsonName, convert } = field;
  return (l, r, ast, ev) => {
    if (!isJsonObject(l)) return typedField(l, r, ast, ev, engine);
    const v = Object.hasOwn(l, jsonName) ? l[jsonName] : undefined;
    if (v === undefined || v === null) return engine(l, r, ast, ev);
    return convert(v);
  };
}

/**
 * A field of a typed (already converted) object: its getter (only schema objects have the
 * selection's static type), or the engine for anything else (`null`, an absent field).
 */
function typedField(l: unknown, r: unknown, ast: EngineNode, ev: EngineEvaluator, engine: Handle): unknown {
  if (typeof l === 'object' && l !== null) {
    const v = l instanceof Map ? l.get(r) : (l as Record<string, unknown>)[r as string];
    if (v !== undefined) return v;
  }
  return engine(l, r, ast, ev);
}
