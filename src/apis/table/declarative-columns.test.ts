import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../object.js';
import { declarativeTableColumns } from './declarative-columns.js';

const obj = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', creationTimestamp: '2024-01-01T00:00:00Z' },
  spec: { replicas: 3.7, ratio: 2, on: true, color: 'red', labels: { b: '2', a: '1' }, when: 'yesterday' },
} as ApiObject;
const now = new Date('2024-01-01T00:02:05Z');

describe('declarative table columns', () => {
  it('fills cells from JSONPaths as kube’s custom resource table convertor does', () => {
    const columns = declarativeTableColumns([
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio' },
      { name: 'On', type: 'boolean', jsonPath: '.spec.on' },
      { name: 'Color', type: 'string', jsonPath: '.spec.color', description: 'its color' },
      { name: 'Labels', type: 'string', jsonPath: '.spec.labels' },
      { name: 'Missing', type: 'string', jsonPath: '.spec.nothing' },
      { name: 'Wrong', type: 'integer', jsonPath: '.spec.color' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'When', type: 'date', jsonPath: '.spec.when' },
      { name: 'Computed', type: 'string', cell: (o) => `${o.metadata.name}!` },
    ]);
    assert.deepEqual(
      columns.columnDefinitions.map((c) => [c.name, c.type, c.description]),
      [
        ['Name', 'string', columns.columnDefinitions[0].description],
        ['Replicas', 'integer', 'Custom resource definition column (in JSONPath format): .spec.replicas'],
        ['Ratio', 'number', 'Custom resource definition column (in JSONPath format): .spec.ratio'],
        ['On', 'boolean', 'Custom resource definition column (in JSONPath format): .spec.on'],
        ['Color', 'string', 'its color'],
        ['Labels', 'string', 'Custom resource definition column (in JSONPath format): .spec.labels'],
        ['Missing', 'string', 'Custom resource definition column (in JSONPath format): .spec.nothing'],
        ['Wrong', 'integer', 'Custom resource definition column (in JSONPath format): .spec.color'],
        ['Age', 'date', 'Custom resource definition column (in JSONPath format): .metadata.creationTimestamp'],
        ['When', 'date', 'Custom resource definition column (in JSONPath format): .spec.when'],
        ['Computed', 'string', ''],
      ],
    );
    assert.deepEqual(columns.cells(obj, now), [
      'w',
      3,
      2,
      true,
      'red',
      '{"a":"1","b":"2"}',
      null,
      null,
      '2m5s',
      '<invalid>',
      'w!',
    ]);
  });

  it('keeps the columns before one whose JSONPath does not parse', () => {
    const columns = declarativeTableColumns([
      { name: 'A', type: 'string', jsonPath: '.spec.color' },
      { name: 'B', type: 'string', jsonPath: '.spec[' },
      { name: 'C', type: 'string', jsonPath: '.spec.color' },
    ]);
    assert.deepEqual(
      columns.columnDefinitions.map((c) => c.name),
      ['Name', 'A'],
    );
  });
});
