import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SelectorError, SelectorParseError } from './errors.js';
import {
  EVERYTHING_LABEL_SELECTOR,
  labelRequiresExactMatch,
  labelSelectorFromSet,
  labelSelectorString,
  matchesLabels,
  NOTHING_LABEL_SELECTOR,
  parseLabelSelector,
} from './label-selector.js';

const KEY_REGEX_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_REGEX_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const OPERATORS = 'in, notin, =, ==, !=, gt, lt';

describe('parseLabelSelector', () => {
  // input → kube's String() of the parsed selector (sorted by key, values sorted).
  const good: [string, string][] = [
    ['', ''],
    ['   \t\n', ''],
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['z=c,x=a', 'x=a,z=c'],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x=', 'x='],
    ['x= ', 'x='],
    ['x=,z= ', 'x=,z='],
    ['x==a', 'x==a'],
    ['!x', '!x'],
    [' ! x ', '!x'],
    ['x', 'x'],
    ['x>1', 'x>1'],
    ['x>1,z<5', 'x>1,z<5'],
    ['x<5', 'x<5'],
    // A NUL ends the token it follows, as kube's lexer reads it as end of input without unreading it.
    ['a,\u0000b', 'a,b'],
    ['\u0000a', ''],
    ['x in (b,a)', 'x in (a,b)'],
    ['x in (a,a,b)', 'x in (a,b)'],
    ['x notin (a)', 'x notin (a)'],
    ['x in ()', 'x in ()'],
    ['x in (,a)', 'x in (,a)'],
    ['x in (a,,b)', 'x in (,a,b)'],
    ['x in (a,)', 'x in (,a)'],
    ['x  in  ( a , b )', 'x in (a,b)'],
    ['in in (in,notin)', 'in in (in,notin)'],
    ['notin=in', 'notin=in'],
    ['example.com/key=v', 'example.com/key=v'],
    ['a=b,a=c', 'a=b,a=c'],
  ];
  for (const [input, expected] of good) {
    it(`parses ${JSON.stringify(input)}`, () => {
      assert.equal(labelSelectorString(parseLabelSelector(input)), expected);
    });
  }

  it('is deterministic regardless of requirement order', () => {
    assert.deepEqual(parseLabelSelector('x=a,a=x'), parseLabelSelector('a=x,x=a'));
  });

  it('reports empty only for no requirements', () => {
    assert.equal(parseLabelSelector('').empty, true);
    assert.equal(parseLabelSelector('a').empty, false);
  });

  const bad: [string, string][] = [
    ['x=a||y=b', `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${VALUE_REGEX_MSG}`],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    [
      'x<a',
      `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'x>99999999999999999999',
      `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    ['a b', `unable to parse requirement: found 'b', expected: ${OPERATORS}`],
    ['a (', `unable to parse requirement: found '(', expected: ${OPERATORS}`],
    ['a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['a in', "unable to parse requirement: found '' expected: '('"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'"],
    ['a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a in (b,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['a in (b,', "unable to parse requirement: found '', expected: ',', or identifier"],
    ['a=(b)', "unable to parse requirement: found '(', expected: identifier"],
    ['a,', "found '', expected: identifier after ','"],
    ['a,,b', "found ',', expected: identifier after ','"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!!a', "unable to parse requirement: found '!', expected: identifier"],
    ['-a', `unable to parse requirement: <nil>: Invalid value: "-a": ${KEY_REGEX_MSG}`],
    [
      'a/b/c=d',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name ${KEY_REGEX_MSG.replace('name part must', 'must')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    [
      `${'k'.repeat(64)}`,
      `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`,
    ],
    [
      `a=${'v'.repeat(64)}`,
      `unable to parse requirement: values[0][a]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
    ],
    [
      'a in (-x,-y)',
      `unable to parse requirement: [values[0][a]: Invalid value: "-x": ${VALUE_REGEX_MSG}, values[1][a]: Invalid value: "-y": ${VALUE_REGEX_MSG}]`,
    ],
    ['a=b\u0001', `unable to parse requirement: values[0][a]: Invalid value: "b\\x01": ${VALUE_REGEX_MSG}`],
    ['a=b, \u0000c', "found '', expected: identifier after ','"],
    ['x<-5', `unable to parse requirement: values[0][x]: Invalid value: "-5": ${VALUE_REGEX_MSG}`],
  ];
  for (const [input, message] of bad) {
    it(`rejects ${JSON.stringify(input)}`, () => {
      assert.throws(
        () => parseLabelSelector(input),
        (err: unknown) => {
          assert.ok(err instanceof SelectorParseError);
          assert.ok(err instanceof SelectorError);
          assert.equal(err.selector, 'label');
          assert.equal(err.message, message);
          return true;
        },
      );
    });
  }
});

describe('matchesLabels', () => {
  const labels = { foo: 'bar', baz: 'blah', n: '5' };
  const cases: [string, Record<string, string>, boolean][] = [
    ['', { x: 'y' }, true],
    ['x=y', { x: 'y' }, true],
    ['x==y', { x: 'y' }, true],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['notin=in', { notin: 'in' }, true],
    ['x', { x: 'z' }, true],
    ['!x', { y: 'z' }, true],
    ['x>1', { x: '2' }, true],
    ['x<1', { x: '0' }, true],
    ['x=', { x: '' }, true],
    ['x=z', {}, false],
    ['x=y', { x: 'z' }, false],
    ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { x: 'z', z: 'w' }, false],
    ['x', { y: 'z' }, false],
    ['!x', { x: 'z' }, false],
    ['x>1', { x: '0' }, false],
    ['x<1', { x: '2' }, false],
    ['x>1', { x: 'abc' }, false],
    ['x>1', {}, false],
    ['x=', {}, false],
    ['x!=y', {}, true],
    ['x notin (a)', {}, true],
    ['x notin (a,b)', { x: 'b' }, false],
    ['x in (a,b)', { x: 'b' }, true],
    ['x in (a,b)', {}, false],
    ['x in ()', { x: '' }, true],
    ['foo=bar,baz=blah', labels, true],
    ['foo=blah', labels, false],
    ['n>4,n<6', labels, true],
    ['toString', {}, false],
    ['!constructor', {}, true],
  ];
  for (const [selector, set, expected] of cases) {
    it(`${JSON.stringify(selector)} ${expected ? 'matches' : 'does not match'} ${JSON.stringify(set)}`, () => {
      assert.equal(matchesLabels(parseLabelSelector(selector), set), expected);
    });
  }

  it('treats missing labels as the empty set', () => {
    assert.equal(matchesLabels(parseLabelSelector('!a'), undefined), true);
    assert.equal(matchesLabels(parseLabelSelector('a'), null), false);
  });

  it('everything matches everything, nothing matches nothing', () => {
    assert.equal(matchesLabels(EVERYTHING_LABEL_SELECTOR, { a: 'b' }), true);
    assert.equal(matchesLabels(NOTHING_LABEL_SELECTOR, { a: 'b' }), false);
    assert.equal(NOTHING_LABEL_SELECTOR.empty, false);
  });
});

describe('labelRequiresExactMatch', () => {
  const cases: [string, string, string | undefined][] = [
    ['a=b', 'a', 'b'],
    ['a==b', 'a', 'b'],
    ['a in (b)', 'a', 'b'],
    ['a in (b,c)', 'a', undefined],
    ['a!=b', 'a', undefined],
    ['a', 'a', undefined],
    ['x=y', 'a', undefined],
    ['a!=c,a=b', 'a', undefined],
  ];
  for (const [selector, key, expected] of cases) {
    it(`${selector} on ${key} → ${expected}`, () => {
      assert.equal(labelRequiresExactMatch(parseLabelSelector(selector), key), expected);
    });
  }
});

describe('labelSelectorFromSet', () => {
  it('requires every pair, sorted by key', () => {
    const sel = labelSelectorFromSet({ b: '2', a: '1' });
    assert.equal(labelSelectorString(sel), 'a=1,b=2');
    assert.equal(matchesLabels(sel, { a: '1', b: '2', c: '3' }), true);
    assert.equal(matchesLabels(sel, { a: '1' }), false);
  });
  it('is everything for an empty set', () => {
    assert.equal(labelSelectorFromSet({}).empty, true);
  });
});
