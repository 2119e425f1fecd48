import { describe } from 'node:test';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { listsLibrary } from './lists.js';
import { type CelCase, runCelCases } from './testing/cel-cases.js';

describe('kubernetes.lists', () => {
  const cases: CelCase[] = [
    // isSorted, on every comparable element type.
    { expr: '[1, 2, 3].isSorted()', want: true },
    { expr: "['a', 'b', 'b', 'c'].isSorted()", want: true },
    { expr: '[2.0, 1.0].isSorted()', want: false },
    { expr: '[1].isSorted()', want: true },
    { expr: '[].isSorted()', want: true },
    { expr: '[false, true].isSorted()', want: true },
    { expr: '[true, false].isSorted()', want: false },
    { expr: '[uint(1), uint(3)].isSorted()', want: true },
    { expr: "[duration('1s'), duration('1m')].isSorted()", want: true },
    { expr: "[timestamp('2024-01-02T00:00:00Z'), timestamp('2024-01-01T00:00:00Z')].isSorted()", want: false },
    { expr: "[b'a', b'ab', b'b'].isSorted()", want: true },
    // Go's byte order, not UTF-16's: U+FFFF sorts before U+1F600.
    { expr: "['\\uffff', '\\U0001F600'].isSorted()", want: true },
    // NaN is unordered: kube's isSorted treats the failed comparison as "in order".
    { expr: "[double('NaN'), 1.0, 0.5].isSorted()", want: false },
    { expr: "[2.0, double('NaN'), 1.0].isSorted()", want: true },
    // sum: ints, uints, doubles, durations; an empty list sums to the int 0.
    { expr: '[1, 3].sum()', want: 4n },
    { expr: '[1.0, 3.0].sum()', want: 4 },
    { expr: '[uint(1), uint(2)].sum()', want: new UnsignedInt(3n) },
    { expr: "[duration('1m'), duration('1s')].sum() == duration('61s')", want: true },
    { expr: "[duration('-1.5s'), duration('1s')].sum() == duration('-500ms')", want: true },
    { expr: '[].sum()', want: 0n },
    { expr: 'x.sum()', want: 0, vars: { x: ['list<double>', []] } },
    { expr: 'x.sum()', want: new Duration(0n, 0), vars: { x: ['list<google.protobuf.Duration>', []] } },
    { expr: '[9223372036854775807, 1].sum()', error: 'integer overflow' },
    { expr: '[-9223372036854775807, -2].sum()', error: 'integer overflow' },
    { expr: '[uint(18446744073709551615), uint(1)].sum()', error: 'unsigned integer overflow' },
    { expr: "[duration('2562047h'), duration('2562047h')].sum()", error: 'integer overflow' },
    // min and max.
    { expr: '[1, 3].min()', want: 1n },
    { expr: '[1, 3].max()', want: 3n },
    { expr: '[1].min()', want: 1n },
    { expr: "['b', 'a', 'c'].min()", want: 'a' },
    { expr: "['b', 'a', 'c'].max()", want: 'c' },
    { expr: '[2.5, -1.0].min()', want: -1 },
    { expr: '[true, false].min()', want: false },
    { expr: "[b'b', b'a'].min() == b'a'", want: true },
    { expr: "[duration('2s'), duration('1s')].max() == duration('2s')", want: true },
    {
      expr: "[timestamp('2024-01-02T00:00:00Z'), timestamp('2024-01-01T00:00:00Z')].min() == timestamp('2024-01-01T00:00:00Z')",
      want: true,
    },
    { expr: '[uint(5), uint(2)].min()', want: new UnsignedInt(2n) },
    { expr: '([0] + x).min()', want: 0n, vars: { x: ['list<int>', []] } },
    { expr: '[].min()', error: 'min called on empty list' },
    { expr: '[].max()', error: 'max called on empty list' },
    { expr: 'x.max()', error: 'max called on empty list', vars: { x: ['list<string>', []] } },
    // indexOf and lastIndexOf compare with CEL equality, on any element type.
    { expr: '[1, 2, 2, 3].indexOf(2)', want: 1n },
    { expr: "['a', 'b', 'b', 'c'].lastIndexOf('b')", want: 2n },
    { expr: '[1.0].indexOf(1.1)', want: -1n },
    { expr: "[].indexOf('string')", want: -1n },
    { expr: '[[1], [2, 3]].indexOf([2, 3])', want: 1n },
    { expr: "[{'a': 1}, {'a': 2}].lastIndexOf({'a': 1})", want: 0n },
    { expr: "[b'x', b'y'].indexOf(b'y')", want: 1n },
    { expr: 'dyn([1, 2]).indexOf(2)', want: 1n },
    // Strings keep the standard string overloads.
    { expr: "'abc'.indexOf('c')", want: 2n },
    // Type errors are caught before evaluation.
    { expr: '[1, 2].indexOf("x")', checkError: 'found no matching overload' },
    { expr: "[{'a': 1}].min()", checkError: 'found no matching overload' },
    { expr: "['a'].sum()", checkError: 'found no matching overload' },
  ];
  runCelCases([listsLibrary], cases);
});
