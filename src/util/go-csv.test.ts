import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CsvParseError, readGoCsv } from './go-csv.js';

describe('readGoCsv', () => {
  const cases: { name: string; input: string; want: { line: number; fields: string[] }[] }[] = [
    { name: 'empty input', input: '', want: [] },
    { name: 'one record', input: 'a,b,c\n', want: [{ line: 1, fields: ['a', 'b', 'c'] }] },
    { name: 'no final newline', input: 'a,b', want: [{ line: 1, fields: ['a', 'b'] }] },
    {
      name: 'records of different lengths, blank lines skipped',
      input: 'a,b\n\nc,d,e\n',
      want: [
        { line: 1, fields: ['a', 'b'] },
        { line: 3, fields: ['c', 'd', 'e'] },
      ],
    },
    {
      name: 'CRLF',
      input: 'a,b\r\nc,d\r\n',
      want: [
        { line: 1, fields: ['a', 'b'] },
        { line: 2, fields: ['c', 'd'] },
      ],
    },
    { name: 'quoted commas', input: 't,u,1,"g1,g2"\n', want: [{ line: 1, fields: ['t', 'u', '1', 'g1,g2'] }] },
    { name: 'doubled quotes', input: '"a""b",c\n', want: [{ line: 1, fields: ['a"b', 'c'] }] },
    { name: 'spaces kept', input: ' a , b\n', want: [{ line: 1, fields: [' a ', ' b'] }] },
    { name: 'trailing comma', input: 'a,\n', want: [{ line: 1, fields: ['a', ''] }] },
    {
      name: 'quoted field across lines',
      input: '"a\nb",c\nd\n',
      want: [
        { line: 1, fields: ['a\nb', 'c'] },
        { line: 3, fields: ['d'] },
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(readGoCsv(c.input), c.want);
    });
  }

  const errors: { name: string; input: string; message: string }[] = [
    {
      name: 'bare quote',
      input: 'ok,1\nab"c,d\n',
      message: 'parse error on line 2, column 3: bare " in non-quoted-field',
    },
    {
      name: 'text after a closing quote',
      input: '"a"b,c\n',
      message: 'parse error on line 1, column 4: extraneous or missing " in quoted-field',
    },
    {
      name: 'unterminated quote',
      input: 'x\n"abc\ndef\n',
      message: 'record on line 2; parse error on line 3, column 4: extraneous or missing " in quoted-field',
    },
  ];
  for (const c of errors) {
    it(`rejects ${c.name}`, () => {
      assert.throws(
        () => readGoCsv(c.input),
        (e: unknown) => e instanceof CsvParseError && e.message === c.message,
      );
    });
  }
});
