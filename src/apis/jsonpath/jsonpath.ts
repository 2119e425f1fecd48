import { goFormatFloatG } from '../../util/go-strconv.js';
import { stringifyJson } from '../../util/json-text.js';
import { type ActionNode, parseJsonPathTemplate, type Step, type TemplateNode } from './jsonpath-parser.js';

export { JsonPathSyntaxError } from './jsonpath-parser.js';

/** A template that fails on the data it is applied to (kube's evaluation error). */
export class JsonPathEvaluationError extends Error {
  override readonly name = 'JsonPathEvaluationError';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A compiled kube JSONPath template over decoded JSON values. Missing keys yield no result
 * instead of an error when `allowMissingKeys` is set (as printer columns and selectable fields
 * set it). Pure; the template may be applied to many values.
 */
export class JsonPath {
  private readonly nodes: readonly TemplateNode[];

  /** @throws JsonPathSyntaxError when `template` does not parse. */
  constructor(
    template: string,
    private readonly allowMissingKeys = false,
  ) {
    this.nodes = parseJsonPathTemplate(template);
  }

  /**
   * The values each template node yields (kube's `FindResults`): text nodes their text, actions
   * the values they select (an empty list when nothing matched).
   * @throws JsonPathEvaluationError as kube's evaluation fails (a missing key without
   *   `allowMissingKeys`, an index out of bounds, a filter over a non-list...).
   */
  findResults(data: unknown): unknown[][] {
    return this.nodes.map((n) => (n.kind === 'text' ? [n.text] : this.action(n, data)));
  }

  /** The first value the template selects, or undefined (and on any evaluation error). */
  first(data: unknown): unknown {
    try {
      const results = this.findResults(data);
      return results[0]?.[0];
    } catch (e) {
      if (e instanceof JsonPathEvaluationError) return undefined;
      throw e;
    }
  }

  private action(node: ActionNode, data: unknown): unknown[] {
    return this.steps(node.steps, [data]);
  }

  private steps(steps: readonly Step[], input: unknown[]): unknown[] {
    let cur = input;
    for (const step of steps) cur = this.step(step, cur);
    return cur;
  }

  private step(step: Step, input: unknown[]): unknown[] {
    switch (step.kind) {
      case 'literal':
        return input.map(() => step.value);
      case 'field':
        return this.field(step.name, input);
      case 'wildcard':
        return input.flatMap((v) => children(v));
      case 'recursive':
        return recursive(input);
      case 'array':
        return input.flatMap((v) => (v === null || v === undefined ? [] : slice(v, step.params)));
      case 'union':
        return step.branches.flatMap((b) => this.steps(b, input));
      case 'filter':
        return input.flatMap((v) => this.filter(step, v));
    }
  }

  private field(name: string, input: unknown[]): unknown[] {
    const out: unknown[] = [];
    for (const v of input) if (isObject(v) && Object.hasOwn(v, name)) out.push(v[name]);
    if (out.length === 0 && input.length > 0 && !this.allowMissingKeys) {
      throw new JsonPathEvaluationError(`${name} is not found`);
    }
    return out;
  }

  private filter(step: Extract<Step, { kind: 'filter' }>, value: unknown): unknown[] {
    if (!Array.isArray(value))
      throw new JsonPathEvaluationError(`${textOf(value)} is not array or slice and cannot be filtered`);
    const out: unknown[] = [];
    for (const item of value) {
      let lefts: unknown[];
      try {
        lefts = this.steps(step.left, [item]);
      } catch (e) {
        if (step.operator === 'exists' && e instanceof JsonPathEvaluationError) continue;
        throw e;
      }
      if (step.operator === 'exists') {
        if (lefts.length > 0) out.push(item);
        continue;
      }
      if (lefts.length === 0) continue;
      if (lefts.length > 1) throw new JsonPathEvaluationError('can only compare one element at a time');
      const rights = this.steps(step.right, [item]);
      if (rights.length === 0) continue;
      if (rights.length > 1) throw new JsonPathEvaluationError('can only compare one element at a time');
      if (compare(step.operator, lefts[0], rights[0])) out.push(item);
    }
    return out;
  }
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isObject(v)) return Object.values(v);
  // Go indexes a string's bytes (uint8 values, which have no children themselves).
  if (typeof v === 'string') return [...Buffer.from(v, 'utf8')];
  return [];
}

function recursive(input: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of input) {
    const kids = children(v);
    if (kids.length === 0) continue;
    out.push(v, ...recursive(kids));
  }
  return out;
}

function slice(value: unknown, params: Extract<Step, { kind: 'array' }>['params']): unknown[] {
  if (!Array.isArray(value)) throw new JsonPathEvaluationError(`${typeName(value)} is not array or slice`);
  const len = value.length;
  let start = params[0].known ? params[0].value : 0;
  if (start < 0) start += len;
  let end = params[1].known ? params[1].value : len;
  if (end < 0 || (end === 0 && params[1].derived)) end += len;
  if (end === start) return [];
  if (start >= len || start < 0) {
    throw new JsonPathEvaluationError(`array index out of bounds: index ${start}, length ${len}`);
  }
  if (end > len || end < 0)
    throw new JsonPathEvaluationError(`array index out of bounds: index ${end - 1}, length ${len}`);
  if (start > end) throw new JsonPathEvaluationError(`starting index ${start} is greater than ending index ${end}`);
  let step = 1;
  if (params[2].known) {
    if (params[2].value <= 0) throw new JsonPathEvaluationError('step must be > 0');
    step = params[2].value;
  }
  const out: unknown[] = [];
  for (let i = start; i < end; i += step) out.push(value[i]);
  return out;
}

function typeName(v: unknown): string {
  if (isObject(v)) return 'map[string]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return Number.isInteger(Number(v)) ? 'int64' : 'float64';
  return 'interface {}';
}

function compare(op: string, a: unknown, b: unknown): boolean {
  const numeric = (typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint');
  const comparable = numeric || (typeof a === 'string' && typeof b === 'string');
  switch (op) {
    case '==':
      return a === b || (numeric && Number(a) === Number(b));
    case '!=':
      return !(a === b || (numeric && Number(a) === Number(b)));
  }
  if (!comparable) throw new JsonPathEvaluationError('invalid type for comparison');
  const [x, y] = numeric ? [Number(a), Number(b)] : [a as string, b as string];
  switch (op) {
    case '<':
      return x < y;
    case '>':
      return x > y;
    case '<=':
      return x <= y;
    case '>=':
      return x >= y;
    default:
      throw new JsonPathEvaluationError(`unrecognized filter operator ${op}`);
  }
}

/**
 * A value as kube's JSONPath prints it: strings as they are, numbers and booleans as Go's
 * `fmt.Print` writes them, lists and maps as compact JSON (map keys sorted), null as `null`.
 */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : goFormatFloatG(value);
  return stringifyJson(sortedKeys(value)) ?? 'null';
}

function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortedKeys(v[k])]),
  );
}

/** All results of a template as text, joined as kube's `Execute` writes them (space-separated). */
export function executeJsonPath(path: JsonPath, data: unknown): string {
  return path
    .findResults(data)
    .map((values) => values.map(textOf).join(' '))
    .join('');
}
