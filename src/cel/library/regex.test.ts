import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { regexLibrary } from './regex.js';
import { type CelCase, celEnvironment, runCelCases } from './testing/cel-cases.js';

describe('kubernetes.regex', () => {
  const cases: CelCase[] = [
    { expr: "'abc 123'.find('[0-9]+')", want: '123' },
    { expr: "'abc 123'.find('[0-9]*')", want: '' },
    { expr: "'abc 123'.find('xyz')", want: '' },
    { expr: "'123 abc 456'.findAll('[0-9]+')", want: ['123', '456'] },
    { expr: "'123 abc 456'.findAll('[0-9]+', 1)", want: ['123'] },
    { expr: "'123 abc 456'.findAll('[0-9]+', 0)", want: [] },
    { expr: "'123 abc 456'.findAll('[0-9]+', -1)", want: ['123', '456'] },
    { expr: "'123 abc 456'.findAll('xyz')", want: [] },
    // Go's rule for empty matches: one after the other, but none right after a match.
    { expr: "'123 abc 456'.findAll('[0-9]*')", want: ['123', '', '', '', '', '456'] },
    { expr: "'abc'.findAll('')", want: ['', '', '', ''] },
    { expr: "'abc'.findAll('', 2)", want: ['', ''] },
    { expr: "'aXbX'.findAll('X*')", want: ['', 'X', 'X'] },
    // Go's own table (regexp/find_test.go): `a*` on "baaab" finds [0,0], [1,4], [5,5].
    { expr: "'baaab'.findAll('a*')", want: ['', 'aaa', ''] },
    // Code points, not UTF-16 units; RE2 syntax (classes, flags, named groups, \\z).
    { expr: "'😀é'.findAll('.')", want: ['😀', 'é'] },
    { expr: "'x😀y'.findAll('')", want: ['', '', '', ''] },
    { expr: "'Hello World'.find('(?i)world')", want: 'World' },
    { expr: "'a1b22'.findAll('\\\\d+')", want: ['1', '22'] },
    { expr: "'Straße'.find('\\\\pL+$')", want: 'Straße' },
    { expr: "'ab\\ncd'.findAll('(?m)^[a-z]+$')", want: ['ab', 'cd'] },
    { expr: "'ab\\ncd'.find('(?P<first>[a-z]+)')", want: 'ab' },
    // Go's messages for bad patterns, and no backtracking-only syntax.
    { expr: "'abc'.find('(')", error: 'Illegal regex: error parsing regexp: missing closing ): `(`' },
    { expr: "'abc'.findAll('[a')", error: 'Illegal regex: error parsing regexp: missing closing ]: `[a`' },
    {
      expr: "'abc'.findAll('a**', 1)",
      error: 'Illegal regex: error parsing regexp: invalid nested repetition operator: `**`',
    },
    {
      expr: "'abc'.find('(?=a)')",
      error: 'Illegal regex: error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
    },
    { expr: "'abc'.find('\\\\1')", error: 'Illegal regex: error parsing regexp: invalid escape sequence: `\\1`' },
    { expr: "'abc'.find(1)", checkError: 'found no matching overload' },
  ];
  runCelCases([regexLibrary()], cases);

  it('runs in linear time on patterns that make a backtracking engine explode', () => {
    const input = `${'a'.repeat(5000)}!`;
    const env = celEnvironment([regexLibrary()], { s: ['string', input] });
    const started = Date.now();
    assert.deepEqual(env.evaluate("s.find('^(a+)+$')", { s: input }), '');
    assert.ok(Date.now() - started < 2000);
  });
});
