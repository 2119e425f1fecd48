import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { leaseCandidateResource } from './lease-candidate.js';

function candidate(spec: Record<string, unknown>, name = 'host_0b7f3c1e'): ApiObject {
  return {
    apiVersion: 'coordination.orch.io/v1alpha2',
    kind: 'LeaseCandidate',
    metadata: { name, namespace: 'orch-system' },
    spec,
  };
}

const good = {
  leaseName: 'orch-controller-manager',
  binaryVersion: '1.32.0',
  emulationVersion: '1.31.0',
  strategy: 'OldestEmulationVersion',
};

describe('LeaseCandidate (coordination/v1alpha2)', () => {
  const def = leaseCandidateResource();
  const create = (obj: ApiObject) => {
    def.strategy.prepareForCreate(obj);
    return def.strategy.validateCreate(obj).map(formatFieldError);
  };

  const cases: { name: string; spec: Record<string, unknown>; want: string[] }[] = [
    { name: 'a complete candidate', spec: good, want: [] },
    {
      name: 'a custom strategy needs no emulation version',
      spec: { ...good, emulationVersion: undefined, strategy: 'example.com/mine' },
      want: [],
    },
    {
      name: 'everything missing',
      spec: {},
      want: ['spec.leaseName: Required value', 'spec.binaryVersion: Required value', 'spec.strategy: Required value'],
    },
    {
      name: 'versions that are not strict semantic versions',
      spec: { ...good, binaryVersion: 'v1.32.0', emulationVersion: '1.31' },
      want: [
        'spec.emulationVersion: Invalid value: "1.31": must be a valid semantic version',
        'spec.binaryVersion: Invalid value: "v1.32.0": must be a valid semantic version',
        "spec.emulationVersion: Required value: must be specified when `strategy` is 'OldestEmulationVersion'",
      ],
    },
    {
      name: 'binary version below the emulation version',
      spec: { ...good, binaryVersion: '1.30.2' },
      want: ['spec.binaryVersion: Invalid value: "1.30.2": must be greater than or equal to `emulationVersion`'],
    },
    {
      name: 'OldestEmulationVersion without an emulation version',
      spec: { ...good, emulationVersion: '' },
      want: ["spec.emulationVersion: Required value: must be specified when `strategy` is 'OldestEmulationVersion'"],
    },
    {
      name: 'unknown strategies',
      spec: { ...good, strategy: 'Newest' },
      want: ['spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"'],
    },
    {
      name: 'a prefixed strategy must be a qualified name',
      spec: { ...good, strategy: 'example.com/not valid' },
      want: [
        "spec.strategy.strategy: Invalid value: \"example.com/not valid\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(create(candidate(c.spec)), c.want));

  it('names are ConfigMap keys: identities with an underscore are valid, slashes are not', () => {
    assert.deepEqual(create(candidate(good, 'node-1_5e3a-uuid')), []);
    const errs = create(candidate(good, 'a/b'));
    assert.equal(errs.length, 1);
    assert.match(errs[0], /^metadata\.name: Invalid value: "a\/b": a valid config key must consist of alphanumeric/);
  });

  it('leaseName is immutable', () => {
    const old = candidate(good);
    old.metadata.resourceVersion = '5';
    const next = candidate({ ...good, leaseName: 'other', renewTime: '2025-01-01T00:00:00Z' });
    next.metadata.resourceVersion = '5';
    def.strategy.prepareForUpdate(next, old);
    assert.deepEqual(def.strategy.validateUpdate(next, old).map(formatFieldError), [
      'spec.leaseName: Invalid value: "other": field is immutable',
    ]);
  });

  it('is coordination.orch.io/v1alpha2 leasecandidates behind CoordinatedLeaderElection, with kube’s columns', () => {
    assert.deepEqual(
      [def.group, def.version, def.resource, def.kind, def.featureGate],
      ['coordination.orch.io', 'v1alpha2', 'leasecandidates', 'LeaseCandidate', 'CoordinatedLeaderElection'],
    );
    assert.deepEqual(
      def.tableColumns?.columnDefinitions.map((c) => c.name),
      ['Name', 'LeaseName', 'BinaryVersion', 'EmulationVersion', 'Age'],
    );
    const obj = candidate(good);
    obj.metadata.creationTimestamp = '2025-01-01T00:00:00Z';
    assert.deepEqual(def.tableColumns?.cells(obj, new Date('2025-01-01T00:02:00Z')), [
      'host_0b7f3c1e',
      'orch-controller-manager',
      '1.32.0',
      '1.31.0',
      '2m',
    ]);
  });
});
