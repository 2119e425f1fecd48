import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../../apis/builtin.js';
import { leaseSchema } from '../../apis/coordination/coordination-v1-schemas.js';
import { configMapSchema, eventSchema, namespaceSchema, secretSchema } from '../../apis/core/core-v1-schemas.js';
import { deleteOptionsSchema } from '../../apis/meta/meta-v1-schemas.js';
import type { Schema } from '../../apis/schema/schema.js';
import { decodeObject, encodeObject, peekTypeMeta } from './object-codec.js';
import { fixtureFor } from './testing/fixture-for.js';
import { richObjects } from './testing/fixtures.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s+/g, ''), 'hex'));
const PREFIX = '6b387300';

/** An envelope around `raw` (hex), with empty contentEncoding and contentType as Go writes them. */
function envelope(apiVersion: string, kind: string, raw: string): Uint8Array {
  const str = (tag: string, s: string) =>
    tag + Buffer.from([Buffer.byteLength(s)]).toString('hex') + Buffer.from(s).toString('hex');
  const typeMeta = str('0a', apiVersion) + str('12', kind);
  const rawHex = raw.replace(/\s+/g, '');
  const len = (h: string) => Buffer.from([h.length / 2]).toString('hex');
  return bytes(`${PREFIX} 0a${len(typeMeta)}${typeMeta} 12${len(rawHex)}${rawHex} 1a00 2200`);
}

describe('protobuf round trips of every built-in kind', () => {
  const fixtures = richObjects();
  for (const def of builtinResources()) {
    it(`${def.kind}: JSON → protobuf → JSON is the identity`, () => {
      const obj = fixtureFor(def, fixtures);
      assert.ok(obj, `no fixture for ${def.kind}`);
      const encoded = encodeObject(def.schema, obj);
      assert.deepEqual(peekTypeMeta(encoded), { apiVersion: obj.apiVersion, kind: obj.kind });
      const decoded = decodeObject(def.schema, encoded, { apiVersion: obj.apiVersion, kind: obj.kind });
      assert.deepEqual(decoded, obj);
      // Keys come back in schema order (Go's struct order), apiVersion and kind first.
      assert.deepEqual(Object.keys(decoded), Object.keys(obj));
      // Encoding is deterministic and stable across a round trip.
      assert.equal(hex(encodeObject(def.schema, decoded)), hex(encoded));
    });
  }

  it('keeps a ConfigMap key named __proto__ as an own property', () => {
    const obj = JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p"},"data":{"__proto__":"x"}}');
    const decoded = decodeObject(configMapSchema, encodeObject(configMapSchema, obj));
    assert.equal(Object.getPrototypeOf(decoded.data), Object.prototype);
    assert.deepEqual(Object.keys(decoded.data as object), ['__proto__']);
    assert.equal(JSON.stringify(decoded), JSON.stringify(obj));
  });
});

describe('protobuf bytes, computed by hand', () => {
  it('a ConfigMap with one data entry', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } };
    const expected =
      PREFIX +
      '0a0f' + // typeMeta, 15 bytes
      '0a02' +
      Buffer.from('v1').toString('hex') + // apiVersion
      '1209' +
      Buffer.from('ConfigMap').toString('hex') + // kind
      '120d' + // raw, 13 bytes
      '0a03' +
      '0a0178' + // metadata { name: "x" }
      '1206' +
      '0a0161' +
      '120162' + // data entry { key: "a", value: "b" }
      '1a00' + // contentEncoding ""
      '2200'; // contentType ""
    assert.equal(hex(encodeObject(configMapSchema, cm)), expected);
  });

  it('decodes the ConfigMap kubectl 1.32 sends (every zero-valued Go field present)', () => {
    // Captured from `kubectl create configmap x --from-literal=a=b`.
    const sent = bytes(
      '6b3873000a0f0a0276311209436f6e6669674d6170121b0a110a017812001a0022002a0032003800420012060a01611201621a002200',
    );
    assert.deepEqual(decodeObject(configMapSchema, sent, { apiVersion: 'v1', kind: 'ConfigMap' }), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x' },
      data: { a: 'b' },
    });
  });

  it('Time is {seconds, nanos = 0}; negative int64 is ten bytes; pointer zeros travel', () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { creationTimestamp: '1970-01-01T00:02:03Z', deletionGracePeriodSeconds: -1, generation: 0 },
      immutable: false,
    };
    const raw =
      '0a11' + // metadata, 17 bytes (generation 0 is not written: a non-pointer zero)
      '4204' +
      '087b' +
      '1000' + // creationTimestamp { seconds: 123, nanos: 0 }
      '50' +
      'ffffffffffffffffff01' + // deletionGracePeriodSeconds: -1
      '2000'; // immutable: false (a pointer, so written)
    const encoded = encodeObject(configMapSchema, cm);
    assert.equal(hex(encoded), hex(envelope('v1', 'ConfigMap', raw)));
    const { generation: _dropped, ...metadata } = cm.metadata;
    assert.deepEqual(decodeObject(configMapSchema, encoded), { ...cm, metadata });
  });

  it('MicroTime carries microseconds as nanos; Time drops the fraction', () => {
    const lease = {
      apiVersion: 'coordination.orch.io/v1',
      kind: 'Lease',
      metadata: {},
      spec: { renewTime: '1970-01-01T00:00:01.000002Z' },
    };
    const raw = '0a00' + '1207' + '2205' + '0801' + '10d00f'; // spec.renewTime { seconds: 1, nanos: 2000 }
    assert.equal(hex(encodeObject(leaseSchema, lease)), hex(envelope('coordination.orch.io/v1', 'Lease', raw)));
    // Go's Time ignores nanos on decode; MicroTime truncates them to microseconds.
    const withNanos = envelope('v1', 'Event', '0a00 3205 0801 10e707 5205 080a 10ff0f');
    const ev = decodeObject(eventSchema, withNanos);
    assert.equal(ev.firstTimestamp, '1970-01-01T00:00:01Z');
    assert.equal(ev.eventTime, '1970-01-01T00:00:10.000002Z');
  });

  it('writes and keeps the zero of a field Go always prints (no omitempty), drops an omitempty zero', () => {
    const ev = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {},
      reason: '',
      reportingComponent: '',
      reportingInstance: '',
    };
    // reason (3) is omitempty: its zero is not written; reportingComponent (14) and reportingInstance (15) are.
    const raw = '0a00' + '7200' + '7a00';
    assert.equal(hex(encodeObject(eventSchema, ev)), hex(envelope('v1', 'Event', raw)));
    assert.deepEqual(decodeObject(eventSchema, envelope('v1', 'Event', raw)), {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {},
      reportingComponent: '',
      reportingInstance: '',
    });
  });

  it('map<string,bytes> holds raw bytes; JSON holds base64', () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {},
      data: { k: Buffer.from([0xff, 0x00]).toString('base64') },
    };
    const raw = '0a00' + '1207' + '0a016b' + '1202ff00';
    assert.equal(hex(encodeObject(secretSchema, secret)), hex(envelope('v1', 'Secret', raw)));
    assert.deepEqual(decodeObject(secretSchema, envelope('v1', 'Secret', raw)), secret);
  });

  it('map entries are sorted by key and written with empty values', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { b: '', a: '1' } };
    const raw = '0a00' + '1206 0a0161 120131' + '1205 0a0162 1200';
    assert.equal(hex(encodeObject(configMapSchema, cm)), hex(envelope('v1', 'ConfigMap', raw)));
  });
});

describe('protobuf decoding semantics', () => {
  it('skips unknown fields of every wire type, at the top and nested', () => {
    const unknown = 'c83e01' + 'c93e0102030405060708' + 'ca3e03616263' + 'cd3e01020304' + 'cb3e0801cc3e';
    const raw = `0a${(3 + unknown.length / 2).toString(16).padStart(2, '0')}0a0178${unknown} ${unknown} 1206 0a0161 120162`;
    assert.deepEqual(decodeObject(configMapSchema, envelope('v1', 'ConfigMap', raw)), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x' },
      data: { a: 'b' },
    });
  });

  it('drops zero scalars of non-pointer fields but keeps required ones and pointer zeros', () => {
    // ownerReferences[0] { kind: "", uid: "", controller: false }, generation 0, namespace "".
    const owner = '0a00 2200 3000';
    const raw = `0a0e 1a00 3800 6a${(owner.replace(/\s/g, '').length / 2).toString(16).padStart(2, '0')}${owner} 7200`;
    const obj = decodeObject(configMapSchema, envelope('v1', 'ConfigMap', raw));
    assert.deepEqual(obj.metadata, { ownerReferences: [{ kind: '', uid: '', controller: false }], finalizers: [''] });
  });

  it('keeps empty structs Go always writes (namespace spec and status) and drops empty times', () => {
    const ns = decodeObject(namespaceSchema, envelope('v1', 'Namespace', '0a06 0a026e31 4200 1200 1a020a00'));
    assert.deepEqual(ns, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n1' }, spec: {}, status: {} });
  });

  it('merges a message field that occurs twice and appends repeated fields', () => {
    const raw = '0a03 0a0161' + '0a06 72027831 3801' + '0a04 72027832';
    const obj = decodeObject(configMapSchema, envelope('v1', 'ConfigMap', raw));
    assert.deepEqual(obj.metadata, { name: 'a', generation: 1, finalizers: ['x1', 'x2'] });
  });

  it('accepts packed repeated scalars', () => {
    // No built-in kind has repeated integers; a small schema shows the rule.
    const schema = {
      type: 'object' as const,
      properties: { n: { type: 'array' as const, items: { type: 'integer' as const }, 'x-orch-protobuf-field': 1 } },
    };
    const unpacked = envelope('v1', 'X', '0801 0802');
    const packed = envelope('v1', 'X', '0a03 01 02 96');
    assert.deepEqual(decodeObject(schema, unpacked).n, [1, 2]);
    assert.throws(() => decodeObject(schema, packed), /truncated|unexpected end/);
    assert.deepEqual(decodeObject(schema, envelope('v1', 'X', '0a04 01 02 9601')).n, [1, 2, 150]);
  });

  it('fills a missing envelope type from the expected type', () => {
    const anonymous = envelope('', '', '0a03 0a0178');
    assert.deepEqual(decodeObject(configMapSchema, anonymous, { apiVersion: 'v1', kind: 'ConfigMap' }), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x' },
    });
  });
});

describe('meta types and special messages', () => {
  it('DeleteOptions: pointer zeros (gracePeriodSeconds 0, orphanDependents false) survive', () => {
    const opts = {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
      preconditions: { uid: '', resourceVersion: '5' },
      orphanDependents: false,
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    };
    const encoded = encodeObject(deleteOptionsSchema, opts);
    const raw =
      '0800' + '1205 0a00 120135' + '1800' + `220a${Buffer.from('Foreground').toString('hex')}` + '2a03416c6c';
    assert.equal(hex(encoded), hex(envelope('v1', 'DeleteOptions', raw)));
    assert.deepEqual(decodeObject(deleteOptionsSchema, encoded), opts);
  });

  it('IntOrString, Quantity and RawExtension', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        port: { 'x-orch-int-or-string': true, 'x-orch-protobuf-field': 1 },
        target: { 'x-orch-int-or-string': true, 'x-orch-protobuf-field': 2 },
        memory: { type: 'string', 'x-orch-protobuf-message': 'Quantity', 'x-orch-protobuf-field': 3 },
        extension: { type: 'object', 'x-orch-protobuf-message': 'RawExtension', 'x-orch-protobuf-field': 4 },
        limits: {
          type: 'object',
          additionalProperties: { type: 'string', 'x-orch-protobuf-message': 'Quantity' },
          'x-orch-protobuf-field': 5,
        },
      },
    };
    const obj = {
      apiVersion: 'v1',
      kind: 'X',
      port: 8080,
      target: 'http',
      memory: '128Mi',
      extension: { kind: 'Y', list: [1, 'a'] },
      limits: { cpu: '500m' },
    };
    const json = Buffer.from(JSON.stringify(obj.extension)).toString('hex');
    const raw =
      '0a07 0800 10903f 1a00' + // port: {type: 0, intVal: 8080, strVal: ""}
      '120a 0801 1000 1a0468747470' + // target: {type: 1, intVal: 0, strVal: "http"}
      '1a07 0a053132384d69' + // memory: {string: "128Mi"}
      `22${(json.length / 2 + 2).toString(16)} 0a${(json.length / 2).toString(16)}${json}` + // extension: {raw: JSON}
      '2a0d 0a03637075 1206 0a043530306d'; // limits entry {key: "cpu", value: {string: "500m"}}
    const encoded = encodeObject(schema, obj);
    assert.equal(hex(encoded), hex(envelope('v1', 'X', raw)));
    assert.deepEqual(decodeObject(schema, encoded), obj);
  });
  it("a map of string lists: each value is apimachinery's ExtraValue message {repeated string items = 1}", () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        extra: {
          type: 'object',
          additionalProperties: { type: 'array', items: { type: 'string' } },
          'x-orch-protobuf-field': 1,
        },
      },
    };
    const obj = { apiVersion: 'v1', kind: 'X', extra: { a: ['x', 'y'], b: [] } };
    const raw =
      '0a0b 0a0161 1206 0a0178 0a0179' + // entry {key: "a", value: {items: ["x", "y"]}}
      '0a05 0a0162 1200'; // entry {key: "b", value: {}}
    const encoded = encodeObject(schema, obj);
    assert.equal(hex(encoded), hex(envelope('v1', 'X', raw)));
    assert.deepEqual(decodeObject(schema, encoded), obj);
  });
});
