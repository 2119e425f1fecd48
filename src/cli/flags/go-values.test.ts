import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goQuote } from '../../util/go-strconv.js';
import { formatGoDuration, parseCsvRecord, parseGoBool, parseGoDuration, parseGoInt } from './go-values.js';

describe('parseGoDuration', () => {
  const ok: [string, number][] = [
    ['0', 0],
    ['-0', 0],
    ['+0', 0],
    ['5m', 300_000],
    ['30s', 30_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['1.5h', 5_400_000],
    ['1.1s', 1100],
    ['.5s', 500],
    ['1.s', 1000],
    ['-5m', -300_000],
    ['+2s', 2000],
    ['2h45m30.5s', 9_930_500],
    ['1500us', 1.5],
    ['1µs', 0.001],
    ['1μs', 0.001],
    ['250ns', 0.00025],
    ['0s', 0],
    ['0h0m', 0],
  ];
  for (const [s, ms] of ok) it(`${s} → ${ms}ms`, () => assert.equal(parseGoDuration(s), ms));

  const bad: [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['abc', 'time: invalid duration "abc"'],
    ['.', 'time: invalid duration "."'],
    ['-', 'time: invalid duration "-"'],
    ['5', 'time: missing unit in duration "5"'],
    ['00', 'time: missing unit in duration "00"'],
    ['1h5', 'time: missing unit in duration "1h5"'],
    ['5x', 'time: unknown unit "x" in duration "5x"'],
    ['1e3s', 'time: unknown unit "e" in duration "1e3s"'],
    ['5 m', 'time: unknown unit " m" in duration "5 m"'],
    ['9999999999h', 'time: invalid duration "9999999999h"'],
  ];
  for (const [s, error] of bad) it(`${JSON.stringify(s)} fails`, () => assert.deepEqual(parseGoDuration(s), { error }));
});

describe('formatGoDuration', () => {
  const rows: [number, string][] = [
    [0, '0s'],
    [300_000, '5m0s'],
    [5_400_000, '1h30m0s'],
    [3_600_000, '1h0m0s'],
    [500, '500ms'],
    [1.5, '1.5ms'],
    [0.0015, '1.5µs'],
    [0.00025, '250ns'],
    [30_000, '30s'],
    [90_500, '1m30.5s'],
    [-2000, '-2s'],
  ];
  for (const [ms, s] of rows) it(`${ms}ms → ${s}`, () => assert.equal(formatGoDuration(ms), s));

  it('round-trips what it formats', () => {
    for (const ms of [1, 999, 61_000, 86_400_000, 0.5]) assert.equal(parseGoDuration(formatGoDuration(ms)), ms);
  });
});

describe('parseGoInt', () => {
  const ok: [string, number][] = [
    ['0', 0],
    ['6443', 6443],
    ['-1', -1],
    ['+7', 7],
    ['0x1F', 31],
    ['0o17', 15],
    ['017', 15],
    ['0b101', 5],
    ['1_000', 1000],
    ['0x_ff', 255],
  ];
  for (const [s, n] of ok) it(`${s} → ${n}`, () => assert.equal(parseGoInt(s), n));
  const bad: [string, string][] = [
    ['abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['08', 'strconv.ParseInt: parsing "08": invalid syntax'],
    ['1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ['1__0', 'strconv.ParseInt: parsing "1__0": invalid syntax'],
    ['_1', 'strconv.ParseInt: parsing "_1": invalid syntax'],
    ['0x', 'strconv.ParseInt: parsing "0x": invalid syntax'],
    [' 1', 'strconv.ParseInt: parsing " 1": invalid syntax'],
    ['9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
  ];
  for (const [s, error] of bad) it(`${JSON.stringify(s)} fails`, () => assert.deepEqual(parseGoInt(s), { error }));
});

describe('parseGoBool and goQuote', () => {
  it('accepts Go spellings only', () => {
    for (const t of ['1', 't', 'T', 'true', 'TRUE', 'True']) assert.equal(parseGoBool(t), true);
    for (const f of ['0', 'f', 'F', 'false', 'FALSE', 'False']) assert.equal(parseGoBool(f), false);
    assert.deepEqual(parseGoBool('yes'), { error: 'strconv.ParseBool: parsing "yes": invalid syntax' });
    assert.deepEqual(parseGoBool('tRUE'), { error: 'strconv.ParseBool: parsing "tRUE": invalid syntax' });
  });

  it('quotes like %q', () => {
    assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(goQuote('x\ny\u0001'), '"x\\ny\\x01"');
    assert.equal(goQuote('é'), '"é"');
  });
});

describe('parseCsvRecord', () => {
  const ok: [string, string[]][] = [
    ['', []],
    ['a', ['a']],
    ['a,b', ['a', 'b']],
    ['a,,b', ['a', '', 'b']],
    ['a,', ['a', '']],
    [',a', ['', 'a']],
    ['"a,b",c', ['a,b', 'c']],
    ['"say ""hi""",x', ['say "hi"', 'x']],
    [' a , b', [' a ', ' b']],
  ];
  for (const [s, fields] of ok) it(`${JSON.stringify(s)}`, () => assert.deepEqual(parseCsvRecord(s), fields));
  it('rejects bad quoting', () => {
    assert.deepEqual(parseCsvRecord('a"b'), { error: 'parse error on line 1, column 2: bare " in non-quoted-field' });
    assert.deepEqual(parseCsvRecord('"ab'), {
      error: 'parse error on line 1, column 4: extraneous or missing " in quoted-field',
    });
    assert.deepEqual(parseCsvRecord('"a"b'), {
      error: 'parse error on line 1, column 4: extraneous or missing " in quoted-field',
    });
  });
});
