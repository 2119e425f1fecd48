import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeJsonCompact } from '../../encoding/index.js';
import { stringifyJson } from '../../util/json-text.js';
import { CachedObject, RecentlyDecoded } from './cached-object.js';
import { findMetadataEnd, needsGoEscaping, servedJsonOfStored } from './stored-json.js';
import { decodeStored, encodeStored, storedCodec } from './stored-object.js';

const bytes = (s: string) => Buffer.from(s);

describe('stored JSON', () => {
  it('finds the end of the top-level metadata, past strings, escapes and nested metadata keys', () => {
    const cases: [string, number | undefined][] = [
      ['{"metadata":{"name":"a"}}', 23],
      ['{"kind":"X","metadata":{}}', 24],
      ['{"spec":{"metadata":{"x":1}},"metadata":{"name":"b"}}', 51],
      ['{"a":"\\"metadata\\":{","metadata":{"name":"}\\\\"}}', 46],
      ['{"a":["metadata",{"metadata":{}}],"metadata":{"n":[1,{"}":"{"}]}}', 63],
      ['{"kind":"X"}', undefined],
      ['{"metadata":"x"}', undefined],
      ['[{"metadata":{}}]', undefined],
      ['{"metadata":{"labels":{"resourceVersion":"1"}}}', undefined],
    ];
    for (const [json, close] of cases) {
      const end = findMetadataEnd(bytes(json));
      assert.equal(end?.close, close, json);
      if (close !== undefined) assert.equal(json[close], '}', json);
    }
  });

  it('writes the resourceVersion as the last member of metadata, as the decoded object serializes', () => {
    const objects = [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'a', namespace: 'ns', labels: { x: 'y' } },
        data: { k: 'v' },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { é: 'ü ✓' } },
      { kind: 'X', apiVersion: 'v1', spec: { metadata: { name: 'inner' } }, metadata: { name: 'outer' } },
    ];
    for (const obj of objects) {
      const stored = encodeStored(obj as never);
      const kv = { key: '/registry/x/ns/a', value: stored, createRevision: 5n, modRevision: 42n };
      const expected = `${encodeJsonCompact(decodeStored(kv))}\n`;
      assert.ok(findMetadataEnd(stored));
      const co = CachedObject.decoder({ codec: storedCodec({}), fieldSet: () => ({}), namespaced: true })(kv);
      assert.equal(Buffer.from(co.json('\n')).toString(), expected);
      assert.equal(typeof co.jsonPart(), 'object', 'written from the stored bytes');
    }
  });

  it('leaves values Go escapes differently to the encoder', () => {
    for (const s of ['a<b', 'a>b', 'a&b', 'a\u2028b', 'a\u2029b', '\ud800']) {
      assert.equal(needsGoEscaping(bytes(stringifyJson({ s }) as string)), true, JSON.stringify(s));
    }
    assert.equal(needsGoEscaping(bytes('{"s":"plain ü"}')), false);
  });

  it('a cached object answers the bytes of the decoded object in every case', () => {
    const codec = storedCodec({});
    const type = { codec, fieldSet: () => ({}), namespaced: true };
    const decode = CachedObject.decoder(type);
    const objects = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { html: '<b>&amp;</b>' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', labels: { resourceVersion: 'x' } } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', uid: 'u' }, data: { big: 9007199254740993n } },
    ];
    for (const obj of objects) {
      const kv = {
        key: `/registry/configmaps/ns/${obj.metadata.name}`,
        value: encodeStored(obj as never),
        createRevision: 1n,
        modRevision: 7n,
      };
      const co = decode(kv);
      assert.equal(Buffer.from(co.json('\n')).toString(), `${encodeJsonCompact(decodeStored(kv))}\n`);
      assert.equal(co.object.metadata.resourceVersion, '7');
      assert.equal(co.namespacedName, `ns/${obj.metadata.name}`);
      assert.deepEqual(co.labels(), (obj.metadata as { labels?: object }).labels ?? {});
    }
  });

  it('writes the same bytes in place as its JSON part, with the size worked out beforehand', () => {
    const codec = storedCodec({});
    const decode = CachedObject.decoder({ codec, fieldSet: () => ({}), namespaced: true });
    const objects = [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain', namespace: 'ns' }, data: { k: 'v ü' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { k: 'empty metadata' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'escaped' }, data: { html: '<b>' } },
    ];
    const revisions = [1n, 9n, 10n, 99n, 12345n, 9007199254740991n, 9007199254740993n];
    for (const obj of objects) {
      for (const modRevision of revisions) {
        const kv = {
          key: '/registry/configmaps/ns/x',
          value: encodeStored(obj as never),
          createRevision: 1n,
          modRevision,
        };
        const co = decode(kv);
        const expected = Buffer.from(co.json());
        assert.equal(co.jsonSize(), expected.length, `${obj.metadata.name} at ${modRevision}`);
        const out = Buffer.alloc(expected.length + 4, 0x2e);
        assert.equal(co.writeJson(out, 2), 2 + expected.length);
        assert.equal(out.subarray(2, 2 + expected.length).toString(), expected.toString());
        assert.equal(out.toString('latin1', 0, 2) + out.toString('latin1', 2 + expected.length), '....');
      }
    }
  });

  it('names a cached object by its storage key, namespaced or not', () => {
    const value = encodeStored({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } } as never);
    const kv = { key: '/registry/namespaces/team-a', value, createRevision: 1n, modRevision: 2n };
    const co = CachedObject.decoder({ codec: storedCodec({}), fieldSet: () => ({}), namespaced: false })(kv);
    assert.equal(co.namespacedName, '/team-a');
  });

  it('shares the recently decoded objects of a resource, and only a bounded number of them', () => {
    const recent = new RecentlyDecoded(2);
    const decode = CachedObject.decoder({ codec: storedCodec({}), fieldSet: () => ({}), namespaced: true, recent });
    const objects = ['a', 'b', 'c'].map((name, i) =>
      decode({
        key: `/registry/configmaps/ns/${name}`,
        value: encodeStored({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } } as never),
        createRevision: 1n,
        modRevision: BigInt(i + 1),
      }),
    );
    const [a, b, c] = objects as [CachedObject, CachedObject, CachedObject];
    assert.equal(a.object, a.object, 'decoded once while recent');
    const first = a.object;
    void b.object;
    void c.object;
    assert.notEqual(a.object, first, 'decoded again after two others');
    assert.deepEqual(a.object, first);
  });

  it('serves a stored value as a read does: the resourceVersion written last into metadata, then the suffix', () => {
    const cases: { name: string; obj: Record<string, unknown> }[] = [
      {
        name: 'metadata with fields',
        obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', uid: 'u' }, spec: {} },
      },
      { name: 'empty metadata', obj: { kind: 'ConfigMap', metadata: {}, data: { k: 'v' } } },
      { name: 'metadata not first', obj: { kind: 'X', spec: { metadata: { x: 1 } }, metadata: { name: 'm' } } },
      { name: 'big integer', obj: { kind: 'X', metadata: { name: 'n' }, spec: { n: 2n ** 70n } } },
    ];
    for (const c of cases) {
      const stored = encodeStored(c.obj as never);
      const served = servedJsonOfStored(stored, 4321n, '\n');
      const want = `${encodeJsonCompact(decodeStored({ key: '/k', modRevision: 4321n, createRevision: 1n, value: stored }))}\n`;
      assert.equal(served?.toString(), want, c.name);
    }
  });

  it('leaves to the encoder the values Go escapes and values without a metadata object', () => {
    const cases: [string, string][] = [
      ['html characters', '{"metadata":{"name":"a"},"data":{"k":"<b>"}}'],
      ['line separator', '{"metadata":{"name":"a"},"data":{"k":"\u2028"}}'],
      ['no metadata', '{"kind":"X"}'],
      ['metadata not an object', '{"metadata":"x"}'],
    ];
    for (const [name, text] of cases) assert.equal(servedJsonOfStored(bytes(text), 7n), undefined, name);
  });
});
