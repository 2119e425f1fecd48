import { describe } from 'node:test';
import { setsLibrary } from './sets.js';
import { type CelCase, runCelCases } from './testing/cel-cases.js';

describe('cel.lib.ext.sets', () => {
  const cases: CelCase[] = [
    // cel-go's own table (ext/sets_test.go), with literals kept homogeneous as kube requires.
    { expr: 'sets.contains([], [])', want: true },
    { expr: 'sets.contains([1], [])', want: true },
    { expr: 'sets.contains([1], [1])', want: true },
    { expr: 'sets.contains([1], [1, 1])', want: true },
    { expr: 'sets.contains([1, 1], [1])', want: true },
    { expr: 'sets.contains([2, 1], [1])', want: true },
    { expr: 'sets.contains([1, 2, 3, 4], [2, 3])', want: true },
    { expr: 'sets.contains([1], [2])', want: false },
    { expr: 'sets.contains([], [1])', want: false },
    { expr: 'sets.contains([1, 2], [1, 2, 3])', want: false },
    // Numbers compare across types. (The engine dispatches on the first elements' runtime
    // types, so those must agree; kube has no such limit.)
    { expr: 'sets.contains([dyn(1), dyn(2.0), dyn(3u)], [dyn(1), dyn(2u), dyn(3.0)])', want: true },
    { expr: 'sets.contains([[1], [2, 3]], [[2, 3]])', want: true },
    { expr: "sets.contains([{'a': 1}], [{'a': 1}])", want: true },
    { expr: 'sets.contains(x, [[dyn(2), dyn(3.0)]])', want: true, vars: { x: ['list<list<dyn>>', [[1n], [2n, 3n]]] } },
    { expr: "sets.contains(['a', 'b'], ['b'])", want: true },
    { expr: 'sets.equivalent([], [])', want: true },
    { expr: 'sets.equivalent([1], [1])', want: true },
    { expr: 'sets.equivalent([1], [1, 1])', want: true },
    { expr: 'sets.equivalent([1, 2, 3], [3, 2, 1])', want: true },
    { expr: 'sets.equivalent([1], [2])', want: false },
    { expr: 'sets.equivalent([1, 2], [2, 2, 2])', want: false },
    { expr: 'sets.equivalent([dyn(1), dyn(2u)], [dyn(2), dyn(1.0)])', want: true },
    { expr: 'sets.intersects([], [])', want: false },
    { expr: 'sets.intersects([1], [])', want: false },
    { expr: 'sets.intersects([1], [1])', want: true },
    { expr: 'sets.intersects([1, 2], [2, 3])', want: true },
    { expr: 'sets.intersects([1, 2], [3])', want: false },
    { expr: 'sets.intersects([dyn(1), dyn(2)], [dyn(3), dyn(2.0)])', want: true },
    { expr: "sets.contains([1], ['a'])", checkError: 'no matching overload' },
  ];
  runCelCases([setsLibrary], cases);
});
