import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../builtin.js';
import type { ApiObject } from '../object.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { UnsupportedFieldLabelError } from './errors.js';
import { convertFieldSelector, defaultFieldLabels, fieldLabelsOf } from './field-labels.js';
import { matchesFields, parseFieldSelector } from './field-selector.js';

const defs = new Map(
  builtinResources()
    .filter((d) => !d.storageResource)
    .map((d) => [d.kind, d]),
);

function def(kind: string): ResourceDefinition {
  const d = defs.get(kind);
  assert.ok(d, kind);
  return d;
}

const notKnown = (label: string) =>
  `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`;
const notSupported = (label: string) => `field label not supported: ${label}`;

describe('field labels of the built-in kinds', () => {
  // kind → labels accepted, and a label rejected with its message.
  const cases: { kind: string; supported: string[]; rejected: [string, string][] }[] = [
    {
      kind: 'Namespace',
      supported: ['metadata.name', 'status.phase'],
      rejected: [
        ['metadata.namespace', notSupported('metadata.namespace')],
        ['spec.finalizers', notSupported('spec.finalizers')],
      ],
    },
    { kind: 'ConfigMap', supported: ['metadata.name', 'metadata.namespace'], rejected: [['data', notKnown('data')]] },
    {
      kind: 'Secret',
      supported: ['metadata.name', 'metadata.namespace', 'type'],
      rejected: [['data', notSupported('data')]],
    },
    {
      kind: 'ServiceAccount',
      supported: ['metadata.name', 'metadata.namespace'],
      rejected: [['secrets', notKnown('secrets')]],
    },
    {
      kind: 'Event',
      supported: [
        'metadata.name',
        'metadata.namespace',
        'involvedObject.kind',
        'involvedObject.namespace',
        'involvedObject.name',
        'involvedObject.uid',
        'involvedObject.apiVersion',
        'involvedObject.resourceVersion',
        'involvedObject.fieldPath',
        'reason',
        'reportingComponent',
        'source',
        'type',
      ],
      rejected: [
        ['message', notSupported('message')],
        ['involvedObject', notSupported('involvedObject')],
      ],
    },
    {
      kind: 'Lease',
      supported: ['metadata.name', 'metadata.namespace'],
      rejected: [
        ['spec.holderIdentity', notKnown('spec.holderIdentity')],
        ['we"ird', '"we\\"ird" is not a known field selector: only "metadata.name", "metadata.namespace"'],
      ],
    },
  ];

  for (const { kind, supported, rejected } of cases) {
    const support = fieldLabelsOf(def(kind));
    it(`${kind} accepts ${supported.join(', ')}`, () => {
      assert.deepEqual([...support.supported].sort(), [...supported].sort());
      for (const label of supported) {
        const sel = parseFieldSelector(`${label}=x`);
        assert.equal(convertFieldSelector(sel, support), sel);
      }
    });
    for (const [label, message] of rejected) {
      it(`${kind} rejects ${label}`, () => {
        assert.throws(
          () => convertFieldSelector(parseFieldSelector(`metadata.name=a,${label}=x`), support),
          (err: unknown) => err instanceof UnsupportedFieldLabelError && err.label === label && err.message === message,
        );
      });
    }
  }

  it('reports the first unsupported label in term order', () => {
    assert.throws(() => convertFieldSelector(parseFieldSelector('z=1,b=2'), fieldLabelsOf(def('Secret'))), {
      message: notSupported('b'),
    });
  });

  it('accepts the empty selector on every kind', () => {
    for (const d of defs.values())
      assert.equal(convertFieldSelector(parseFieldSelector(''), fieldLabelsOf(d)).empty, true);
  });
});

describe('field sets of the built-in kinds', () => {
  const cases: { kind: string; obj: ApiObject; fields: Record<string, string> }[] = [
    {
      kind: 'Namespace',
      obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' }, status: { phase: 'Terminating' } },
      fields: { 'metadata.name': 'team', 'status.phase': 'Terminating' },
    },
    {
      kind: 'Namespace',
      obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bare' } },
      fields: { 'metadata.name': 'bare', 'status.phase': '' },
    },
    {
      kind: 'ConfigMap',
      obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' }, data: { a: 'b' } },
      fields: { 'metadata.name': 'c', 'metadata.namespace': 'ns' },
    },
    {
      kind: 'Secret',
      obj: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns' }, type: 'Opaque' },
      fields: { 'metadata.name': 's', 'metadata.namespace': 'ns', type: 'Opaque' },
    },
    {
      kind: 'ServiceAccount',
      obj: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'ns' } },
      fields: { 'metadata.name': 'default', 'metadata.namespace': 'ns' },
    },
    {
      kind: 'Lease',
      obj: { apiVersion: 'coordination.orch.io/v1', kind: 'Lease', metadata: { name: 'l', namespace: 'ns' } },
      fields: { 'metadata.name': 'l', 'metadata.namespace': 'ns' },
    },
    {
      kind: 'Event',
      obj: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'e', namespace: 'ns' },
        involvedObject: {
          kind: 'Pod',
          namespace: 'ns',
          name: 'p',
          uid: 'u-1',
          apiVersion: 'v1',
          resourceVersion: '42',
          fieldPath: 'spec.containers{app}',
        },
        reason: 'Started',
        source: { component: 'kubelet', host: 'node-1' },
        reportingComponent: 'orch.io/kubelet',
        type: 'Normal',
      },
      fields: {
        'metadata.name': 'e',
        'metadata.namespace': 'ns',
        'involvedObject.kind': 'Pod',
        'involvedObject.namespace': 'ns',
        'involvedObject.name': 'p',
        'involvedObject.uid': 'u-1',
        'involvedObject.apiVersion': 'v1',
        'involvedObject.resourceVersion': '42',
        'involvedObject.fieldPath': 'spec.containers{app}',
        reason: 'Started',
        reportingComponent: 'orch.io/kubelet',
        source: 'kubelet',
        type: 'Normal',
      },
    },
  ];
  for (const { kind, obj, fields } of cases) {
    it(`${kind} ${obj.metadata.name}`, () => {
      assert.deepEqual(fieldLabelsOf(def(kind)).fieldSet(obj), fields);
    });
  }

  it('Event source falls back to the reporting component', () => {
    const set = fieldLabelsOf(def('Event')).fieldSet({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'ns' },
      reportingComponent: 'orch.io/controller',
    });
    assert.equal(set.source, 'orch.io/controller');
    assert.equal(set['involvedObject.kind'], '');
  });

  it('selects events the way a kubectl describe does', () => {
    const support = fieldLabelsOf(def('Event'));
    const sel = convertFieldSelector(
      parseFieldSelector('involvedObject.name=p,involvedObject.namespace=ns,involvedObject.kind=Pod'),
      support,
    );
    const ev = (name: string): ApiObject => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${name}.1`, namespace: 'ns' },
      involvedObject: { kind: 'Pod', namespace: 'ns', name },
    });
    assert.equal(matchesFields(sel, support.fieldSet(ev('p'))), true);
    assert.equal(matchesFields(sel, support.fieldSet(ev('q'))), false);
  });

  it('default support of a cluster-scoped kind has no namespace value', () => {
    const support = defaultFieldLabels({ namespaced: false });
    const obj: ApiObject = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' } };
    assert.deepEqual(support.fieldSet(obj), { 'metadata.name': 'a' });
    assert.equal(matchesFields(parseFieldSelector('metadata.namespace='), support.fieldSet(obj)), true);
    assert.equal(matchesFields(parseFieldSelector('metadata.namespace=ns'), support.fieldSet(obj)), false);
  });
});
