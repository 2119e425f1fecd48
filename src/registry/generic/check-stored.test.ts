import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CorruptValueError } from '../../storage/errors.js';
import type { KeyValue } from '../../storage/store.js';

import { checkStored, decodeStored } from './stored-object.js';

const kv = (value: Uint8Array | string, corrupt?: CorruptValueError): KeyValue => ({
  key: '/registry/core/configmaps/ns/a',
  value: typeof value === 'string' ? Buffer.from(value, 'utf8') : value,
  createRevision: 1n,
  modRevision: 2n,
  ...(corrupt ? { corrupt } : {}),
});

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

/** Outcome of a check: the error's class and message, or 'ok'. */
function outcome(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (e) {
    return `${(e as Error).constructor.name}: ${(e as Error).message}`;
  }
}

describe('checkStored', () => {
  const cases: [string, KeyValue, 'ok' | 'not JSON' | 'not an object with metadata' | 'corrupt'][] = [
    ['an object with metadata', kv('{"metadata":{"name":"a"},"data":{"x":"y"}}'), 'ok'],
    ['an integer beyond 2^53', kv('{"metadata":{"generation":9007199254740993}}'), 'ok'],
    ['an array as metadata (typeof object)', kv('{"metadata":[]}'), 'ok'],
    ['a leading byte-order mark', kv(bytes([0xef, 0xbb, 0xbf], '{"metadata":{}}')), 'ok'],
    ['two byte-order marks', kv(bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], '{"metadata":{}}')), 'not JSON'],
    ['non-ASCII text', kv('{"metadata":{"annotations":{"a":"ünïcødé ✓ 😀"}}}'), 'ok'],
    ['duplicate metadata, the last an object', kv('{"metadata":1,"metadata":{}}'), 'ok'],
    ['duplicate metadata, the last null', kv('{"metadata":{},"metadata":null}'), 'not an object with metadata'],
    ['invalid UTF-8', kv(bytes('{"metadata":{"a":"', [0xff], '"}}')), 'not JSON'],
    ['an overlong encoding', kv(bytes('{"metadata":{"a":"', [0xc0, 0xaf], '"}}')), 'not JSON'],
    ['an encoded surrogate', kv(bytes('{"metadata":{"a":"', [0xed, 0xa0, 0x80], '"}}')), 'not JSON'],
    ['a truncated sequence', kv(bytes('{"metadata":{"a":"', [0xe2, 0x82], '"}}')), 'not JSON'],
    ['truncated JSON', kv('{"metadata":{"name":"a"}'), 'not JSON'],
    ['trailing garbage', kv('{"metadata":{}} x'), 'not JSON'],
    ['empty', kv(''), 'not JSON'],
    ['an array', kv('[{"metadata":{}}]'), 'not an object with metadata'],
    ['a string', kv('"metadata"'), 'not an object with metadata'],
    ['null', kv('null'), 'not an object with metadata'],
    ['no metadata', kv('{"kind":"ConfigMap"}'), 'not an object with metadata'],
    ['null metadata', kv('{"metadata":null}'), 'not an object with metadata'],
    ['string metadata', kv('{"metadata":"x"}'), 'not an object with metadata'],
    ['flagged corrupt by the store', kv('', new CorruptValueError('/k', 'the value fails its checksum')), 'corrupt'],
  ];
  for (const [name, input, expected] of cases) {
    it(`${name}: ${expected}, as decodeStored decides`, () => {
      const got = outcome(() => checkStored(input));
      assert.equal(
        got,
        outcome(() => decodeStored(input)),
      );
      if (expected === 'ok') assert.equal(got, 'ok');
      else if (expected === 'corrupt') assert.equal(got, `CorruptValueError: ${input.corrupt?.message}`);
      else
        assert.match(got, new RegExp(`^CorruptValueError: .*${expected === 'not JSON' ? 'not valid JSON' : expected}`));
    });
  }

  it('reports the decoder error as the cause of invalid UTF-8', () => {
    const input = kv(bytes('{"metadata":{"a":"', [0xff], '"}}'));
    const err = (() => {
      try {
        checkStored(input);
      } catch (e) {
        return e as CorruptValueError;
      }
    })();
    assert.ok(err instanceof CorruptValueError);
    assert.ok(err.cause instanceof TypeError);
  });

  it('checks a value that is a view into a larger buffer', () => {
    const big = Buffer.from('xx{"metadata":{}}yy');
    assert.equal(
      outcome(() => checkStored(kv(big.subarray(2, big.length - 2)))),
      'ok',
    );
    assert.notEqual(
      outcome(() => checkStored(kv(big.subarray(2)))),
      'ok',
    );
  });
});
