import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, formatFieldError } from '../meta/field-error.js';
import { defaultNode, type Node, validateNode, validateNodeUpdate } from './node-rules.js';
import {
  type ClaimSpec,
  defaultClaimSpec,
  defaultPersistentVolume,
  normalizeDataSources,
  type PersistentVolume,
  type PersistentVolumeClaim,
  validateClaimSpec,
  validateClaimUpdate,
  validatePersistentVolumeSpec,
  validatePersistentVolumeUpdate,
} from './persistent-volume-rules.js';
import {
  defaultLimitRange,
  type LimitRange,
  type ResourceQuota,
  validateLimitRange,
  validateResourceQuotaSpec,
  validateResourceQuotaUpdate,
} from './quota-rules.js';

const fmt = (errs: FieldError[]) => errs.map(formatFieldError);

describe('Node rules', () => {
  it('defaults allocatable, zero values and pod CIDRs', () => {
    const node: Node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n' },
      spec: { podCIDR: '10.0.0.0/24' },
      status: { capacity: { cpu: '4' } },
    };
    defaultNode(node);
    assert.deepEqual(node.status?.allocatable, { cpu: '4' });
    assert.deepEqual(node.spec?.podCIDRs, ['10.0.0.0/24']);
    assert.deepEqual(node.status?.daemonEndpoints, { kubeletEndpoint: { Port: 0 } });
    assert.equal(node.status?.nodeInfo?.kubeletVersion, '');
  });
  it('validates taints (under metadata.taints, as kube reports them) and quantities', () => {
    const node: Node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n' },
      spec: {
        taints: [
          { key: 'k', effect: 'Sometimes' },
          { key: 'k', effect: 'NoSchedule' },
          { key: 'k', effect: 'NoSchedule' },
        ],
      },
      status: { capacity: { pods: '1.5' } },
    };
    assert.deepEqual(fmt(validateNode(node)), [
      'metadata.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      'metadata.taints[2]: Duplicate value: {"key":"k","effect":"NoSchedule"}: taints must be unique by key and effect pair',
      'status.capacity.pods: Invalid value: "1500m": must be an integer',
    ]);
  });
  it('keeps pod CIDRs and the provider ID once set', () => {
    const old: Node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n' },
      spec: { podCIDRs: ['10.0.0.0/24'], providerID: 'a' },
    };
    const next: Node = { ...old, spec: { podCIDRs: ['10.0.1.0/24'], providerID: 'b' } };
    assert.deepEqual(fmt(validateNodeUpdate(next, old)), [
      'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    ]);
  });
});

describe('PersistentVolume rules', () => {
  const pv = (spec: PersistentVolume['spec']): PersistentVolume => ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'pv' },
    spec,
  });
  it('defaults reclaim policy and volume mode', () => {
    const p = pv({});
    defaultPersistentVolume(p);
    assert.equal(p.spec?.persistentVolumeReclaimPolicy, 'Retain');
    assert.equal(p.spec?.volumeMode, 'Filesystem');
  });
  it('validates access modes, capacity and the source', () => {
    assert.deepEqual(
      validatePersistentVolumeSpec({
        accessModes: ['ReadWriteOnce'],
        capacity: { storage: '1Gi' },
        hostPath: { path: '/d' },
      }),
      [],
    );
    assert.deepEqual(fmt(validatePersistentVolumeSpec({ accessModes: ['Sometimes'], capacity: { storage: '0' } })), [
      'spec.accessModes: Unsupported value: "Sometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      'spec.capacity[storage]: Invalid value: "0": must be greater than zero',
      'spec: Required value: must specify a volume type',
    ]);
    assert.deepEqual(
      fmt(
        validatePersistentVolumeSpec({
          accessModes: ['ReadWriteOnce'],
          capacity: { storage: '1Gi' },
          hostPath: { path: '/d' },
          nfs: { server: 's', path: '/' },
        }),
      ),
      ['spec.nfs: Forbidden: may not specify more than 1 volume type'],
    );
    assert.deepEqual(
      fmt(
        validatePersistentVolumeSpec({
          accessModes: ['ReadWriteOnce'],
          capacity: { storage: '1Gi' },
          local: { path: '/d' },
        }),
      ),
      ['spec.nodeAffinity: Required value: Local volume requires node affinity'],
    );
  });
  it('keeps the source immutable', () => {
    const old = pv({
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '1Gi' },
      hostPath: { path: '/a' },
      volumeMode: 'Filesystem',
    });
    const next = pv({ ...old.spec, hostPath: { path: '/b' } });
    assert.deepEqual(fmt(validatePersistentVolumeUpdate(next, old)), [
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation',
    ]);
  });
});

describe('PersistentVolumeClaim rules', () => {
  it('defaults and normalizes data sources', () => {
    const spec: ClaimSpec = { dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } };
    defaultClaimSpec(spec);
    normalizeDataSources(spec);
    assert.equal(spec.volumeMode, 'Filesystem');
    assert.deepEqual(spec.dataSourceRef, { kind: 'PersistentVolumeClaim', name: 'src' });
  });
  it('validates access modes and storage requests with kube paths', () => {
    assert.deepEqual(fmt(validateClaimSpec({ resources: {} }, 'spec')), [
      'spec.accessModes: Required value: at least 1 access mode is required',
      'spec.resources[storage]: Required value',
    ]);
    assert.deepEqual(
      fmt(
        validateClaimSpec(
          { accessModes: ['ReadWriteOnce', 'ReadWriteOncePod'], resources: { requests: { storage: '-1' } } },
          'spec',
        ),
      ),
      [
        'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
        'spec.resources[storage]: Invalid value: "-1": must be greater than zero',
      ],
    );
  });
  it('keeps the spec immutable except a bound claim growing', () => {
    const claim = (storage: string, phase = 'Bound'): PersistentVolumeClaim => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, volumeName: 'pv' },
      status: { phase, capacity: { storage: '1Gi' } },
    });
    assert.deepEqual(validateClaimUpdate(claim('2Gi'), claim('1Gi')), []);
    assert.deepEqual(fmt(validateClaimUpdate(claim('2Gi', 'Pending'), claim('1Gi', 'Pending'))), [
      'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    ]);
    assert.deepEqual(fmt(validateClaimUpdate(claim('512Mi'), claim('1Gi'))), [
      'spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
    ]);
  });
});

describe('LimitRange and ResourceQuota rules', () => {
  it('defaults container limit items', () => {
    const lr: LimitRange = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'l' },
      spec: {
        limits: [
          { type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } },
          { type: 'Pod', max: { cpu: '4' } },
        ],
      },
    };
    defaultLimitRange(lr);
    assert.deepEqual(lr.spec?.limits?.[0], {
      type: 'Container',
      max: { cpu: '2' },
      min: { memory: '64Mi' },
      default: { cpu: '2' },
      defaultRequest: { cpu: '2', memory: '64Mi' },
    });
    assert.deepEqual(lr.spec?.limits?.[1], { type: 'Pod', max: { cpu: '4' } });
  });
  it('validates limit items', () => {
    const lr: LimitRange = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'l' },
      spec: {
        limits: [
          { type: 'Container', max: { cpu: '1' }, min: { cpu: '2' } },
          { type: 'Container' },
          { type: 'Pod', default: { cpu: '1' } },
          { type: 'PersistentVolumeClaim' },
        ],
      },
    };
    assert.deepEqual(fmt(validateLimitRange(lr)), [
      'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
      'spec.limits[1].type: Duplicate value: "Container"',
      "spec.limits[2].default: Forbidden: may not be specified when `type` is 'Pod'",
      'spec.limits[3].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    ]);
  });
  it('validates quota resources and scopes, which are immutable', () => {
    const rq = (spec: ResourceQuota['spec']): ResourceQuota => ({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'q' },
      spec,
    });
    assert.deepEqual(
      validateResourceQuotaSpec(rq({ hard: { pods: '10', 'count/deployments.apps': '2', 'requests.cpu': '1' } })),
      [],
    );
    assert.deepEqual(
      fmt(
        validateResourceQuotaSpec(rq({ hard: { bananas: '1', pods: '1.5' }, scopes: ['BestEffort', 'NotBestEffort'] })),
      ),
      [
        'spec.hard[bananas]: Invalid value: "bananas": must be a standard resource type or fully qualified',
        'spec.hard[bananas]: Invalid value: "bananas": must be a standard resource for quota',
        'spec.hard[pods]: Invalid value: "1500m": must be an integer',
        'spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: conflicting scopes',
      ],
    );
    assert.deepEqual(fmt(validateResourceQuotaUpdate(rq({ scopes: ['Terminating'] }), rq({}))), [
      'spec.scopes: Invalid value: ["Terminating"]: field is immutable',
    ]);
  });
});
