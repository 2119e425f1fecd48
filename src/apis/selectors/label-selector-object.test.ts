import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SelectorParseError } from './errors.js';
import { labelSelectorString, matchesLabels } from './label-selector.js';
import { type LabelSelectorObject, labelSelectorFromObject } from './label-selector-object.js';

describe('labelSelectorFromObject', () => {
  it('matches nothing for a missing selector and everything for an empty one', () => {
    for (const missing of [undefined, null]) {
      const sel = labelSelectorFromObject(missing);
      assert.equal(sel.matchesNothing, true);
      assert.equal(matchesLabels(sel, {}), false);
    }
    for (const empty of [{}, { matchLabels: {}, matchExpressions: [] }, { matchLabels: null }]) {
      const sel = labelSelectorFromObject(empty);
      assert.equal(sel.empty, true);
      assert.equal(matchesLabels(sel, { any: 'thing' }), true);
    }
  });

  const cases: [LabelSelectorObject, string][] = [
    [{ matchLabels: { b: '2', a: '1' } }, 'a=1,b=2'],
    [{ matchExpressions: [{ key: 'a', operator: 'In', values: ['y', 'x'] }] }, 'a in (x,y)'],
    [{ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] }, 'a notin (x)'],
    [{ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, 'a'],
    [{ matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: [] }] }, '!a'],
    [{ matchLabels: { z: '1' }, matchExpressions: [{ key: 'a', operator: 'Exists' }] }, 'a,z=1'],
  ];
  for (const [obj, expected] of cases) {
    it(`converts ${JSON.stringify(obj)}`, () => {
      assert.equal(labelSelectorString(labelSelectorFromObject(obj)), expected);
    });
  }

  it('matches like the equivalent selector', () => {
    const sel = labelSelectorFromObject({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['front', 'edge'] },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    assert.equal(matchesLabels(sel, { app: 'web', tier: 'edge' }), true);
    assert.equal(matchesLabels(sel, { app: 'web', tier: 'back' }), false);
    assert.equal(matchesLabels(sel, { app: 'web', tier: 'edge', legacy: '' }), false);
  });

  const bad: [LabelSelectorObject, string][] = [
    [{ matchExpressions: [{ key: 'a', operator: 'Foo' }] }, '"Foo" is not a valid label selector operator'],
    [
      { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] },
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x', 'y'] }] },
      'values: Invalid value: []string{"x", "y"}: values set must be empty for exists and does not exist',
    ],
    [
      { matchLabels: { 'a b': 'c' } },
      `key: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ],
  ];
  for (const [obj, message] of bad) {
    it(`rejects ${JSON.stringify(obj)}`, () => {
      assert.throws(
        () => labelSelectorFromObject(obj),
        (err: unknown) => err instanceof SelectorParseError && err.message === message,
      );
    });
  }
});
