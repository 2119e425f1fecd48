import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goQuoteList, goTime } from './go-format.js';

describe('Go formatting', () => {
  it('quotes string lists as %q does', () => {
    assert.equal(goQuoteList([]), '[]');
    assert.equal(goQuoteList(['a', 'b "c"']), '["a" "b \\"c\\""]');
  });
  it('prints times as time.Time %v in UTC', () => {
    assert.equal(goTime(new Date(Date.UTC(2026, 0, 2, 3, 4, 5))), '2026-01-02 03:04:05 +0000 UTC');
    assert.equal(goTime(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 120))), '2026-01-02 03:04:05.12 +0000 UTC');
  });
});
