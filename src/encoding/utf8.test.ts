import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeUtf8Lenient } from './utf8.js';

describe('decodeUtf8Lenient', () => {
  it('replaces each invalid byte with U+FFFD, as Go does', () => {
    assert.equal(decodeUtf8Lenient(Buffer.from('héllo')), 'héllo');
    assert.equal(decodeUtf8Lenient(Buffer.from([0x61, 0xe6, 0x97, 0x62])), 'a\ufffd\ufffdb');
    assert.equal(
      decodeUtf8Lenient(Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80])),
      '\ufffd'.repeat(9),
    );
    assert.equal(decodeUtf8Lenient(Buffer.from([0xef, 0xbb, 0xbf, 0x7b])), '\ufeff{');
  });
});
