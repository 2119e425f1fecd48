import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError } from './errors.js';
import { compile, evaluate, evaluateToCel } from './program.js';
import { needsRewrite, rewriteSource } from './source-rewrite.js';

describe('syntax the engine lacks, rewritten', () => {
  const env = new CelEnvironmentSet().extend({
    name: 'rewrite',
    variables: [{ name: 'm', type: { kind: 'json' } }],
  }).storedExpressions;
  const m = { 'content-type': 'json', 'a.b': 1, nested: { 'x/y': 2 } };

  const cases: [expression: string, want: unknown][] = [
    ["b'ÿ' == b'\\303\\277'", true],
    ["size(b'ÿ')", 2],
    ["size(b'\\377')", 1],
    ["br'\\d' == b'\\\\d'", true],
    ['Rb"a\\n" == b\'a\\\\n\'', true],
    ["size(bR'''\\x''')", 2],
    ['r\'\\d\' + R"\\w"', '\\d\\w'],
    ['m.`content-type`', 'json'],
    ['m.`a.b` + m.nested.`x/y`', 3],
    ['has(m.`a.b`)', true],
    ['has(m.nested.`x-y`)', false],
    ["has({'foo.txt': 1}.`foo.txt`)", true],
    ['.99 < 9.9e-1 || .5e1 == 5.0', true],
    ['[1, 2].size() > 1 ? 1.5 : .5', 1.5],
    ['[?optional.of(1), 2, ?optional.none()]', [1, 2]],
    ["{?'a': optional.of(1), 'b': 2, ?'c': optional.none()}", { a: 1, b: 2 }],
    ['[?m.?nested, ?m.?missing].size()', 1],
    ["'a?b' + \"[?\" + '`'", 'a?b[?`'],
    ['m[?"a.b"].orValue(0)', 1],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} → ${JSON.stringify(want)}`, () => {
      const got = evaluate(compile(expression, env), { m });
      assert.deepEqual(got instanceof Uint8Array ? [...got] : got, want);
    });
  }

  it('keeps bytes as bytes', () => {
    assert.deepEqual([...(evaluateToCel(compile("b'ÿ'", env), {}) as Uint8Array)], [0xc3, 0xbf]);
  });

  const errors: [expression: string, message: string][] = [
    ["b'ÿ' + 1", "1:6: found no matching overload for '_+_' applied to '(bytes, int)'"],
    ['m.`a.b` + `x`', '1:11:'],
    ['[?1]', "1:3: expected type 'optional_type' but found 'int'"],
    ["{?'a': 1}", "1:8: expected type 'optional_type' but found 'int'"],
    ["b'\\u00ff'", '1:3:'],
  ];
  for (const [expression, message] of errors) {
    it(`${expression} does not compile: ${message}`, () => {
      assert.throws(
        () => compile(expression, env),
        (e: unknown) => e instanceof CelCompileError && e.message.includes(message),
      );
    });
  }

  it('rewrites only expressions with a trigger, keeping the length', () => {
    assert.equal(needsRewrite('self.spec.replicas > 1'), false);
    assert.equal(rewriteSource('a ? b : c'), undefined);
    for (const e of ["br'x' + b'ÿ'", 'a.`b-c`', '[?x]', '.5']) {
      assert.equal(rewriteSource(e)?.text.length, e.length, e);
    }
  });
});
