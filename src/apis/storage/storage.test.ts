import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../api-domain.js';
import type { FieldError } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { type CSIDriver, defaultCSIDriver, validateCSIDriver, validateCSIDriverUpdate } from './csi-driver-rules.js';
import { type CSINode, validateCSINode, validateCSINodeUpdate } from './csi-node-rules.js';
import {
  type CSIStorageCapacity,
  validateCSIStorageCapacity,
  validateCSIStorageCapacityUpdate,
} from './csi-storage-capacity-rules.js';
import {
  defaultStorageClass,
  type StorageClass,
  validateStorageClass,
  validateStorageClassUpdate,
} from './storage-class-rules.js';
import {
  csiDriverTableColumns,
  csiNodeTableColumns,
  csiStorageCapacityTableColumns,
  storageClassTableColumns,
  volumeAttachmentTableColumns,
} from './storage-columns.js';
import {
  type VolumeAttachment,
  validateVolumeAttachment,
  validateVolumeAttachmentUpdate,
} from './volume-attachment-rules.js';

const messages = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);
function obj<T extends ApiObject>(kind: string, fields: Partial<T>, name = 'x'): T {
  return { apiVersion: 'storage/v1', kind, metadata: { name }, ...fields } as T;
}
const QUALIFIED =
  "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";

describe('StorageClass rules', () => {
  const sc = (f: Partial<StorageClass>) => {
    const o = obj<StorageClass>('StorageClass', f);
    defaultStorageClass(o);
    return o;
  };
  it('defaults reclaim policy and binding mode, keeping given ones', () => {
    const a = sc({ provisioner: 'x.io/a' });
    assert.deepEqual([a.reclaimPolicy, a.volumeBindingMode], ['Delete', 'Immediate']);
    const b = sc({ provisioner: 'x.io/a', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' });
    assert.deepEqual([b.reclaimPolicy, b.volumeBindingMode], ['Retain', 'WaitForFirstConsumer']);
  });
  const cases: { name: string; obj: StorageClass; want: string[] }[] = [
    { name: 'a valid class', obj: sc({ provisioner: 'Kubernetes.io/AWS-ebs', parameters: { type: 'gp2' } }), want: [] },
    {
      name: 'every problem at once',
      obj: sc({
        provisioner: 'a/b/c',
        parameters: { '': 'x' },
        reclaimPolicy: 'Recycle',
        volumeBindingMode: 'Later',
        allowedTopologies: [
          {
            matchLabelExpressions: [
              { key: 'zone', values: ['a', 'a'] },
              { key: 'zone', values: [] },
            ],
          },
        ],
      }),
      want: [
        `provisioner: Invalid value: "a/b/c": ${QUALIFIED}`,
        'parameters: Invalid value: "": field can not be empty.',
        'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
        'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
        'allowedTopologies[0].matchLabelExpressions[0].values[1]: Duplicate value: "a"',
        'allowedTopologies[0].matchLabelExpressions[1].values: Required value',
        'allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: "zone"',
      ],
    },
    { name: 'no provisioner', obj: sc({}), want: ['provisioner: Required value'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(messages(validateStorageClass(c.obj)), c.want));

  it('refuses changes of provisioner, parameters, reclaim policy and binding mode', () => {
    const old = sc({ provisioner: 'a.io/x', parameters: { a: '1' } });
    const next = sc({
      provisioner: 'b.io/x',
      parameters: { a: '2' },
      reclaimPolicy: 'Retain',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    assert.deepEqual(messages(validateStorageClassUpdate(next, old)), [
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
    assert.deepEqual(
      validateStorageClassUpdate(
        sc({ provisioner: 'a.io/x', parameters: { a: '1' }, allowVolumeExpansion: true }),
        old,
      ),
      [],
    );
  });
});

describe('CSIDriver rules', () => {
  it('defaults every flag', () => {
    const d = obj<CSIDriver>('CSIDriver', {});
    defaultCSIDriver(d);
    assert.deepEqual(d.spec, {
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      requiresRepublish: false,
      seLinuxMount: false,
    });
    assert.deepEqual(validateCSIDriver(d), []);
  });
  it('validates token requests, modes and the fsGroup policy', () => {
    const d = obj<CSIDriver>('CSIDriver', {
      spec: {
        fsGroupPolicy: 'Some',
        volumeLifecycleModes: ['Forever'],
        tokenRequests: [
          { audience: 'a', expirationSeconds: 60 },
          { audience: 'a' },
          { audience: 'b', expirationSeconds: 2 ** 33 },
        ],
      },
    });
    defaultCSIDriver(d);
    assert.deepEqual(messages(validateCSIDriver(d)), [
      'spec.fsGroupPolicy: Unsupported value: "Some": supported values: "File", "None", "ReadWriteOnceWithFSType"',
      'spec.tokenRequests[0].expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
      'spec.tokenRequests[1].audience: Duplicate value: "a"',
      'spec.tokenRequests[2].expirationSeconds: Invalid value: 8589934592: may not specify a duration larger than 2^32 seconds',
      'spec.volumeLifecycleModes: Unsupported value: "Forever": supported values: "Persistent", "Ephemeral"',
    ]);
  });
  it('keeps attachRequired and the lifecycle modes', () => {
    const old = obj<CSIDriver>('CSIDriver', {});
    defaultCSIDriver(old);
    const next = obj<CSIDriver>('CSIDriver', {
      spec: { attachRequired: false, volumeLifecycleModes: ['Ephemeral'], podInfoOnMount: true },
    });
    defaultCSIDriver(next);
    assert.deepEqual(messages(validateCSIDriverUpdate(next, old)), [
      'spec.attachedRequired: Invalid value: false: field is immutable',
      'spec.volumeLifecycleModes: Invalid value: ["Ephemeral"]: field is immutable',
    ]);
  });
});

describe('CSINode rules', () => {
  it('validates drivers and keeps existing entries', () => {
    const node = obj<CSINode>('CSINode', {
      spec: {
        drivers: [
          { name: 'csi.example.com', nodeID: 'n1', topologyKeys: ['zone', 'zone'] },
          { name: 'csi.example.com', nodeID: '', allocatable: { count: -1 } },
        ],
      },
    });
    assert.deepEqual(messages(validateCSINode(node)), [
      'spec.drivers[0]: Duplicate value: "zone"',
      'spec.drivers[1].nodeID: Required value',
      'spec.drivers[1].allocatable.count: Invalid value: -1: must be greater than or equal to 0',
      'spec.drivers[1].name: Duplicate value: "csi.example.com"',
    ]);
    const old = obj<CSINode>('CSINode', { spec: { drivers: [{ name: 'd.io', nodeID: 'a' }] } });
    const next = obj<CSINode>('CSINode', {
      spec: {
        drivers: [
          { name: 'd.io', nodeID: 'b' },
          { name: 'e.io', nodeID: 'c' },
        ],
      },
    });
    assert.deepEqual(messages(validateCSINodeUpdate(next, old)), [
      'spec.drivers: Invalid value: {"name":"d.io","nodeID":"b"}: field is immutable',
    ]);
  });
});

describe('VolumeAttachment rules', () => {
  const va = (f: Partial<VolumeAttachment>) => obj<VolumeAttachment>('VolumeAttachment', f);
  it('accepts a persistent volume source', () => {
    assert.deepEqual(
      validateVolumeAttachment(
        va({ spec: { attacher: 'csi.io', nodeName: 'n1', source: { persistentVolumeName: 'pv1' } } }),
      ),
      [],
    );
  });
  it('reports a missing attacher, source and node', () => {
    assert.deepEqual(messages(validateVolumeAttachment(va({ spec: { source: {} } }))), [
      'spec.attacher: Required value',
      'spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
      "spec.nodeName: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.attacher: Required value',
      "spec.attacher: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });
  it('keeps the spec', () => {
    const old = va({ spec: { attacher: 'csi.io', nodeName: 'n1', source: { persistentVolumeName: 'pv1' } } });
    const next = va({
      spec: { attacher: 'csi.io', nodeName: 'n2', source: { persistentVolumeName: 'pv1' } },
      status: { attached: true },
    });
    assert.deepEqual(messages(validateVolumeAttachmentUpdate(next, old)), [
      'spec: Invalid value: {"attacher":"csi.io","nodeName":"n2","source":{"persistentVolumeName":"pv1"}}: field is immutable',
    ]);
  });
});

describe('CSIStorageCapacity rules', () => {
  const cap = (f: Partial<CSIStorageCapacity>) => obj<CSIStorageCapacity>('CSIStorageCapacity', f);
  it('validates topology, class name and capacity', () => {
    assert.deepEqual(validateCSIStorageCapacity(cap({ storageClassName: 'fast', capacity: '10Gi' })), []);
    assert.deepEqual(
      messages(
        validateCSIStorageCapacity(
          cap({
            storageClassName: 'Fast',
            capacity: '-1',
            nodeTopology: { matchExpressions: [{ key: 'a', operator: 'Near' }] },
          }),
        ),
      ),
      [
        'nodeTopology.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
        "storageClassName: Invalid value: \"Fast\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        'capacity: Invalid value: "-1": must be greater than or equal to 0',
      ],
    );
  });
  it('keeps topology and class name', () => {
    const old = cap({ storageClassName: 'a', nodeTopology: { matchLabels: { z: '1' } } });
    assert.deepEqual(messages(validateCSIStorageCapacityUpdate(cap({ storageClassName: 'b', capacity: '1' }), old)), [
      'nodeTopology: Invalid value: null: field is immutable',
      'storageClassName: Invalid value: "b": field is immutable',
    ]);
  });
});

describe('storage columns', () => {
  const now = new Date('2024-01-01T01:00:00Z');
  const created = '2024-01-01T00:00:00Z';
  it('StorageClass marks the default class and fills defaults', () => {
    const cols = storageClassTableColumns({}, apiDomain('k8s.io'));
    assert.deepEqual(
      cols.columnDefinitions.map((c) => c.name),
      ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age'],
    );
    const o = obj<StorageClass>('StorageClass', { provisioner: 'p.io/x' }, 'standard');
    o.metadata.annotations = { 'storageclass.kubernetes.io/is-default-class': 'true' };
    o.metadata.creationTimestamp = created;
    assert.deepEqual(cols.cells(o, now), ['standard (default)', 'p.io/x', 'Delete', 'Immediate', false, '60m']);
    o.metadata.annotations = { 'storageclass.beta.kubernetes.io/is-default-class': 'false' };
    assert.equal(cols.cells(o, now)[0], 'standard');
  });
  it('CSIDriver, CSINode, VolumeAttachment and CSIStorageCapacity', () => {
    const d = obj<CSIDriver>(
      'CSIDriver',
      { spec: { tokenRequests: [{ audience: 'a' }, { audience: 'b' }] } },
      'csi.io',
    );
    assert.deepEqual(csiDriverTableColumns({}).cells(d, now), [
      'csi.io',
      true,
      false,
      false,
      'a,b',
      false,
      '<none>',
      '<unknown>',
    ]);
    defaultCSIDriver(d);
    assert.deepEqual(csiDriverTableColumns({}).cells(d, now).slice(4, 7), ['a,b', false, 'Persistent']);
    const n = obj<CSINode>('CSINode', { spec: { drivers: [{ name: 'a' }, { name: 'b' }] } }, 'node1');
    assert.deepEqual(csiNodeTableColumns().cells(n, now), ['node1', 2, '<unknown>']);
    const va = obj<VolumeAttachment>('VolumeAttachment', {
      spec: { attacher: 'csi.io', nodeName: 'n1', source: { persistentVolumeName: 'pv1' } },
      status: { attached: true },
    });
    const vaCols = volumeAttachmentTableColumns({});
    assert.equal(vaCols.columnDefinitions[1].format, 'name');
    assert.deepEqual(vaCols.cells(va, now), ['x', 'csi.io', 'pv1', 'n1', true, '<unknown>']);
    const capCols = csiStorageCapacityTableColumns({});
    assert.deepEqual(
      capCols.columnDefinitions.map((c) => c.name),
      ['Name', 'StorageClassName', 'Capacity'],
    );
    assert.deepEqual(capCols.cells(obj('CSIStorageCapacity', { storageClassName: 'fast' }), now), [
      'x',
      'fast',
      '<unset>',
    ]);
  });
});
