import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namespaceResource } from '../core/namespace.js';
import type { ApiObject } from '../object.js';
import { buildTable, TableOptionsError, toPartialObjectMetadata, toPartialObjectMetadataList } from './build-table.js';
import { DEFAULT_TABLE_COLUMNS } from './default-columns.js';
import { META_V1BETA1 } from './table-types.js';

const now = new Date('2024-05-01T12:00:00Z');
const plain = {}; // a definition without columns of its own
const namespaces = namespaceResource();

function obj(name: string, extra: Partial<ApiObject['metadata']> = {}): ApiObject {
  return {
    apiVersion: 'example.orch.io/v1',
    kind: 'Widget',
    metadata: { name, namespace: 'ns', resourceVersion: '7', creationTimestamp: '2024-05-01T11:00:00Z', ...extra },
    spec: { size: 3 },
  };
}

describe('buildTable with the default columns', () => {
  it('renders Name and Created At', () => {
    const table = buildTable(plain, [obj('a'), obj('b', { creationTimestamp: undefined })], {
      now,
      listMeta: { resourceVersion: '12', continue: 'tok', remainingItemCount: 0 },
    });
    assert.deepEqual(table.columnDefinitions, DEFAULT_TABLE_COLUMNS.columnDefinitions);
    assert.deepEqual(
      table.columnDefinitions!.map((c) => [c.name, c.type, c.format, c.priority]),
      [
        ['Name', 'string', 'name', 0],
        ['Created At', 'date', '', 0],
      ],
    );
    assert.equal(table.kind, 'Table');
    assert.equal(table.apiVersion, 'meta.orch.io/v1');
    assert.deepEqual(table.metadata, { resourceVersion: '12', continue: 'tok', remainingItemCount: 0 });
    assert.deepEqual(
      table.rows!.map((r) => r.cells),
      [
        ['a', '2024-05-01T11:00:00Z'],
        ['b', '0001-01-01T00:00:00Z'],
      ],
    );
    assert.deepEqual(Object.keys(table), ['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows']);
  });

  it('leaves rows null for an empty list, as kube serializes it', () => {
    const table = buildTable(plain, [], { now, listMeta: { resourceVersion: '3' } });
    assert.equal(table.rows, null);
    assert.deepEqual(table.metadata, { resourceVersion: '3' });
  });

  it('gives kinds with their own columns an empty row list', () => {
    assert.deepEqual(buildTable(namespaces, [], { now }).rows, []);
  });
});

describe('buildTable rows[].object', () => {
  const o = obj('a');
  const cases: [string | undefined, unknown][] = [
    [undefined, { kind: 'PartialObjectMetadata', apiVersion: 'meta.orch.io/v1', metadata: o.metadata }],
    ['', { kind: 'PartialObjectMetadata', apiVersion: 'meta.orch.io/v1', metadata: o.metadata }],
    ['Metadata', { kind: 'PartialObjectMetadata', apiVersion: 'meta.orch.io/v1', metadata: o.metadata }],
    ['Object', o],
    ['None', null],
  ];
  for (const [includeObject, want] of cases) {
    it(`includeObject=${includeObject}`, () => {
      const table = buildTable(plain, [o], { now, includeObject });
      assert.deepEqual(table.rows![0].object, want);
    });
  }

  it('rejects an unknown includeObject when there is a row', () => {
    assert.throws(
      () => buildTable(plain, [o], { now, includeObject: 'object' }),
      (err: unknown) =>
        err instanceof TableOptionsError && err.message === 'unrecognized includeObject value: "object"',
    );
    // kube validates per row: an empty table passes.
    assert.equal(buildTable(plain, [], { now, includeObject: 'bogus' }).rows, null);
  });

  it('uses the requested group version for the table and partial metadata', () => {
    const table = buildTable(plain, [o], { now, apiVersion: META_V1BETA1 });
    assert.equal(table.apiVersion, 'meta.orch.io/v1beta1');
    assert.deepEqual(table.rows![0].object, toPartialObjectMetadata(o, META_V1BETA1));
  });
});

describe('buildTable of one object', () => {
  it("takes the object's resourceVersion and gives one row", () => {
    const ns: ApiObject = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team', resourceVersion: '99', creationTimestamp: '2024-05-01T11:58:00Z' },
      status: { phase: 'Active' },
    };
    const table = buildTable(namespaces, ns, { now });
    assert.deepEqual(table.metadata, { resourceVersion: '99' });
    assert.equal(table.rows!.length, 1);
    assert.deepEqual(table.rows![0].cells, ['team', 'Active', '2m']);
  });

  it('omits an empty resourceVersion', () => {
    assert.deepEqual(buildTable(plain, obj('a', { resourceVersion: '' }), { now }).metadata, {});
  });

  it('leaves column definitions null without headers', () => {
    const table = buildTable(namespaces, [], { now, noHeaders: true });
    assert.equal(table.columnDefinitions, null);
  });
});

describe('PartialObjectMetadata', () => {
  it('keeps the whole metadata', () => {
    const o = obj('a', { labels: { x: 'y' }, finalizers: ['f'] });
    assert.deepEqual(toPartialObjectMetadata(o), {
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.orch.io/v1',
      metadata: o.metadata,
    });
  });

  it('lists items with their kind and the list metadata', () => {
    const list = toPartialObjectMetadataList([obj('a'), obj('b')], { resourceVersion: '5', continue: '' });
    assert.equal(list.kind, 'PartialObjectMetadataList');
    assert.equal(list.apiVersion, 'meta.orch.io/v1');
    assert.deepEqual(list.metadata, { resourceVersion: '5' });
    assert.deepEqual(
      list.items!.map((i) => [i.kind, i.apiVersion, i.metadata.name]),
      [
        ['PartialObjectMetadata', 'meta.orch.io/v1', 'a'],
        ['PartialObjectMetadata', 'meta.orch.io/v1', 'b'],
      ],
    );
  });

  it('serializes an empty list with null items, as kube does', () => {
    assert.equal(toPartialObjectMetadataList([], { resourceVersion: '1' }).items, null);
  });
});
