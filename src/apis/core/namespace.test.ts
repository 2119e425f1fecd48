import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../api-domain.js';
import { formatFieldError } from '../meta/field-error.js';
import type { SubresourceWithStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import type { ResourceStrategy } from '../resource-definition.js';
import { namespaceResource } from './namespace.js';

const NAMESPACE_NAME_LABEL = ORCH_DOMAIN.namespaceNameLabel;

const def = namespaceResource();
const { strategy } = def;

function subresource(name: string): ResourceStrategy {
  const sub = def.subresources.find((s) => s.name === name) as SubresourceWithStrategy;
  assert.ok(sub.strategy);
  return sub.strategy;
}

function ns(name: string, fields: Record<string, unknown> = {}): ApiObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, ...fields };
}

function created(name = 'team-a', fields: Record<string, unknown> = {}): ApiObject {
  const obj = ns(name, fields);
  strategy.prepareForCreate(obj);
  assert.deepEqual(strategy.validateCreate(obj), []);
  Object.assign(obj.metadata, { uid: 'u1', resourceVersion: '1', creationTimestamp: '2024-01-01T00:00:00Z' });
  return obj;
}

function forUpdate(old: ApiObject, change: (o: ApiObject) => void): ApiObject {
  const next = structuredClone(old);
  next.metadata.resourceVersion = '1';
  change(next);
  return next;
}

describe('Namespace create', () => {
  it('sets phase Active, appends the orch finalizer, labels the name', () => {
    const obj = ns('team-a', { spec: { finalizers: ['example.com/x'] }, status: { phase: 'Terminating' } });
    strategy.prepareForCreate(obj);
    assert.deepEqual(obj.status, { phase: 'Active' });
    assert.deepEqual(obj.spec, { finalizers: ['example.com/x', 'orch'] });
    assert.deepEqual(obj.metadata.labels, { [NAMESPACE_NAME_LABEL]: 'team-a' });
    assert.deepEqual(strategy.validateCreate(obj), []);
  });

  it('does not duplicate the orch finalizer', () => {
    const obj = ns('a', { spec: { finalizers: ['orch'] } });
    strategy.prepareForCreate(obj);
    assert.deepEqual(obj.spec, { finalizers: ['orch'] });
  });

  const cases: { name: string; obj: ApiObject; want: string[] }[] = [
    {
      name: 'names are DNS labels',
      obj: ns('my.ns'),
      want: ['metadata.name: Invalid value: "my.ns": must not contain dots'],
    },
    {
      name: 'namespace is forbidden in metadata',
      obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a', namespace: 'b' } },
      want: ['metadata.namespace: Forbidden: not allowed on this type'],
    },
    {
      name: 'spec finalizers must be standard or domain-prefixed',
      obj: ns('a', { spec: { finalizers: ['custom'] } }),
      want: [
        'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      strategy.prepareForCreate(c.obj);
      assert.deepEqual(strategy.validateCreate(c.obj).map(formatFieldError), c.want);
    });
  }

  it('leaves an ill-typed spec for validation', () => {
    const obj = ns('a', { spec: 'x' });
    strategy.prepareForCreate(obj);
    assert.deepEqual(strategy.validateCreate(obj).map(formatFieldError), [
      'spec: Invalid value: "string": spec in body must be of type object: "string"',
    ]);
  });
});

describe('Namespace update', () => {
  it('keeps spec and status from the live object', () => {
    const old = created();
    const next = forUpdate(old, (o) => {
      o.spec = { finalizers: [] };
      o.status = { phase: 'Terminating' };
      o.metadata.labels = { team: 'x' };
    });
    strategy.prepareForUpdate(next, old);
    assert.deepEqual(next.spec, { finalizers: ['orch'] });
    assert.deepEqual(next.status, { phase: 'Active' });
    assert.deepEqual(next.metadata.labels, { team: 'x', [NAMESPACE_NAME_LABEL]: 'team-a' });
    assert.deepEqual(strategy.validateUpdate(next, old), []);
  });

  it('status subresource changes only status, with the phase rule', () => {
    const status = subresource('status');
    const old = created();
    const next = forUpdate(old, (o) => {
      o.spec = { finalizers: [] };
      o.status = { phase: 'Terminating' };
    });
    status.prepareForUpdate(next, old);
    assert.deepEqual(next.spec, { finalizers: ['orch'] });
    assert.deepEqual(status.validateUpdate(next, old).map(formatFieldError), [
      'status.Phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty',
    ]);
    const deleting = forUpdate(old, (o) => {
      o.metadata.deletionTimestamp = '2024-01-02T00:00:00Z';
      o.status = { phase: 'Active' };
    });
    old.metadata.deletionTimestamp = '2024-01-02T00:00:00Z';
    status.prepareForUpdate(deleting, old);
    assert.deepEqual(status.validateUpdate(deleting, old).map(formatFieldError), [
      'status.Phase: Invalid value: "Active": may only be \'Terminating\' if `deletionTimestamp` is not empty',
    ]);
  });

  it('checks the phase with the Go rule only, not with the enum kube publishes', () => {
    const status = subresource('status');
    const old = created();
    const next = forUpdate(old, (o) => {
      o.status = { phase: 'Pending', conditions: [{ type: 'A' }, { type: 'A' }] };
    });
    status.prepareForUpdate(next, old);
    assert.deepEqual(status.validateUpdate(next, old).map(formatFieldError), [
      'status.Phase: Invalid value: "Pending": may only be \'Active\' if `deletionTimestamp` is empty',
    ]);
  });

  it('finalize subresource changes only spec.finalizers', () => {
    const finalize = subresource('finalize');
    const old = created();
    const next = forUpdate(old, (o) => {
      o.spec = { finalizers: ['example.com/a', 'bad'] };
      o.status = { phase: 'Terminating' };
    });
    finalize.prepareForUpdate(next, old);
    assert.deepEqual(next.status, { phase: 'Active' });
    assert.deepEqual(finalize.validateUpdate(next, old).map(formatFieldError), [
      'spec.finalizers[1]: Invalid value: "bad": name is neither a standard finalizer name nor is it fully qualified',
    ]);
    const cleared = forUpdate(old, (o) => {
      o.spec = { finalizers: [] };
    });
    finalize.prepareForUpdate(cleared, old);
    assert.deepEqual(cleared.spec, { finalizers: [] });
    assert.deepEqual(finalize.validateUpdate(cleared, old), []);
  });
});

describe('Namespace definition', () => {
  it('is cluster-scoped with status and finalize sub-resources and no deletecollection', () => {
    assert.equal(def.namespaced, false);
    assert.deepEqual(def.shortNames, ['ns']);
    assert.equal(def.verbs.includes('deletecollection'), false);
    assert.deepEqual(
      def.subresources.map((s) => [s.name, s.verbs]),
      [
        ['finalize', ['update']],
        ['status', ['get', 'patch', 'update']],
      ],
    );
    assert.equal(def.hasGeneration, false);
    assert.equal(def.allowCreateOnUpdate, false);
  });
});
