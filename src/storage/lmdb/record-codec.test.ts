import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import {
  crc32Small,
  damageLogRecord,
  decodeLogRecord,
  encodeLogRecordInto,
  logRecordSize,
  RECORD_PUT,
} from './record-codec.js';

describe('record codec', () => {
  it('computes the same CRC-32 as zlib, over any sub-range', () => {
    const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37 + 11) & 0xff));
    for (const [start, end] of [
      [0, 0],
      [0, 1],
      [3, 64],
      [0, 300],
      [17, 299],
    ]) {
      assert.equal(crc32Small(bytes, start, end), crc32(bytes.subarray(start, end)) >>> 0, `${start}..${end}`);
    }
  });

  it('checksums ASCII and non-ASCII keys alike: the header CRC covers the header and key bytes', () => {
    for (const key of ['/registry/configmaps/ns/a', '/registry/configmaps/ns/ä', '/r/😀/x', '']) {
      const value = new TextEncoder().encode('{"a":1}');
      const keyBytes = Buffer.byteLength(key);
      const buf = encodeLogRecordInto(
        Buffer.alloc(logRecordSize(keyBytes, value.length)),
        { type: RECORD_PUT, key, modRevision: 7, createRevision: 5, previousRevision: 5, value },
        keyBytes,
      );
      assert.equal(buf.readUInt32BE(4), crc32(buf.subarray(12, 40 + keyBytes)) >>> 0, key);
      assert.equal(decodeLogRecord(buf)?.key, key);
    }
  });

  it('round-trips a record read from a larger shared buffer, and flags a damaged value', () => {
    const key = '/registry/pods/ns/ä';
    const value = new TextEncoder().encode('{"a":1}');
    const keyBytes = Buffer.byteLength(key);
    const rec = encodeLogRecordInto(
      Buffer.alloc(logRecordSize(keyBytes, value.byteLength)),
      { type: RECORD_PUT, key, modRevision: 2 ** 40 + 5, createRevision: 3, previousRevision: 4, value },
      keyBytes,
    );
    // Like lmdb's getBinaryFast: a big buffer whose own `length` property says how much is valid.
    const shared = Buffer.alloc(4096, 0xaa);
    rec.copy(shared);
    Object.defineProperty(shared, 'length', { value: rec.length, configurable: true });
    for (const copyValue of [true, false]) {
      const out = decodeLogRecord(shared, { copyValue });
      assert.ok(out);
      assert.equal(out.key, key);
      assert.equal(out.modRevision, 2 ** 40 + 5);
      assert.equal(out.valueOk, true);
      assert.deepEqual(Buffer.from(out.value), Buffer.from(value));
    }
    const damaged = decodeLogRecord(damageLogRecord(rec), { copyValue: true });
    assert.equal(damaged?.valueOk, false);
  });
});
