import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { negotiatedAccept } from './http-api-client.js';
import { decodeWatchLine, WatchDecodeError } from './json-watch.js';

describe('negotiatedAccept (JSON only)', () => {
  const cases: [string, { contentType?: string; acceptContentTypes?: string }, string, number][] = [
    ['defaults', {}, 'application/json', 0],
    ['JSON named', { contentType: 'application/json', acceptContentTypes: 'application/json' }, 'application/json', 0],
    [
      'Protobuf preferred, JSON accepted',
      {
        contentType: 'application/vnd.kubernetes.protobuf',
        acceptContentTypes: 'application/vnd.kubernetes.protobuf,application/json',
      },
      'application/json',
      1,
    ],
    ['only Protobuf', { acceptContentTypes: 'application/vnd.kubernetes.protobuf' }, 'application/json', 1],
    ['CBOR content type', { contentType: 'application/cbor' }, 'application/json', 1],
    [
      'JSON with parameters kept',
      { acceptContentTypes: 'application/json;as=Table;v=v1;g=meta' },
      'application/json;as=Table;v=v1;g=meta',
      0,
    ],
  ];
  for (const [what, o, accept, warnings] of cases) {
    it(what, () => {
      const got = negotiatedAccept(o);
      assert.equal(got.accept, accept);
      assert.equal(got.warnings.length, warnings, got.warnings.join('; '));
    });
  }
});

describe('decodeWatchLine', () => {
  it('decodes events and fills apiVersion/kind of objects that lack them', () => {
    const fill = (o: { apiVersion?: string; kind?: string }) => ({ ...o, apiVersion: 'v1', kind: 'ConfigMap' });
    const ev = decodeWatchLine('{"type":"ADDED","object":{"metadata":{"name":"a"}}}', fill as never);
    assert.deepEqual(ev, { type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } } });
    const err = decodeWatchLine('{"type":"ERROR","object":{"kind":"Status","code":410}}', fill as never);
    assert.deepEqual(err.object, { kind: 'Status', code: 410 });
  });
  const bad: [string, string][] = [
    ['not JSON', '{"type":'],
    ['an unknown type', '{"type":"CHANGED","object":{}}'],
    ['no object', '{"type":"ADDED"}'],
  ];
  for (const [what, line] of bad) {
    it(`rejects ${what}`, () => assert.throws(() => decodeWatchLine(line), WatchDecodeError));
  }
});
