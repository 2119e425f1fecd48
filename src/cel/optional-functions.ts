import { Environment, Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import type {
  EngineEvaluator,
  EngineMacroCall,
  EngineNode,
  EngineType,
  EngineTypeChecker,
} from './engine-internals.js';
import { celEquals } from './library/cel-values.js';
import { SchemaObject, schemaJson } from './schema-object.js';

/**
 * The parts of cel-go's optional types the engine lacks, registered where optional types are
 * enabled (compatibility version 1.28 on):
 *
 * - `<optional>.optMap(x, e)`: `optional.of(e)` with `x` bound to the value, or none;
 * - `<optional>.optFlatMap(x, e)`: `e` (an optional) with `x` bound to the value, or none;
 * - `optional.ofNonZeroValue(v)`: none for the zero value of `v`'s type (`0`, `''`, `false`,
 *   `null`, empty bytes, list or map, the zero duration and the epoch), else `optional.of(v)`;
 * - `==` (and so `!=`) of two optionals: equal when both are none, or both hold equal values;
 * - `type(o)` of an optional and the type `optional_type`.
 */

type Checker = EngineTypeChecker;

interface Scope {
  forkWithVariable(name: string, type: EngineType): Scope;
  setIterValue(value: unknown, ev: EngineEvaluator): Scope;
}

interface MapMacro {
  readonly flat: boolean;
  readonly ast: EngineNode;
  readonly receiver: EngineNode;
  readonly name: string;
  readonly body: EngineNode;
  valueType?: EngineType;
  readonly async: boolean;
  typeCheck(checker: Checker, macro: MapMacro, scope: Scope): EngineType;
  evaluate(ev: EngineEvaluator, macro: MapMacro, scope: Scope): unknown;
}

function mapTypeCheck(checker: Checker, macro: MapMacro, scope: Scope): EngineType {
  const receiver = checker.check(macro.receiver, scope);
  if (receiver.kind !== 'optional' && receiver.kind !== 'dyn') {
    throw checker.createError(
      'optional_expected',
      `${macro.flat ? 'optFlatMap' : 'optMap'} receiver must be optional, got '${checker.formatType(receiver)}'`,
      macro.receiver,
    );
  }
  const inner = receiver.kind === 'optional' ? (receiver.valueType as EngineType) : receiver;
  // The value type of an empty literal's element is a type parameter: the variable is dyn.
  const valueType = inner.kind === 'param' ? checker.getType('dyn') : inner;
  macro.valueType = valueType;
  const body = checker.check(macro.body, scope.forkWithVariable(macro.name, valueType));
  if (!macro.flat) return checker.registry.getOptionalType(body);
  if (body.kind === 'optional') return body;
  if (body.kind === 'dyn') return checker.registry.getOptionalType(body);
  throw checker.createError(
    'optional_expected',
    `optFlatMap argument must be optional, got '${checker.formatType(body)}'`,
    macro.body,
  );
}

function mapEvaluate(ev: EngineEvaluator, macro: MapMacro, scope: Scope): unknown {
  const apply = (receiver: unknown): unknown => {
    if (!(receiver instanceof Optional)) {
      throw ev.createError('optional_expected', 'optMap receiver must be optional', macro.receiver);
    }
    if (!receiver.hasValue()) return Optional.none();
    const inner = scope.forkWithVariable(macro.name, macro.valueType as EngineType).setIterValue(receiver.value(), ev);
    const result = ev.run(macro.body, inner);
    const wrap = (r: unknown) => {
      if (!macro.flat) return Optional.of(r);
      if (r instanceof Optional) return r;
      throw ev.createError('optional_expected', 'optFlatMap argument must be optional', macro.body);
    };
    return result instanceof Promise ? result.then(wrap) : wrap(result);
  };
  const receiver = ev.run(macro.receiver, scope);
  return receiver instanceof Promise ? receiver.then(apply) : apply(receiver);
}

function mapMacro(flat: boolean) {
  return ({ ast, args, receiver }: EngineMacroCall & { readonly receiver: EngineNode }): MapMacro => {
    const variable = args[0];
    if (variable?.op !== 'id') {
      const e = new Error(`${flat ? 'optFlatMap' : 'optMap'}() variable name must be a simple identifier`);
      throw Object.assign(e, { node: variable ?? ast });
    }
    return {
      flat,
      ast,
      receiver,
      name: variable.args as string,
      body: args[1] as EngineNode,
      async: false,
      typeCheck: mapTypeCheck,
      evaluate: mapEvaluate,
    };
  };
}

/** Whether `v` is the zero value of its type, as cel-go's `IsZeroValue` tells. */
export function isZeroValue(v: unknown): boolean {
  switch (typeof v) {
    case 'boolean':
      return !v;
    case 'bigint':
      return v === 0n;
    case 'number':
      return v === 0;
    case 'string':
      return v === '';
    case 'object':
      if (v === null) return true;
      if (v instanceof UnsignedInt) return v.valueOf() === 0n;
      if (v instanceof Duration) return v.seconds === 0n && v.nanos === 0;
      if (v instanceof Date) return v.getTime() === 0;
      if (v instanceof Uint8Array) return v.length === 0;
      if (Array.isArray(v)) return v.length === 0;
      if (v instanceof Set || v instanceof Map) return v.size === 0;
      if (v instanceof SchemaObject) return Object.values(schemaJson(v)).every((x) => x === null || x === undefined);
      if (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) {
        return Object.keys(v).length === 0;
      }
      return false;
    default:
      return false;
  }
}

/** The type value `optional_type` (the engine's type values are instances of its unexported `Type`). */
const OPTIONAL_TYPE: unknown = (() => {
  const TypeValue = (new Environment().evaluate('int') as object).constructor as new (name: string) => unknown;
  return new TypeValue('optional_type');
})();

/** Registers the functions and macros on `env`, which must have optional types enabled. */
export function registerOptionalFunctions(env: Environment): void {
  env.registerFunction('optional.optMap(ast, ast): optional<dyn>', mapMacro(false) as never);
  env.registerFunction('optional.optFlatMap(ast, ast): optional<dyn>', mapMacro(true) as never);
  env.registerFunction('OptionalNamespace.ofNonZeroValue(A): optional<A>', ((_: unknown, v: unknown) =>
    isZeroValue(v) ? Optional.none() : Optional.of(v)) as never);
  env.registerOperator('optional<dyn> == optional<dyn>', (a: unknown, b: unknown) => celEquals(a, b));
  env.registerConstant('optional_type', 'type', OPTIONAL_TYPE);
  env.registerFunction('type(optional<dyn>): type', () => OPTIONAL_TYPE);
}
