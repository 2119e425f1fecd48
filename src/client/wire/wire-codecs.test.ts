import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain, ORCH_DOMAIN } from '../../apis/api-domain.js';
import { configMapSchema } from '../../apis/core/core-v1-schemas.js';
import type { ApiObject } from '../../apis/object.js';
import { encodeCbor } from '../../encoding/index.js';
import { encodeList, encodeObject, encodeStatus } from '../../encoding/protobuf/index.js';
import { ResponseDecodeError, WireCodecs } from './wire-codecs.js';

const codecs = new WireCodecs(ORCH_DOMAIN);
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } };
const PB = 'application/vnd.kubernetes.protobuf';

describe('WireCodecs', () => {
  it('knows which kinds have a Protobuf form', () => {
    const kube = new WireCodecs(apiDomain('k8s.io'));
    const cases: [WireCodecs, string, string, boolean][] = [
      [codecs, 'v1', 'ConfigMap', true],
      [codecs, 'apps/v1', 'Deployment', true],
      [codecs, `${ORCH_DOMAIN.group('coordination')}/v1`, 'Lease', true],
      [codecs, 'autoscaling/v1', 'Scale', true],
      [codecs, `${ORCH_DOMAIN.group('authentication')}/v1`, 'TokenRequest', true],
      [codecs, 'policy/v1', 'Eviction', true],
      [codecs, 'v1', 'Binding', true],
      [codecs, `${ORCH_DOMAIN.group('authorization')}/v1`, 'SelfSubjectAccessReview', true],
      [codecs, 'authentication.k8s.io/v1', 'TokenRequest', false],
      [kube, 'authentication.k8s.io/v1', 'TokenRequest', true],
      [codecs, `${ORCH_DOMAIN.group('apiextensions')}/v1`, 'CustomResourceDefinition', false],
      [codecs, 'example.com/v1', 'Widget', false],
    ];
    for (const [c, apiVersion, kind, want] of cases) assert.equal(c.hasProtobuf(apiVersion, kind), want, kind);
  });

  it('decodes every response format by its content type', () => {
    const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '5' }, items: [cm] };
    const cases: [string, string | undefined, Uint8Array, unknown][] = [
      ['no content type: JSON', undefined, Buffer.from(JSON.stringify(cm)), cm],
      ['JSON with parameters', 'application/json; charset=utf-8', Buffer.from(JSON.stringify(cm)), cm],
      [
        'YAML',
        'application/yaml',
        Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v}\n'),
        cm,
      ],
      ['CBOR', 'application/cbor', encodeCbor(cm), cm],
      ['a Protobuf object', PB, encodeObject(configMapSchema, cm), cm],
      ["the profile's Protobuf type", ORCH_DOMAIN.protobufMediaType, encodeObject(configMapSchema, cm), cm],
      ['a Protobuf list', PB, encodeList(configMapSchema, list), list],
    ];
    for (const [what, contentType, body, want] of cases) assert.deepEqual(codecs.decode(contentType, body), want, what);
  });

  it('reads CBOR lists past the 1024 elements kube allows in request bodies', () => {
    const items = Array.from({ length: 1500 }, (_, i) => ({ ...cm, metadata: { name: `c${i}` } }));
    const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, items };
    assert.equal((codecs.decode('application/cbor', encodeCbor(list)) as typeof list).items.length, 1500);
  });

  it('refuses what it cannot read with a ResponseDecodeError', () => {
    const unknownKind = encodeObject(configMapSchema, { ...cm, apiVersion: 'example.com/v1', kind: 'Widget' });
    const cases: [string, string, Uint8Array, RegExp][] = [
      ['an unknown media type', 'text/html', Buffer.from('<html>'), /content type text\/html is not one the client/],
      ['broken JSON', 'application/json', Buffer.from('{"a":'), /invalid application\/json in response: /],
      ['broken CBOR', 'application/cbor', Buffer.from([0xa1]), /invalid application\/cbor in response: /],
      [
        'Protobuf without prefix',
        PB,
        Buffer.from('{}'),
        /does not start with the prefix k8s\\x00 \(first bytes 7b 7d\)/,
      ],
      ['a Protobuf kind without schema', PB, unknownKind, /no Protobuf schema for Widget \(example.com\/v1\)/],
      ['a truncated Protobuf object', PB, encodeObject(configMapSchema, cm).subarray(0, 20), /invalid .*protobuf/],
    ];
    for (const [what, contentType, body, message] of cases) {
      assert.throws(
        () => codecs.decode(contentType, body),
        (e: unknown) => e instanceof ResponseDecodeError,
        what,
      );
      assert.throws(() => codecs.decode(contentType, body), message, what);
    }
  });

  it("reads a failed response's Status in any format", () => {
    const status = {
      kind: 'Status' as const,
      apiVersion: 'v1' as const,
      metadata: {},
      status: 'Failure' as const,
      message: 'configmaps "a" already exists',
      reason: 'AlreadyExists' as const,
      details: { name: 'a', kind: 'configmaps' },
      code: 409,
    };
    for (const [contentType, body] of [
      ['application/json', Buffer.from(JSON.stringify(status))],
      [PB, encodeStatus(status)],
      ['application/cbor', encodeCbor(status)],
    ] as const) {
      const e = codecs.statusError(409, contentType, body);
      assert.deepEqual([e.code, e.reason, e.message, e.details?.name], [409, 'AlreadyExists', status.message, 'a']);
    }
    assert.equal(codecs.statusError(502, 'text/plain', Buffer.from(' bad gateway\n')).message, 'bad gateway');
    assert.equal(
      codecs.statusError(502, 'application/cbor', Buffer.from([0xff])).message,
      'the server responded with status 502',
    );
  });

  it('encodes bodies; Protobuf only for built-in kinds', () => {
    const obj = cm as ApiObject;
    assert.equal(codecs.encode('json', obj), JSON.stringify(cm));
    assert.deepEqual(codecs.decode('application/cbor', codecs.encode('cbor', obj) as Uint8Array), cm);
    assert.deepEqual(codecs.decode(PB, codecs.encode('protobuf', obj) as Uint8Array), cm);
    assert.throws(
      () => codecs.encode('protobuf', { ...obj, apiVersion: 'example.com/v1', kind: 'Widget' }),
      /Widget \(example.com\/v1\) has no Protobuf form/,
    );
  });
});
