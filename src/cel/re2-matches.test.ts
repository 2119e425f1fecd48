import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Environment } from '@marcbachmann/cel-js';
import type { CelDeclarations } from './cel-environment.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError, CelEvaluationError } from './errors.js';
import { compile, evaluate } from './program.js';

const DECLS: CelDeclarations = {
  name: 'regex',
  variables: [
    { name: 's', type: { kind: 'json', celType: 'string' } },
    { name: 'p', type: { kind: 'json', celType: 'string' } },
    { name: 'd', type: { kind: 'json' } },
    { name: 'n', type: { kind: 'json', celType: 'int' } },
  ],
};

const env = new CelEnvironmentSet().extend(DECLS).newExpressions;
const run = (expression: string, activation: Record<string, unknown> = {}) =>
  evaluate(compile(expression, env), activation);

describe('matches on RE2', () => {
  it('is linear: a pattern that backtracks exponentially returns at once', () => {
    const input = `${'a'.repeat(30)}!`;
    for (const expression of [
      "s.matches('^(a+)+$')",
      's.matches(p)',
      "matches(s, '^(a+)+$')",
      "d.matches('^(a+)+$')",
    ]) {
      const program = compile(expression, env);
      const start = performance.now();
      assert.equal(evaluate(program, { s: input, p: '^(a+)+$', d: input }), false);
      const ms = performance.now() - start;
      // JavaScript's RegExp takes seconds here; RE2 well under a millisecond. The bound is for slow CI.
      assert.ok(ms < 200, `${expression} took ${ms} ms`);
    }
  });

  it('finds the pattern anywhere in the string, with RE2 syntax', () => {
    const cases: [text: string, pattern: string, matches: boolean][] = [
      ['hello', 'ell', true],
      ['hello', '^ell', false],
      ['hello', '^h.*o$', true],
      ['HELLO', '(?i)hello', true],
      ['a1b2', '\\d', true],
      ['abc', '[[:alpha:]]+', true],
      ['', '', true],
      ['x', 'a|', true],
      ['日本語', '^.{3}$', true],
    ];
    for (const [text, pattern, matches] of cases) {
      assert.equal(run('s.matches(p)', { s: text, p: pattern }), matches, `${text} ~ ${pattern}`);
      assert.equal(run('matches(s, p)', { s: text, p: pattern }), matches, `matches(${text}, ${pattern})`);
    }
  });

  it('works inside macros and on dynamic receivers', () => {
    assert.equal(run("['ab', 'ac'].all(x, x.matches('^a'))"), true);
    assert.equal(run("['ab', 'b'].exists_one(x, x.matches('^a'))"), true);
    assert.equal(run("d.filter(x, x.matches('b$')).size()", { d: ['ab', 'ac', 'bb'] }), 2);
    assert.equal(run("d.matches('^x')", { d: 'xy' }), true);
  });

  it('rejects an invalid literal pattern at compile time', () => {
    assert.throws(
      () => compile("s.matches('a(')", env),
      (e: unknown) => e instanceof CelCompileError && /1:11: invalid matches argument/.test(e.message),
    );
    // RE2 has no lookahead
    assert.throws(() => compile("s.matches('a(?=b)')", env), CelCompileError);
  });

  it('fails the evaluation on an invalid computed pattern or a non-string', () => {
    assert.throws(
      () => run('s.matches(p)', { s: 'a', p: 'a(' }),
      (e: unknown) => {
        assert.ok(e instanceof CelEvaluationError);
        assert.equal(e.message, 'error parsing regexp: missing closing ): `a(`');
        return true;
      },
    );
    assert.throws(() => run("d.matches('a')", { d: 1 }), { message: 'no such overload' });
    assert.throws(
      () => compile("n.matches('a')", env),
      /found no matching overload for 'matches' applied to 'int.\(string\)'/,
    );
    assert.throws(() => compile('s.matches(1)', env), CelCompileError);
  });

  it('leaves other environments of the engine alone', () => {
    // A plain engine environment still has its own (JavaScript RegExp) matches.
    assert.equal(new Environment().evaluate("'abc'.matches('(?<=a)b')"), true);
  });
});
