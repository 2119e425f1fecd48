import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUTHENTICATION_CLAIMS_DECLARATIONS } from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelEvaluationError } from './errors.js';
import { versionedCelLibraries } from './library/index.js';
import { compile, evaluate } from './program.js';

describe('string functions with cel-go semantics', () => {
  const env = new CelEnvironmentSet({ libraries: versionedCelLibraries() }).extend(
    AUTHENTICATION_CLAIMS_DECLARATIONS,
  ).newExpressions;
  const run = (expression: string) => evaluate(compile(expression, env), { claims: {} });

  // '😀' is one code point, two UTF-16 units.
  const values: [expression: string, want: unknown][] = [
    ["'a😀b😀c'.charAt(2)", 'b'],
    ["'a😀b😀c'.charAt(5)", ''],
    ["'a😀b😀c'.indexOf('b')", 2],
    ["'a😀b😀c'.indexOf('😀', 2)", 3],
    ["'a😀b😀c'.indexOf('')", 0],
    ["'a😀b😀c'.indexOf('', 9)", 9],
    ["'a😀b😀c'.indexOf('x')", -1],
    ["'a😀b😀c'.lastIndexOf('😀')", 3],
    ["'a😀b😀c'.lastIndexOf('😀', 2)", 1],
    ["'a😀b😀c'.lastIndexOf('')", 5],
    ["'a😀b😀c'.lastIndexOf('c😀', 4)", -1],
    ["'bananananana'.lastIndexOf('nana', 7)", 6],
    ["'a😀b😀c'.substring(3)", '😀c'],
    ["'a😀b😀c'.substring(5)", ''],
    ["'a😀b😀c'.substring(1, 3)", '😀b'],
    ["'a😀b😀c'.substring(2, 2)", ''],
    ["'ÀBÇd'.lowerAscii()", 'ÀbÇd'],
    ["'àbçD'.upperAscii()", 'àBçD'],
    ["'ǅx'.lowerAscii()", 'ǅx'],
    ["'\\u0085\\u00a0 x\\u3000\\u2029'.trim()", 'x'],
    ["'\\ufeffx\\ufeff'.trim()", '\ufeffx\ufeff'],
    ["'\\u200bx'.trim()", '\u200bx'],
  ];
  for (const [expression, want] of values) {
    it(`${expression} == ${JSON.stringify(want)}`, () => assert.equal(run(expression), want));
  }

  const errors: [expression: string, message: string][] = [
    ["'abc'.charAt(-1)", 'index out of range: -1'],
    ["'abc'.charAt(4)", 'index out of range: 4'],
    ["'a😀c'.indexOf('c', 3)", 'index out of range: 3'],
    ["'abc'.indexOf('c', -1)", 'index out of range: -1'],
    ["''.indexOf('a')", 'index out of range: 0'],
    ["'a😀c'.lastIndexOf('a', 3)", 'index out of range: 3'],
    ["'abc'.lastIndexOf('a', -1)", 'index out of range: -1'],
    ["''.lastIndexOf('a')", 'index out of range: -1'],
    ["'a😀c'.substring(4)", 'index out of range: 4'],
    ["'abc'.substring(-1)", 'index out of range: -1'],
    ["'abc'.substring(2, 1)", 'invalid substring range. start: 2, end: 1'],
    ["'abc'.substring(-1, 2)", 'index out of range: -1'],
    ["'a😀c'.substring(1, 4)", 'index out of range: 4'],
  ];
  for (const [expression, message] of errors) {
    it(`${expression} fails: ${message}`, () => {
      assert.throws(
        () => run(expression),
        (e: unknown) => e instanceof CelEvaluationError && e.message.includes(message),
      );
    });
  }
});
