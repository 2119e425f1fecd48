import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../../apis/builtin.js';
import { configMapSchema } from '../../apis/core/core-v1-schemas.js';
import { type FieldError, fieldErrors } from '../../apis/meta/field-error.js';
import { apiErrors, successStatus } from '../../apis/meta/status.js';
import { ProtobufDecodeError } from './errors.js';
import { decodeList, encodeItemMessage, encodeList, encodeListOfMessages } from './list-codec.js';
import { encodeObject, envelopeMessage } from './object-codec.js';
import { decodeStatus, encodeStatus } from './status-codec.js';
import { fixtureFor } from './testing/fixture-for.js';
import { richObjects } from './testing/fixtures.js';
import {
  decodeWatchEvent,
  decodeWatchEventObject,
  encodeWatchEvent,
  encodeWatchFrame,
  WatchFrameReader,
} from './watch-codec.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('lists', () => {
  const fixtures = richObjects();
  for (const def of builtinResources()) {
    it(`${def.listKind}: round trip with list metadata and two items`, () => {
      const item = fixtureFor(def, fixtures);
      const second = { ...item, metadata: { name: 'second' } };
      const list = {
        apiVersion: item.apiVersion,
        kind: def.listKind,
        metadata: { selfLink: '/x', resourceVersion: '77', continue: 'token', remainingItemCount: 0 },
        items: [item, second],
      };
      assert.deepEqual(decodeList(def.schema, encodeList(def.schema, list)), list);
      // The same bytes from items encoded once each.
      const messages = list.items.map((i) => encodeItemMessage(def.schema, i));
      assert.equal(hex(encodeListOfMessages(def.schema, list, messages)), hex(encodeList(def.schema, list)));
      assert.equal(hex(envelopeMessage(item, messages[0] as Uint8Array)), hex(encodeObject(def.schema, item)));
    });
  }

  it('writes ListMeta = 1 and each item as a plain message in field 2', () => {
    const list = {
      apiVersion: 'v1',
      kind: 'ConfigMapList',
      metadata: { resourceVersion: '5' },
      items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }],
    };
    const typeMeta = `0a027631 120d${Buffer.from('ConfigMapList').toString('hex')}`;
    const raw = '0a03 120135' + '1205 0a03 0a0161';
    const expected = `6b387300 0a13${typeMeta} 120c${raw} 1a00 2200`.replace(/\s+/g, '');
    assert.equal(hex(encodeList(configMapSchema, list)), expected);
  });

  it('decodes an empty list with metadata and items present', () => {
    const empty = encodeList(configMapSchema, { apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, items: [] });
    assert.deepEqual(decodeList(configMapSchema, empty, { apiVersion: 'v1', kind: 'ConfigMapList' }), {
      apiVersion: 'v1',
      kind: 'ConfigMapList',
      metadata: {},
      items: [],
    });
  });
});

describe('Status', () => {
  const errs: FieldError[] = [
    fieldErrors.required('data[a]'),
    fieldErrors.invalid('metadata.name', 'Bad', 'must be lower case'),
  ];
  const statuses = {
    invalid: apiErrors.invalid({ group: '', kind: 'ConfigMap' }, 'Bad', errs).toStatus(),
    notFound: apiErrors.notFound({ group: 'coordination.orch.io', resource: 'leases' }, 'x').toStatus(),
    tooLarge: apiErrors.tooLargeResourceVersion({ group: '', resource: 'configmaps' }, 3).toStatus(),
    success: successStatus({ name: 'x', kind: 'configmaps', uid: 'u-1' }),
  };
  for (const [name, status] of Object.entries(statuses)) {
    it(`round trip: ${name}`, () => {
      // JSON drops `undefined` detail fields the error constructors leave behind.
      assert.deepEqual(decodeStatus(encodeStatus(status)), JSON.parse(JSON.stringify(status)));
    });
  }

  it('encodes a NotFound status byte for byte', () => {
    const status = apiErrors.notFound({ group: '', resource: 'configmaps' }, 'x').toStatus();
    const s = (tag: string, v: string) =>
      `${tag}${v.length.toString(16).padStart(2, '0')}${Buffer.from(v).toString('hex')}`;
    const details = s('0a', 'x') + s('1a', 'configmaps');
    const raw =
      '0a00' + // metadata: ListMeta {}
      s('12', 'Failure') +
      s('1a', status.message ?? '') +
      s('22', 'NotFound') +
      `2a${(details.length / 2).toString(16).padStart(2, '0')}${details}` +
      '309403'; // code 404
    const typeMeta = s('0a', 'v1') + s('12', 'Status');
    const expected = `6b387300 0a${(typeMeta.length / 2).toString(16).padStart(2, '0')}${typeMeta} 12${(raw.length / 2).toString(16)}${raw} 1a00 2200`;
    assert.equal(hex(encodeStatus(status)), expected.replace(/\s+/g, ''));
  });
});

describe('watch events', () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w', resourceVersion: '9' }, data: { a: 'b' } };

  it('WatchEvent is {type = 1, object = 2 {raw = 1}} with the enveloped object in raw', () => {
    const object = encodeObject(configMapSchema, cm);
    const message = encodeWatchEvent({ type: 'ADDED', object });
    const typeHex = Buffer.from('ADDED').toString('hex');
    const rawLen = object.length.toString(16).padStart(2, '0');
    const objLen = (object.length + 2).toString(16).padStart(2, '0');
    assert.equal(hex(message), `0a05${typeHex}12${objLen}0a${rawLen}${hex(object)}`);
    const frame = encodeWatchFrame({ type: 'ADDED', object });
    assert.equal(hex(frame), message.length.toString(16).padStart(8, '0') + hex(message));
    const event = decodeWatchEvent(message);
    assert.equal(event.type, 'ADDED');
    assert.deepEqual(decodeWatchEventObject(configMapSchema, event), cm);
  });

  it('an ERROR event carries a Status', () => {
    const status = apiErrors.gone('too old resource version: 5 (10)').toStatus();
    const frame = encodeWatchFrame({ type: 'ERROR', object: encodeStatus(status) });
    const [payload] = new WatchFrameReader().push(frame);
    const event = decodeWatchEvent(payload);
    assert.equal(event.type, 'ERROR');
    assert.deepEqual(decodeWatchEventObject(configMapSchema, event), status);
  });

  it('the frame reader reassembles frames split at every byte boundary', () => {
    const types = ['ADDED', 'MODIFIED', 'BOOKMARK', 'DELETED'];
    const stream = Buffer.concat(
      types.map((type, i) =>
        encodeWatchFrame({
          type,
          object: encodeObject(configMapSchema, { ...cm, metadata: { name: `o${i}`, resourceVersion: String(i) } }),
        }),
      ),
    );
    for (const chunkSize of [1, 3, 7, 64, stream.length]) {
      const reader = new WatchFrameReader();
      const seen: string[] = [];
      for (let at = 0; at < stream.length; at += chunkSize) {
        for (const payload of reader.push(stream.subarray(at, at + chunkSize))) {
          const event = decodeWatchEvent(payload);
          const obj = decodeWatchEventObject(configMapSchema, event);
          seen.push(`${event.type}:${(obj.metadata as { name: string }).name}`);
        }
      }
      reader.finish();
      assert.deepEqual(seen, ['ADDED:o0', 'MODIFIED:o1', 'BOOKMARK:o2', 'DELETED:o3']);
    }
  });

  it('rejects oversized frames, streams cut inside a frame and malformed events', () => {
    const reader = new WatchFrameReader({ maxFrameBytes: 10 });
    assert.throws(() => reader.push(Uint8Array.of(0, 0, 0, 11)), ProtobufDecodeError);
    const partial = new WatchFrameReader();
    assert.deepEqual(partial.push(Uint8Array.of(0, 0, 0, 5, 1)), []);
    assert.throws(
      () => partial.finish(),
      (e: unknown) => e instanceof ProtobufDecodeError && e.reason === 'truncated',
    );
    assert.throws(
      () => decodeWatchEvent(Uint8Array.of(0x12, 0x03, 0x0a, 0x05, 0x00)),
      (e: unknown) => e instanceof ProtobufDecodeError && e.path === 'object',
    );
    assert.throws(
      () => decodeWatchEvent(Uint8Array.of(0x08, 0x01)),
      (e: unknown) => e instanceof ProtobufDecodeError && e.reason === 'wire-type',
    );
  });
});
