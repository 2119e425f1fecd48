import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decodeManagedFields,
  encodeManagedFields,
  ManagedFieldsDecodeError,
  managerIdentifier,
  parseManagerIdentifier,
} from './managed-fields.js';

const entry = (over: Record<string, unknown>) => ({
  manager: 'm',
  operation: 'Update',
  apiVersion: 'v1',
  time: '2024-05-06T07:08:09Z',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:data': { 'f:a': {} } },
  ...over,
});

describe('manager identifiers', () => {
  it('are the entry’s JSON without fields, time, and (for appliers) API version', () => {
    assert.equal(
      managerIdentifier({ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', subresource: '' }),
      '{"manager":"kubectl","operation":"Update","apiVersion":"v1"}',
    );
    assert.equal(
      managerIdentifier({ manager: 'k<', operation: 'Apply', apiVersion: 'v1', subresource: 'status' }),
      '{"manager":"k\\u003c","operation":"Apply","subresource":"status"}',
    );
    assert.deepEqual(parseManagerIdentifier('{"manager":"k\\u003c","operation":"Apply","subresource":"status"}'), {
      manager: 'k<',
      operation: 'Apply',
      apiVersion: '',
      subresource: 'status',
    });
  });
});

describe('decodeManagedFields', () => {
  it('reads entries keyed by identity; a later duplicate identity wins', () => {
    const m = decodeManagedFields([
      entry({}),
      entry({ fieldsV1: { 'f:data': { 'f:b': {} } }, time: '2024-05-06T09:08:09+02:00' }),
    ]);
    assert.equal(m.sets.size, 1);
    const [id] = m.sets.keys();
    assert.equal(m.sets.get(id)!.set.toString(), '.data.b');
    assert.equal(m.times.get(id), '2024-05-06T07:08:09Z', 'normalized to UTC');
  });

  it('keys an applier by name and sub-resource only', () => {
    const m = decodeManagedFields([
      entry({ operation: 'Apply', apiVersion: 'v1' }),
      entry({ operation: 'Apply', apiVersion: 'v2' }),
    ]);
    assert.deepEqual([...m.sets.keys()], ['{"manager":"m","operation":"Apply"}']);
    assert.equal([...m.sets.values()][0].apiVersion, 'v2');
  });

  const bad: [string, unknown, string][] = [
    ['operation', [entry({ operation: 'Patch' })], 'operation must be `Apply` or `Update`'],
    ['apiVersion', [entry({ apiVersion: '' })], 'apiVersion must not be empty'],
    [
      'missing fieldsType',
      [entry({}), entry({ fieldsType: undefined })],
      'missing fieldsType in managed fields entry 1',
    ],
    [
      'other fieldsType',
      [entry({ fieldsType: 'FieldsV2' })],
      'invalid fieldsType "FieldsV2" in managed fields entry 0',
    ],
  ];
  for (const [name, entries, message] of bad) {
    it(`rejects a bad ${name}`, () => {
      assert.throws(
        () => decodeManagedFields(entries),
        (e: unknown) => e instanceof ManagedFieldsDecodeError && e.message === message,
      );
    });
  }

  it('rejects unreadable fieldsV1', () => {
    assert.throws(() => decodeManagedFields([entry({ fieldsV1: { 'k:x': {} } })]), /error decoding set: parsing key/);
  });
});

describe('encodeManagedFields', () => {
  it('writes kube’s key order, sub-resource last, and omits what is empty', () => {
    const m = decodeManagedFields([entry({ subresource: 'status' }), entry({ manager: 'n', time: undefined })]);
    const out = encodeManagedFields(m)!;
    assert.deepEqual(
      out.map((e) => Object.keys(e)),
      [
        ['manager', 'operation', 'apiVersion', 'fieldsType', 'fieldsV1'],
        ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource'],
      ],
      'no time sorts as the epoch, first',
    );
    assert.equal(encodeManagedFields(decodeManagedFields([])), undefined);
  });
});
