import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../builtin.js';
import type { ApiObject } from '../object.js';
import { buildTable } from './build-table.js';
import { AGE_COLUMN, NAME_COLUMN } from './column-helpers.js';
import type { TableCell } from './table-types.js';

const defs = new Map(
  builtinResources()
    .filter((d) => !d.storageResource)
    .map((d) => [d.kind, d]),
);
const now = new Date('2024-05-01T12:00:00Z');
const created = (ago: string) => ({ creationTimestamp: ago });

function columnsOf(kind: string): [string, string, string, number][] {
  const d = defs.get(kind)!;
  return buildTable(d, [], { now }).columnDefinitions!.map((c) => [c.name, c.type, c.format, c.priority]);
}

function cellsOf(kind: string, obj: ApiObject): TableCell[] {
  return buildTable(defs.get(kind)!, obj, { now }).rows![0].cells;
}

describe('column definitions of the built-in kinds', () => {
  const cases: [string, [string, string, string, number][]][] = [
    [
      'Namespace',
      [
        ['Name', 'string', 'name', 0],
        ['Status', 'string', '', 0],
        ['Age', 'string', '', 0],
      ],
    ],
    [
      'ConfigMap',
      [
        ['Name', 'string', 'name', 0],
        ['Data', 'string', '', 0],
        ['Age', 'string', '', 0],
      ],
    ],
    [
      'Secret',
      [
        ['Name', 'string', 'name', 0],
        ['Type', 'string', '', 0],
        ['Data', 'string', '', 0],
        ['Age', 'string', '', 0],
      ],
    ],
    [
      'ServiceAccount',
      [
        ['Name', 'string', 'name', 0],
        ['Secrets', 'string', '', 0],
        ['Age', 'string', '', 0],
      ],
    ],
    [
      'Event',
      [
        ['Last Seen', 'string', '', 0],
        ['Type', 'string', '', 0],
        ['Reason', 'string', '', 0],
        ['Object', 'string', '', 0],
        ['Subobject', 'string', '', 1],
        ['Source', 'string', '', 1],
        ['Message', 'string', '', 0],
        ['First Seen', 'string', '', 1],
        ['Count', 'string', '', 1],
        ['Name', 'string', 'name', 1],
      ],
    ],
    [
      'Lease',
      [
        ['Name', 'string', 'name', 0],
        ['Holder', 'string', '', 0],
        ['Age', 'string', '', 0],
      ],
    ],
  ];
  for (const [kind, want] of cases) {
    it(kind, () => assert.deepEqual(columnsOf(kind), want));
  }

  it("describe columns in Orch's words", () => {
    const ns = buildTable(defs.get('Namespace')!, [], { now }).columnDefinitions!;
    assert.equal(ns[0].description, NAME_COLUMN.description);
    assert.match(ns[0].description, /^The name of the object/);
    assert.equal(ns[1].description, 'The lifecycle phase of the namespace: Active or Terminating.');
    assert.equal(ns[2].description, AGE_COLUMN.description);
    assert.match(ns[2].description, /^When the server created the object/);
    const lease = buildTable(defs.get('Lease')!, [], { now }).columnDefinitions!;
    assert.equal(lease[1].description, 'The identity of the current holder of the lease.');
    const ev = buildTable(defs.get('Event')!, [], { now }).columnDefinitions!;
    assert.equal(ev[3].description, 'The object the event is about, as kind/name.');
    assert.match(ev[4].description, /^The part of the object the event is about/);
    for (const d of defs.values()) {
      for (const c of buildTable(d, [], { now }).columnDefinitions!) assert.ok(c.description, `${d.kind} ${c.name}`);
    }
  });
});

describe('cells of the built-in kinds', () => {
  const cases: { name: string; kind: string; obj: ApiObject; want: TableCell[] }[] = [
    {
      name: 'active namespace',
      kind: 'Namespace',
      obj: {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'team', ...created('2024-05-01T11:55:00Z') },
        status: { phase: 'Active' },
      },
      want: ['team', 'Active', '5m'],
    },
    {
      name: 'namespace without status or timestamp',
      kind: 'Namespace',
      obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bare' } },
      want: ['bare', '', '<unknown>'],
    },
    {
      name: 'config map counts data and binaryData keys',
      kind: 'ConfigMap',
      obj: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cfg', namespace: 'ns', ...created('2024-05-01T08:40:00Z') },
        data: { a: '1', b: '2' },
        binaryData: { c: 'AA==' },
      },
      want: ['cfg', 3, '3h20m'],
    },
    {
      name: 'empty config map',
      kind: 'ConfigMap',
      obj: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'e', namespace: 'ns', ...created('2024-04-28T12:00:00Z') },
      },
      want: ['e', 0, '3d'],
    },
    {
      name: 'secret',
      kind: 'Secret',
      obj: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's', namespace: 'ns', ...created('2024-05-01T11:59:30Z') },
        type: 'Opaque',
        data: { k: 'dg==' },
      },
      want: ['s', 'Opaque', 1, '30s'],
    },
    {
      name: 'service account with references',
      kind: 'ServiceAccount',
      obj: {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'default', namespace: 'ns', ...created('2022-05-01T12:00:00Z') },
        secrets: [{ name: 'a' }, { name: 'b' }],
      },
      want: ['default', 2, '2y1d'],
    },
    {
      name: 'service account without references',
      kind: 'ServiceAccount',
      obj: {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'sa', namespace: 'ns', ...created('2024-05-01T11:50:10Z') },
      },
      want: ['sa', 0, '9m50s'],
    },
    {
      name: 'held lease',
      kind: 'Lease',
      obj: {
        apiVersion: 'coordination.orch.io/v1',
        kind: 'Lease',
        metadata: { name: 'orch-controller-manager', namespace: 'orch-system', ...created('2024-04-30T12:00:00Z') },
        spec: { holderIdentity: 'node-1_abc' },
      },
      want: ['orch-controller-manager', 'node-1_abc', '24h'],
    },
    {
      name: 'free lease',
      kind: 'Lease',
      obj: {
        apiVersion: 'coordination.orch.io/v1',
        kind: 'Lease',
        metadata: { name: 'l', namespace: 'ns', ...created('2024-05-01T12:00:00Z') },
        spec: {},
      },
      want: ['l', '', '0s'],
    },
    {
      name: 'legacy event with timestamps and count',
      kind: 'Event',
      obj: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'web.17b', namespace: 'ns' },
        involvedObject: { kind: 'Pod', name: 'web', namespace: 'ns', fieldPath: 'spec.containers{app}' },
        reason: 'BackOff',
        message: '  Back-off restarting failed container\n',
        source: { component: 'kubelet', host: 'node-1' },
        firstTimestamp: '2024-05-01T11:00:00Z',
        lastTimestamp: '2024-05-01T11:58:00Z',
        count: 7,
        type: 'Warning',
      },
      want: [
        '2m',
        'Warning',
        'BackOff',
        'pod/web',
        'spec.containers{app}',
        'kubelet, node-1',
        'Back-off restarting failed container',
        '60m',
        7,
        'web.17b',
      ],
    },
    {
      name: 'new-style singleton event',
      kind: 'Event',
      obj: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'ns.1', namespace: 'default' },
        involvedObject: { kind: 'Namespace' },
        reason: 'Created',
        eventTime: '2024-05-01T11:59:00.500000Z',
        reportingComponent: 'orch.io/controller',
        reportingInstance: 'cm-1',
        type: 'Normal',
      },
      want: ['59s', 'Normal', 'Created', 'namespace', '', 'orch.io/controller, cm-1', '', '59s', 1, 'ns.1'],
    },
    {
      name: 'event series',
      kind: 'Event',
      obj: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'x.1', namespace: 'default' },
        involvedObject: { kind: 'ConfigMap', name: 'c' },
        eventTime: '2024-05-01T10:00:00.000000Z',
        lastTimestamp: '2024-05-01T11:00:00Z',
        count: 3,
        series: { count: 12, lastObservedTime: '2024-05-01T11:30:00.000000Z' },
        reportingComponent: 'c',
      },
      want: ['30m', '', '', 'configmap/c', '', 'c', '', '120m', 12, 'x.1'],
    },
    {
      name: 'event without any time',
      kind: 'Event',
      obj: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'default' } },
      want: ['<unknown>', '', '', '', '', '', '', '<unknown>', 1, 'e'],
    },
  ];
  for (const { name, kind, obj, want } of cases) {
    it(name, () => assert.deepEqual(cellsOf(kind, obj), want));
  }
});
