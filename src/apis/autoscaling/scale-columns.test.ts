import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../object.js';
import { buildTable } from '../table/build-table.js';
import { scaleTableColumns } from './scale-columns.js';

const now = new Date('2024-05-01T12:00:00Z');
const scale = (spec: object, status: object): ApiObject => ({
  apiVersion: 'autoscaling/v1',
  kind: 'Scale',
  metadata: { name: 'web', namespace: 'default', creationTimestamp: '2024-05-01T11:00:00Z' },
  spec,
  status,
});
const table = (obj: ApiObject) =>
  buildTable({ tableColumns: scaleTableColumns() } as Parameters<typeof buildTable>[0], obj, { now });

describe('the Table of a built-in workload’s Scale (kube’s Scale printer)', () => {
  it('has Name without the name format, Desired, Available and Age', () => {
    assert.deepEqual(
      table(scale({}, {})).columnDefinitions?.map((c) => [c.name, c.type, c.format, c.priority]),
      [
        ['Name', 'string', '', 0],
        ['Desired', 'integer', '', 0],
        ['Available', 'integer', '', 0],
        ['Age', 'string', '', 0],
      ],
    );
  });

  const cases: { name: string; obj: ApiObject; cells: unknown[] }[] = [
    {
      name: 'replicas asked for and running',
      obj: scale({ replicas: 3 }, { replicas: 2 }),
      cells: ['web', 3, 2, '60m'],
    },
    { name: 'zero replicas (spec.replicas omitted)', obj: scale({}, { replicas: 0 }), cells: ['web', 0, 0, '60m'] },
  ];
  for (const c of cases) {
    it(`fills the cells: ${c.name}`, () => assert.deepEqual(table(c.obj).rows?.[0].cells, c.cells));
  }
});
