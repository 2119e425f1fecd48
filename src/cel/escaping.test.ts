import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeCelName } from './escaping.js';

describe('escapeCelName', () => {
  const cases: [name: string, escaped: string | undefined][] = [
    ['replicas', 'replicas'],
    ['_x', '_x'],
    ['a_b', 'a_b'],
    // the four escapes
    ['foo-bar', 'foo__dash__bar'],
    ['foo.bar', 'foo__dot__bar'],
    ['foo/bar', 'foo__slash__bar'],
    ['foo__bar', 'foo__underscores__bar'],
    // leftmost pairs first: `___` is `__` then `_`
    ['a___b', 'a__underscores___b'],
    ['____', '__underscores____underscores__'],
    ['.-/', '__dot____dash____slash__'],
    ['-leading', '__dash__leading'],
    ['x.y/z-w__v', 'x__dot__y__slash__z__dash__w__underscores__v'],
    // reserved words of the CEL grammar
    ['namespace', '__namespace__'],
    ['in', '__in__'],
    ['true', '__true__'],
    ['false', '__false__'],
    ['null', '__null__'],
    ['return', '__return__'],
    ['while', '__while__'],
    ['var', '__var__'],
    // only an exact match is reserved
    ['namespaces', 'namespaces'],
    ['Namespace', 'Namespace'],
    // inaccessible: empty, leading digit, other characters
    ['', undefined],
    ['1abc', undefined],
    ['a b', undefined],
    ['a:b', undefined],
    ['café', undefined],
    ['a@b', undefined],
    ['a$', undefined],
  ];
  for (const [name, escaped] of cases) {
    it(`${JSON.stringify(name)} → ${escaped === undefined ? 'inaccessible' : escaped}`, () => {
      assert.equal(escapeCelName(name), escaped);
    });
  }
});
