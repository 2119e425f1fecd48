import type { EngineError, EngineNode, EngineType } from './engine-internals.js';
import { CelCompileError, CelEvaluationError, type CelIssue } from './errors.js';

/**
 * Translates the engine's errors into cel-go's wording and positions. cel-go reports an
 * operator's error at the operator (`1 + 'a'` at column 3), a call's at its opening parenthesis,
 * a field selection's at the dot and an index's at the bracket; the engine anchors most errors
 * at the start of the whole node, so the position is recovered from the source around the node.
 */

/** The compile error for `error`, thrown by the engine while parsing or checking `expression`. */
export function compileErrorFrom(expression: string, error: unknown): CelCompileError {
  const e = error as EngineError;
  const { offset, message } = e?.name === 'ParseError' ? parseIssue(e) : checkIssue(expression, e);
  return new CelCompileError(expression, [{ ...lineAndColumn(expression, offset), message }], { cause: error });
}

/** An `undeclared reference` compile error at UTF-16 offset `offset`, found by this layer. */
export function undeclaredReference(expression: string, offset: number, name: string): CelCompileError {
  return new CelCompileError(expression, [{ ...lineAndColumn(expression, offset), message: undeclared(name) }]);
}

/** The evaluation error for `error`, thrown by the engine (or a value conversion) while evaluating. */
export function evaluationErrorFrom(error: unknown): CelEvaluationError {
  if (error instanceof CelEvaluationError) return error;
  const e = error as EngineError;
  const summary = e?.summary ?? (e instanceof Error ? e.message : String(error));
  const code = e?.code ?? 'internal';
  return new CelEvaluationError(runtimeMessage(code, summary), code, { cause: error });
}

const RUNTIME_MESSAGES: Readonly<Record<string, string>> = {
  division_by_zero: 'division by zero',
  modulo_by_zero: 'modulus by zero',
  numeric_overflow: 'integer overflow',
  no_such_overload: 'no such overload',
  no_matching_overload: 'no such overload',
};

function runtimeMessage(code: string, summary: string): string {
  if (RUNTIME_MESSAGES[code]) return RUNTIME_MESSAGES[code];
  if (code === 'index_out_of_bounds') return `index out of bounds: ${/index (-?\d+)/.exec(summary)?.[1] ?? '?'}`;
  return lowerFirst(summary);
}

function parseIssue(e: EngineError): { offset: number; message: string } {
  return { offset: e.range?.start ?? 0, message: `Syntax error: ${lowerFirst(e.summary ?? e.message)}` };
}

function checkIssue(input: string, e: EngineError): { offset: number; message: string } {
  const node = e?.node;
  const summary = e?.summary ?? (e instanceof Error ? e.message : String(e));
  if (!node) return { offset: e?.range?.start ?? 0, message: summary };
  const args = node.args as readonly unknown[];
  const child = (i: number) => args[i] as EngineNode;
  switch (e.code) {
    case 'unknown_variable': {
      if (node.op === 'id') return { offset: node.start, message: undeclared(String(node.args)) };
      if (node.op === 'call' || node.op === 'rcall')
        return { offset: callParen(input, node), message: undeclared(String(args[0])) };
      break;
    }
    case 'no_such_overload': {
      if (node.op === '!_' || node.op === '-_') {
        return { offset: node.pos, message: noOverload(node.op, `(${typeOf(node.args as EngineNode)})`) };
      }
      if (Array.isArray(args) && args.length === 2) {
        return {
          offset: operatorAfter(input, child(0).end),
          message: noOverload(`_${node.op}_`, `(${typeOf(child(0))}, ${typeOf(child(1))})`),
        };
      }
      break;
    }
    case 'invalid_logical_operand':
      return {
        offset: operatorAfter(input, child(0).end),
        message: noOverload(`_${node.op}_`, `(${typeOf(child(0))}, ${typeOf(child(1))})`),
      };
    case 'incompatible_ternary_branches':
      return {
        offset: operatorAfter(input, child(0).end),
        message: noOverload('_?_:_', `(${typeOf(child(0))}, ${typeOf(child(1))}, ${typeOf(child(2))})`),
      };
    case 'no_matching_overload': {
      if (node.op === 'call') {
        const name = String(args[0]);
        if (node.candidates?.declarations.length === 0)
          return { offset: callParen(input, node), message: undeclared(name) };
        const argTypes = (args[1] as EngineNode[]).map(typeOf).join(', ');
        return { offset: callParen(input, node), message: noOverload(name, `(${argTypes})`) };
      }
      if (node.op === 'rcall') {
        const name = String(args[0]);
        if (node.candidates?.declarations.length === 0)
          return { offset: callParen(input, node), message: undeclared(name) };
        const argTypes = (args[2] as EngineNode[]).map(typeOf).join(', ');
        return { offset: callParen(input, node), message: noOverload(name, `${typeOf(child(1))}.(${argTypes})`) };
      }
      break;
    }
    case 'no_such_key':
      if (node.op === '.' || node.op === '.?') {
        return { offset: dotBefore(input, node.pos), message: `undefined field '${args[1]}'` };
      }
      // An object type indexed by a name it lacks: cel-go has no index operator on object types at all.
      if (node.op === '[]' || node.op === '[?]') {
        return {
          offset: bracketAfter(input, child(0).end),
          message: noOverload('_[_]', `(${typeOf(child(0))}, ${typeOf(child(1))})`),
        };
      }
      break;
    case 'cannot_index_type':
    case 'invalid_index_type':
      if (node.op === '.' || node.op === '.?') {
        // cel-go names the type selected from: an optional operand's value type.
        const operand = child(0)?.checkedType;
        const selected =
          operand?.kind === 'optional' && operand.valueType ? celGoType(operand.valueType) : typeOf(child(0));
        return {
          offset: dotBefore(input, node.pos),
          message: `type '${selected}' does not support field selection`,
        };
      }
      return {
        offset: bracketAfter(input, child(0).end),
        message: noOverload('_[_]', `(${typeOf(child(0))}, ${typeOf(child(1))})`),
      };
    case 'heterogeneous_list_element':
    case 'heterogeneous_map_key':
    case 'heterogeneous_map_value': {
      const m = /expected type '(.*)' but found '(.*)'/.exec(summary);
      if (m)
        return {
          offset: node.start,
          message: `expected type '${celGoTypeName(m[1])}' but found '${celGoTypeName(m[2])}'`,
        };
      break;
    }
  }
  return { offset: node.pos ?? node.start, message: lowerFirst(summary) };
}

function undeclared(name: string): string {
  return `undeclared reference to '${name}' (in container '')`;
}

function noOverload(name: string, applied: string): string {
  return `found no matching overload for '${name}' applied to '${applied}'`;
}

function typeOf(node: EngineNode | undefined): string {
  const t = node?.checkedType;
  return t ? celGoType(t) : 'dyn';
}

/** cel-go's spelling of a type: `list(int)`, `map(string, dyn)`, `optional_type(int)`, `null_type`. */
function celGoType(t: EngineType): string {
  switch (t.kind) {
    case 'list':
      return `list(${t.valueType ? celGoType(t.valueType) : 'dyn'})`;
    case 'map':
      return `map(${t.keyType ? celGoType(t.keyType) : 'dyn'}, ${t.valueType ? celGoType(t.valueType) : 'dyn'})`;
    case 'optional':
      return `optional_type(${t.valueType ? celGoType(t.valueType) : 'dyn'})`;
    case 'dyn':
    case 'param':
      return 'dyn';
    default:
      return t.name === 'null' ? 'null_type' : t.name;
  }
}

/** {@link celGoType} for a type written by the engine (`list<map<string, int>>`). */
function celGoTypeName(name: string): string {
  let s = name
    .replace(/\boptional</g, 'optional_type<')
    .replace(/\bnull\b/g, 'null_type')
    .replace(/\b[A-Z]\b/g, 'dyn')
    .replaceAll('<', '(')
    .replaceAll('>', ')');
  for (let prev = ''; prev !== s; ) {
    prev = s;
    s = s.replace(/\bdyn\([^()]*\)/g, 'dyn');
  }
  return s;
}

function lowerFirst(s: string): string {
  return s.length > 0 ? s[0].toLowerCase() + s.slice(1) : s;
}

/** Offset of the first token at or after `from`, past blanks, comments and closing parentheses. */
function tokenAfter(input: string, from: number): number {
  let i = from;
  while (i < input.length) {
    const c = input[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === ')') i++;
    else if (c === '/' && input[i + 1] === '/') {
      while (i < input.length && input[i] !== '\n') i++;
    } else break;
  }
  return Math.min(i, Math.max(0, input.length - 1));
}

function operatorAfter(input: string, leftEnd: number): number {
  return tokenAfter(input, leftEnd);
}

function bracketAfter(input: string, leftEnd: number): number {
  const i = tokenAfter(input, leftEnd);
  return input[i] === '[' ? i : leftEnd;
}

/** The `(` of a call: after the function name (`f(`) or the method name (`x.f(`). */
function callParen(input: string, node: EngineNode): number {
  const name = String((node.args as readonly unknown[])[0]);
  const from = node.op === 'rcall' ? ((node.args as readonly unknown[])[1] as EngineNode).end : node.start;
  const at = input.indexOf(`${name}`, from);
  if (at < 0) return node.start;
  const paren = input.indexOf('(', at + name.length);
  return paren < 0 ? node.start : paren;
}

/** The `.` before a selected field name starting at `fieldStart` (past blanks and a `?`). */
function dotBefore(input: string, fieldStart: number): number {
  let i = fieldStart - 1;
  while (i > 0 && (input[i] === ' ' || input[i] === '\t' || input[i] === '\n' || input[i] === '?')) i--;
  return input[i] === '.' ? i : fieldStart;
}

/** 1-based line and column (in code points) of a UTF-16 offset. */
function lineAndColumn(input: string, offset: number): Pick<CelIssue, 'line' | 'column'> {
  const before = input.slice(0, Math.max(0, offset));
  const lineStart = before.lastIndexOf('\n') + 1;
  const line = before.split('\n').length;
  return { line, column: [...before.slice(lineStart)].length + 1 };
}
