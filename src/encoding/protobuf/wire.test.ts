import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtobufDecodeError } from './errors.js';
import { ProtoReader } from './wire-reader.js';
import { ProtoWriter } from './wire-writer.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

function written(fn: (w: ProtoWriter) => void): string {
  const w = new ProtoWriter(4);
  fn(w);
  return hex(w.finish());
}

describe('ProtoWriter / ProtoReader varints', () => {
  const cases: [number, string][] = [
    [0, '00'],
    [1, '01'],
    [127, '7f'],
    [128, '8001'],
    [300, 'ac02'],
    [2 ** 31 - 1, 'ffffffff07'],
    [2 ** 31, '8080808008'],
    [2 ** 32, '8080808010'],
    [2 ** 53 - 1, 'ffffffffffffff0f'],
    // Negative values are 64-bit two's complement: always ten bytes.
    [-1, 'ffffffffffffffffff01'],
    [-2, 'feffffffffffffffff01'],
    [-(2 ** 31), '80808080f8ffffffff01'],
    [-(2 ** 32), '80808080f0ffffffff01'],
    [-(2 ** 53) + 1, '81808080808080f0ff01'],
  ];
  for (const [n, encoded] of cases) {
    it(`int64 ${n} ⇄ ${encoded}`, () => {
      assert.equal(
        written((w) => w.svarint(n)),
        encoded,
      );
      const r = new ProtoReader(bytes(encoded));
      assert.equal(r.int64(r.length), n);
      assert.equal(r.pos, r.length);
    });
  }

  it('int32 reads the low 32 bits, signed (a ten-byte -5 and an overlong 2^32+7)', () => {
    let r = new ProtoReader(bytes('fbffffffffffffffff01'));
    assert.equal(r.int32(r.length), -5);
    r = new ProtoReader(bytes('8780808010'));
    assert.equal(r.int32(r.length), 7);
  });

  it('bool treats any non-zero varint as true', () => {
    const r = new ProtoReader(bytes('00 01 8001 8000'));
    assert.deepEqual([r.bool(8), r.bool(8), r.bool(8), r.bool(8)], [false, true, true, false]);
  });

  it('rejects truncated and overlong varints', () => {
    assert.throws(
      () => new ProtoReader(bytes('ff')).int64(1),
      (e) => e instanceof ProtobufDecodeError && e.reason === 'truncated',
    );
    assert.throws(
      () => new ProtoReader(bytes('ffffffffffffffffffff01')).int64(11),
      (e) => e instanceof ProtobufDecodeError && e.reason === 'malformed',
    );
    assert.throws(
      () => new ProtoReader(bytes('ffffffff7f')).uint32(5),
      (e) => e instanceof ProtobufDecodeError && /32 bits/.test(e.message),
    );
  });
});

describe('ProtoWriter length-delimited values', () => {
  it('fills the reserved length byte for short values', () => {
    assert.equal(
      written((w) => {
        w.tag(1, 2);
        const m = w.fork();
        w.tag(1, 2);
        w.string('ab');
        w.join(m);
      }),
      '0a040a026162',
    );
  });

  for (const size of [127, 128, 300, 16383, 16384, 70000]) {
    it(`shifts the content for a ${size}-byte value and keeps what follows intact`, () => {
      const payload = 'z'.repeat(size);
      const w = new ProtoWriter(8);
      w.tag(1, 2);
      const m = w.fork();
      w.raw(Buffer.from(payload));
      w.join(m);
      w.tag(2, 0);
      w.uvarint(9);
      const out = w.finish();
      const r = new ProtoReader(out);
      assert.equal(r.uint32(r.length), 0x0a);
      assert.equal(r.string(r.length), payload);
      assert.equal(r.uint32(r.length), 0x10);
      assert.equal(r.int64(r.length), 9);
      assert.equal(r.pos, out.length);
    });
  }

  it('writes strings as UTF-8 (ASCII fast path and the native path)', () => {
    for (const s of ['', 'plain', 'grüße', '✓🚀', `${'a'.repeat(60)}é`]) {
      const w = new ProtoWriter(2);
      w.string(s);
      const out = w.finish();
      const utf8 = Buffer.from(s, 'utf8');
      assert.equal(hex(out), written((x) => x.uvarint(utf8.length)) + utf8.toString('hex'));
      const r = new ProtoReader(out);
      assert.equal(r.string(r.length), s);
    }
  });

  it('rejects a length that runs past the enclosing value', () => {
    const r = new ProtoReader(bytes('05 6162'));
    assert.throws(
      () => r.string(r.length),
      (e) => e instanceof ProtobufDecodeError && e.reason === 'truncated',
    );
  });
});

describe('ProtoReader.skip', () => {
  it('skips every wire type, including nested groups', () => {
    // varint, fixed64, length-delimited, fixed32, then group 5 holding a varint and group 6.
    const data = bytes('9601 0102030405060708 03616263 01020304 0807 33 34 2c');
    const r = new ProtoReader(data);
    r.skip(0, data.length, 1);
    r.skip(1, data.length, 1);
    r.skip(2, data.length, 1);
    r.skip(5, data.length, 1);
    r.skip(3, data.length, 5);
    assert.equal(r.pos, data.length);
  });

  it('rejects illegal wire types and unmatched end-group tags', () => {
    assert.throws(() => new ProtoReader(bytes('00')).skip(6, 1, 1), /illegal wire type 6/);
    assert.throws(() => new ProtoReader(bytes('00')).skip(4, 1, 1), /unexpected end-group/);
    assert.throws(() => new ProtoReader(bytes('34')).skip(3, 1, 5), /mismatched end-group/);
  });
});
