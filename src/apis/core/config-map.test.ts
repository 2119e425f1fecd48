import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { configMapResource } from './config-map.js';

const { strategy } = configMapResource();

function cm(fields: Record<string, unknown>, name = 'cfg'): ApiObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, ...fields };
}

function create(obj: ApiObject): string[] {
  strategy.prepareForCreate(obj);
  return strategy.validateCreate(obj).map(formatFieldError);
}

function update(obj: ApiObject, old: ApiObject): string[] {
  obj.metadata.resourceVersion = '2';
  old.metadata.resourceVersion = '1';
  strategy.prepareForUpdate(obj, old);
  return strategy.validateUpdate(obj, old).map(formatFieldError);
}

const KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

describe('ConfigMap create', () => {
  const cases: { name: string; obj: ApiObject; want: string[] }[] = [
    { name: 'valid', obj: cm({ data: { 'a.b': 'x', A_1: '' }, binaryData: { bin: 'AAE=' } }), want: [] },
    {
      name: 'bad keys',
      obj: cm({ data: { 'a/b': 'x', '..x': 'y' }, binaryData: { 'c d': 'AA==' } }),
      want: [
        `data[a/b]: Invalid value: "a/b": ${KEY_MSG}`,
        `data[..x]: Invalid value: "..x": must not start with '..'`,
        `binaryData[c d]: Invalid value: "c d": ${KEY_MSG}`,
      ],
    },
    {
      name: 'key in both data and binaryData',
      obj: cm({ data: { k: 'x' }, binaryData: { k: 'AA==' } }),
      want: ['data[k]: Invalid value: "k": duplicate of key present in binaryData'],
    },
    {
      name: 'total size over 1 MiB across data and binaryData',
      obj: cm({ data: { a: 'x'.repeat(1024 * 1024 - 1) }, binaryData: { b: 'AAA=' } }),
      want: ['Too long: may not be more than 1048576 bytes'],
    },
    {
      name: 'value types come from the schema',
      obj: cm({ data: { a: 1 }, binaryData: { b: '***' }, immutable: 'yes' }),
      want: [
        'immutable: Invalid value: "string": immutable in body must be of type boolean: "string"',
        'data.a: Invalid value: "integer": data.a in body must be of type string: "integer"',
        'binaryData.b: Invalid value: "***": binaryData.b in body must be of type byte: "***"',
      ],
    },
    {
      name: 'name is a DNS subdomain',
      obj: cm({}, 'Bad_Name'),
      want: [
        `metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(create(c.obj), c.want));
});

describe('ConfigMap update', () => {
  it('may change data while not immutable', () => {
    assert.deepEqual(update(cm({ data: { a: '2' } }), cm({ data: { a: '1' } })), []);
  });
  it('may become immutable', () => {
    assert.deepEqual(update(cm({ data: { a: '1' }, immutable: true }), cm({ data: { a: '1' } })), []);
  });
  it('rejects any change of data, binaryData or immutable once immutable', () => {
    const old = cm({ data: { a: '1' }, binaryData: { b: 'AA==' }, immutable: true });
    assert.deepEqual(update(cm({ data: { a: '2' }, immutable: false }), old), [
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
      'binaryData: Forbidden: field is immutable when `immutable` is set',
    ]);
  });
  it('allows metadata changes of an immutable ConfigMap', () => {
    const old = cm({ data: { a: '1' }, immutable: true });
    const next = cm({ data: { a: '1' }, immutable: true });
    next.metadata.labels = { team: 'x' };
    assert.deepEqual(update(next, old), []);
  });
  it('reports metadata immutability', () => {
    const old = cm({});
    old.metadata.uid = 'u1';
    const next = cm({});
    next.metadata.uid = 'u2';
    assert.deepEqual(update(next, old), ['metadata.uid: Invalid value: "u2": field is immutable']);
  });
});

describe('ConfigMap definition', () => {
  it('describes configmaps', () => {
    const def = configMapResource();
    assert.deepEqual(
      [def.group, def.version, def.kind, def.listKind, def.resource, def.singular, def.namespaced],
      ['', 'v1', 'ConfigMap', 'ConfigMapList', 'configmaps', 'configmap', true],
    );
    assert.deepEqual(def.shortNames, ['cm']);
    assert.equal(def.allowCreateOnUpdate, false);
    assert.equal(def.hasGeneration, false);
  });
});
