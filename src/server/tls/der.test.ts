import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  children,
  DerError,
  directoryString,
  namedBits,
  oid,
  readElement,
  sequence,
  setOf,
  smallInteger,
  time,
  tlv,
  unsignedInteger,
} from './der.js';

const hex = (b: Buffer) => b.toString('hex');

describe('DER encodings', () => {
  const cases: [string, Buffer, string][] = [
    ['OID with multi-byte arcs', oid('1.2.840.113549.1.1.11'), '06092a864886f70d01010b'],
    ['OID of an extension', oid('2.5.29.19'), '0603551d13'],
    ['small integer', smallInteger(2), '020102'],
    ['integer with the top bit set gets a leading zero', unsignedInteger(Buffer.from([0x80, 1])), '0203008001'],
    ['integer without redundant leading zeros', unsignedInteger(Buffer.from([0, 0, 0x7f])), '02017f'],
    ['zero', unsignedInteger(Buffer.from([0, 0])), '020100'],
    ['named bits 0,5,6 (CA key usage)', namedBits([0, 5, 6]), '03020186'],
    ['named bit 0 alone', namedBits([0]), '03020780'],
    ['named bit 8 spills into a second byte', namedBits([0, 8]), '0303078080'],
    ['PrintableString when allowed', directoryString('orch-apiserver'), '130e6f7263682d617069736572766572'],
    ['UTF8String otherwise', directoryString('a@b'), '0c03614062'],
    ['UTCTime before 2050', time(new Date(Date.UTC(2026, 0, 2, 3, 4, 5))), '170d3236303130323033303430355a'],
    [
      'GeneralizedTime from 2050',
      time(new Date(Date.UTC(2050, 11, 31, 23, 59, 59))),
      '180f32303530313233313233353935395a',
    ],
    ['SET OF sorted by encoding', setOf(smallInteger(5), smallInteger(1)), '3106020101020105'],
    ['long form length', tlv(0x04, Buffer.alloc(200)), `0481c8${'00'.repeat(200)}`],
  ];
  for (const [name, got, want] of cases) it(name, () => assert.equal(hex(got), want));
});

describe('DER reader', () => {
  it('walks nested elements', () => {
    const encoded = sequence(smallInteger(1), sequence(oid('2.5.4.3')), tlv(0x04, Buffer.alloc(300)));
    const top = readElement(encoded);
    assert.equal(top.tag, 0x30);
    assert.equal(top.encoded.length, encoded.length);
    const items = children(top.contents);
    assert.deepEqual(
      items.map((e) => e.tag),
      [0x02, 0x30, 0x04],
    );
    assert.equal(items[2]!.contents.length, 300);
    assert.equal(hex(children(items[1]!.contents)[0]!.encoded), '0603550403');
  });

  const bad: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['contents shorter than the length', Buffer.from([0x30, 0x05, 0x02])],
    ['indefinite length', Buffer.from([0x30, 0x80, 0x00, 0x00])],
    ['length bytes missing', Buffer.from([0x04, 0x82, 0x01])],
  ];
  for (const [name, bytes] of bad) it(`rejects ${name}`, () => assert.throws(() => readElement(bytes), DerError));
});
