import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachNode } from './ast-walk.js';
import type { CelDeclarations } from './cel-environment.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError, CelEvaluationError } from './errors.js';
import { compile, evaluate, PreparedActivation } from './program.js';

const DECLS: CelDeclarations = {
  name: 'test',
  variables: [
    { name: 'x', type: { kind: 'json' } },
    { name: 'n', type: { kind: 'schema', schema: { type: 'integer' }, typeName: 'T' } },
    {
      name: 'obj',
      type: { kind: 'schema', schema: { type: 'object', properties: { a: { type: 'integer' } } }, typeName: 'Obj' },
    },
    { name: 'l', type: { kind: 'native', celType: 'list<int>' } },
  ],
};

function env(set = new CelEnvironmentSet()) {
  return set.extend(DECLS).newExpressions;
}

function compileError(expression: string): CelCompileError {
  try {
    compile(expression, env());
  } catch (e) {
    assert.ok(e instanceof CelCompileError, String(e));
    return e;
  }
  assert.fail(`${expression} compiled`);
}

describe('compile errors', () => {
  // cel-go's messages and positions (1-based line:column, the column in code points).
  const cases: [expression: string, where: string, message: string][] = [
    ['y + 1', '1:1', "undeclared reference to 'y' (in container '')"],
    ['n + y', '1:5', "undeclared reference to 'y' (in container '')"],
    ['n + "a"', '1:3', "found no matching overload for '_+_' applied to '(int, string)'"],
    ['(n)  +  ("a")', '1:6', "found no matching overload for '_+_' applied to '(int, string)'"],
    ['n\n  + "a"', '2:3', "found no matching overload for '_+_' applied to '(int, string)'"],
    ['"ü" + n', '1:5', "found no matching overload for '_+_' applied to '(string, int)'"],
    ['n && true', '1:3', "found no matching overload for '_&&_' applied to '(int, bool)'"],
    ['!n', '1:1', "found no matching overload for '!_' applied to '(int)'"],
    ['true ? 1 : "a"', '1:6', "found no matching overload for '_?_:_' applied to '(bool, int, string)'"],
    ['size(n)', '1:5', "found no matching overload for 'size' applied to '(int)'"],
    ['foo(1)', '1:4', "undeclared reference to 'foo' (in container '')"],
    ['"a".startsWith(n)', '1:15', "found no matching overload for 'startsWith' applied to 'string.(int)'"],
    ['n.foo()', '1:6', "undeclared reference to 'foo' (in container '')"],
    ['obj.b', '1:4', "undefined field 'b'"],
    ['obj . b', '1:5', "undefined field 'b'"],
    ['n.b', '1:2', "type 'int' does not support field selection"],
    ['l["a"]', '1:2', "found no matching overload for '_[_]' applied to '(list(int), string)'"],
    ['[1, "a"]', '1:5', "expected type 'int' but found 'string'"],
    ['1 +', '1:4', 'Syntax error: unexpected token: EOF'],
    ['1 @ 2', '1:3', 'Syntax error: unexpected character: @'],
  ];
  for (const [expression, where, message] of cases) {
    it(`${JSON.stringify(expression)}: ${where} ${message}`, () => {
      const e = compileError(expression);
      assert.equal(e.issues.length, 1);
      assert.equal(`${e.issues[0].line}:${e.issues[0].column}`, where);
      assert.equal(e.issues[0].message, message);
      assert.ok(e.message.startsWith(`compilation failed: ERROR: <input>:${where}: ${message}`), e.message);
    });
  }

  it('shows the source line and a caret under the column, as cel-go does', () => {
    assert.equal(
      compileError('n + "a"').message,
      `compilation failed: ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | n + "a"\n | ..^`,
    );
    // Wide characters before the column are marked with full-width dots.
    assert.equal(compileError('"ü" + n').message.split('\n').slice(1).join('\n'), ' | "ü" + n\n | .．..^');
    assert.equal(compileError('n\n  + "a"').message.split('\n').slice(1).join('\n'), ' |   + "a"\n | ..^');
  });
});

describe('evaluation', () => {
  it('converts JSON integers to 64-bit int and back', () => {
    const e = env();
    assert.equal(evaluate(compile('n * 2', e), { n: 21 }), 42);
    assert.equal(evaluate(compile('type(n) == int', e), { n: 1 }), true);
    assert.equal(evaluate(compile('type(x) == int', e), { x: 1 }), true);
    assert.equal(evaluate(compile('type(x) == double', e), { x: 1.5 }), true);
    assert.equal(evaluate(compile('obj.a / 2', e), { obj: { a: 7 } }), 3);
    // Beyond 2^53 the result stays a bigint; exact integers come in as bigints too.
    assert.equal(evaluate(compile('n * 1024', e), { n: 2 ** 50 }), 2n ** 60n);
    assert.equal(evaluate(compile('n + 1', e), { n: 2n ** 62n }), 2n ** 62n + 1n);
    assert.equal(evaluate(compile('x.a + 1', e), { x: { a: 2n ** 62n } }), 2n ** 62n + 1n);
    // int64 overflow is an error
    assert.throws(() => evaluate(compile('n + 1', e), { n: 2n ** 63n - 1n }), {
      name: 'CelEvaluationError',
      message: 'integer overflow',
      code: 'numeric_overflow',
    });
    // Where the engine misses 64-bit overflow, the environment catches it.
    for (const expression of [
      '-(n - 1)',
      '(n - 1) / -1',
      '(n - 1) % -1',
      'int(9223372036854775807.0)',
      'int(-9223372036854775808.0)',
      'int(-1e19)',
    ]) {
      assert.throws(
        () => evaluate(compile(expression, e), { n: -(2n ** 63n) + 1n }),
        { message: 'integer overflow' },
        expression,
      );
    }
    assert.equal(evaluate(compile('int(-9223372036854774784.0)', e), {}), -9223372036854774784n);
    assert.equal(evaluate(compile('-n / -1', e), { n: 5 }), 5);
    // Results: lists and maps as JSON, schema objects as the JSON they were read from.
    assert.deepEqual(evaluate(compile('[n, 2]', e), { n: 1 }), [1, 2]);
    assert.deepEqual(evaluate(compile('{"a": n}', e), { n: 1 }), { a: 1 });
    const o = { a: 1 };
    assert.equal(evaluate(compile('obj', e), { obj: o }), o);
    assert.deepEqual(evaluate(compile('x', e), { x: { b: [1, 2.5] } }), { b: [1, 2.5] });
  });

  it('raises typed errors with cel-go wording', () => {
    const e = env();
    const cases: [expression: string, activation: Record<string, unknown>, message: string, code: string][] = [
      ['x.missing', { x: {} }, 'no such key: missing', 'no_such_key'],
      ['n / 0', { n: 1 }, 'division by zero', 'division_by_zero'],
      ['n % 0', { n: 1 }, 'modulus by zero', 'modulo_by_zero'],
      ['l[5]', { l: [1n] }, 'index out of bounds: 5', 'index_out_of_bounds'],
      ['obj.a', { obj: { a: 'seven' } }, 'invalid data, expected int, got string', 'invalid_data'],
      ['n', {}, 'unknown variable: n', 'unknown_variable'],
    ];
    for (const [expression, activation, message, code] of cases) {
      assert.throws(
        () => evaluate(compile(expression, e), activation),
        (err: unknown) => {
          assert.ok(err instanceof CelEvaluationError, String(err));
          assert.equal(err.message, message, expression);
          assert.equal(err.code, code, expression);
          return true;
        },
      );
    }
  });

  it('has() tests presence on dynamic values', () => {
    const e = env();
    assert.equal(evaluate(compile('has(x.a)', e), { x: { a: 1 } }), true);
    assert.equal(evaluate(compile('has(x.b)', e), { x: { a: 1 } }), false);
    assert.equal(evaluate(compile('has(x.a.b)', e), { x: { a: { b: null } } }), true);
    assert.equal(evaluate(compile("'a' in x && !('b' in x)", e), { x: { a: 1 } }), true);
  });
});

describe('compiled programs', () => {
  it('expose the checked syntax tree and result type, for a cost estimator', () => {
    const p = compile('n > 1 && obj.a in l', env());
    assert.equal(p.outputType, 'bool');
    assert.equal(p.ast.op, '&&');
    const ops: string[] = [];
    forEachNode(p.ast, (node) => ops.push(`${node.op}:${node.checkedType?.name}`));
    assert.deepEqual(ops, ['&&:bool', '>:bool', 'id:int', 'value:int', 'in:bool', '.:int', 'id:Obj', 'id:list<int>']);
    assert.equal(compile('[n]', env()).outputType, 'list<int>');
  });
});

describe('prepared activations', () => {
  it('convert once and serve every program of their environment', () => {
    const e = env();
    const prepared = new PreparedActivation(e, { n: 2, obj: { a: 3 }, x: { b: [1] } });
    assert.equal(evaluate(compile('n + obj.a', e), prepared), 5);
    assert.deepEqual(evaluate(compile('x.b + [n]', e), prepared), [1, 2]);
    assert.throws(() => evaluate(compile('n', env()), prepared), RangeError);
    assert.throws(() => new PreparedActivation(e, { n: 'two' }), {
      name: 'CelEvaluationError',
      message: 'invalid data, expected int, got string',
    });
  });
});

describe('program cache', () => {
  it('returns the compiled program for the same expression and environment', () => {
    const set = new CelEnvironmentSet();
    const e = set.extend(DECLS).newExpressions;
    const p = compile('n + 1', e);
    assert.equal(compile('n + 1', e), p);
    assert.equal(set.cachedPrograms, 1);
    assert.notEqual(compile('n + 2', e), p);
    // Another environment (another use, or the same declarations extended again) compiles anew.
    const other = set.extend(DECLS).newExpressions;
    assert.notEqual(compile('n + 1', other), p);
    assert.equal(set.cachedPrograms, 3);
    // Failures are not cached.
    assert.throws(() => compile('n +', e), CelCompileError);
    assert.equal(set.cachedPrograms, 3);
  });

  it('keeps the most recently used programs within its capacity', () => {
    const set = new CelEnvironmentSet({ programCacheSize: 2 });
    const e = set.extend(DECLS).newExpressions;
    const a = compile('1', e);
    compile('2', e);
    assert.equal(compile('1', e), a); // now 2 is the least recent
    compile('3', e);
    assert.equal(set.cachedPrograms, 2);
    assert.equal(compile('1', e), a);
    assert.throws(() => new CelEnvironmentSet({ programCacheSize: -1 }), RangeError);
  });

  it('keeps each environment set to itself', () => {
    const a = new CelEnvironmentSet();
    const b = new CelEnvironmentSet();
    compile('n', a.extend(DECLS).newExpressions);
    assert.equal(a.cachedPrograms, 1);
    assert.equal(b.cachedPrograms, 0);
  });
});
