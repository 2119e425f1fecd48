import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from './../apis/builtin.js';
import { FieldManagerError } from './errors.js';
import { fieldPathsSet } from './fieldpath/field-set.js';
import { fieldsV1Text, fromFieldsV1 } from './fieldpath/fields-v1.js';
import { Scenario } from './testing/scenario.js';
import { WIDGET_API_VERSION as V, widget, widgetSchema } from './testing/widget-schema.js';

const configMapSchema = builtinResources().find((d) => d.kind === 'ConfigMap')!.schema;

function configMaps(extra: { emptyListResets?: boolean } = {}): Scenario {
  return new Scenario({ schema: configMapSchema, apiVersion: 'v1', kind: 'ConfigMap', ...extra });
}

function widgets(maxUpdateManagers?: number): Scenario {
  return new Scenario({ schema: widgetSchema, apiVersion: V, kind: 'Widget', maxUpdateManagers });
}

function cm(metadata: Record<string, unknown>, data?: Record<string, string>) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'x', namespace: 'default', ...metadata },
    ...(data ? { data } : {}),
  };
}

function withManagedFields(obj: Record<string, unknown>, managedFields: unknown): Record<string, unknown> {
  return { ...obj, metadata: { ...(obj.metadata as object), managedFields } };
}

describe('what kube records for common writes', () => {
  it('`kubectl create configmap x --from-literal=a=b`', () => {
    const s = configMaps();
    s.update('kubectl-create', cm({ creationTimestamp: null }, { a: 'b' }));
    const [entry] = s.live!.metadata.managedFields!;
    assert.deepEqual(entry, {
      manager: 'kubectl-create',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2024-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
    });
    assert.equal(fieldsV1Text(fromFieldsV1(entry.fieldsV1)), '{"f:data":{".":{},"f:a":{}}}');
  });

  it('never records identity and bookkeeping metadata; records generateName', () => {
    const s = configMaps();
    s.update(
      'm',
      cm({
        generateName: 'x-',
        uid: 'u',
        resourceVersion: '5',
        generation: 2,
        creationTimestamp: '2024-01-01T00:00:00Z',
      }),
    );
    assert.deepEqual(s.owners(), { 'm/Update': '{"f:metadata":{"f:generateName":{}}}' });
  });

  it('names an update without a manager `unknown`', () => {
    const s = configMaps();
    s.update('', cm({}, { a: 'b' }));
    assert.deepEqual(Object.keys(s.owners()), ['unknown/Update']);
  });

  it('sorts entries: Apply first, then by time, manager, API version, sub-resource', () => {
    const s = widgets();
    s.update('z', widget({ replicas: 1 }));
    s.update('y', (o) => ({ ...o, spec: { replicas: 1, image: 'i' } }));
    s.apply('b', widget({ paused: true }));
    s.apply('a', widget({ config: { k: 'v' } }));
    assert.deepEqual(Object.keys(s.owners()), ['b/Apply', 'a/Apply', 'z/Update', 'y/Update']);
  });
});

describe('managedFields written by clients (rule 7)', () => {
  it('an update without managedFields keeps the live entries', () => {
    const s = configMaps();
    s.apply('a', cm({}, { k: 'v' }));
    s.update('e', (o) => ({
      ...o,
      metadata: { ...(o.metadata as object), managedFields: undefined },
      data: { k: 'v', j: 'w' },
    }));
    assert.deepEqual(Object.keys(s.owners()), ['a/Apply', 'e/Update']);
  });

  it('[{}] resets: the writer then owns only what it changed', () => {
    const s = configMaps();
    s.apply('a', cm({ labels: { l: '1' } }, { k: 'v' }));
    s.update('e', (o) => withManagedFields({ ...o, data: { k: 'v', j: 'w' } }, [{}]));
    assert.deepEqual(s.owners(), { 'e/Update': '{"f:data":{"f:j":{}}}' });
  });

  it('[{}] alone removes managedFields, and later updates are not tracked until an apply', () => {
    const s = configMaps();
    s.apply('a', cm({}, { k: 'v' }));
    s.update('e', (o) => withManagedFields(o, [{}]));
    assert.equal(s.live!.metadata.managedFields, undefined);
    s.update('e', (o) => ({ ...o, data: { k: 'changed' } }));
    assert.equal(s.live!.metadata.managedFields, undefined);
    const e = s.conflict('a', cm({}, { k: 'v' }));
    assert.equal(e.message, 'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.k');
    s.apply('a', cm({ labels: { x: 'y' } }));
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:metadata":{"f:labels":{"f:x":{}}}}',
      'before-first-apply/Update': '{"f:data":{".":{},"f:k":{}}}',
    });
  });

  it('[] does not reset (the specification), unless configured as kube v1.32 behaves', () => {
    const s = configMaps();
    s.apply('a', cm({}, { k: 'v' }));
    s.update('e', (o) => withManagedFields({ ...o, data: { k: 'v', j: 'w' } }, []));
    assert.deepEqual(Object.keys(s.owners()), ['a/Apply', 'e/Update']);

    const k = configMaps({ emptyListResets: true });
    k.apply('a', cm({}, { k: 'v' }));
    k.update('e', (o) => withManagedFields({ ...o, data: { k: 'v', j: 'w' } }, []));
    assert.deepEqual(k.owners(), { 'e/Update': '{"f:data":{"f:j":{}}}' });
  });

  it('an update may rewrite managedFields; unreadable ones fall back to the live entries', () => {
    const s = configMaps();
    s.apply('a', cm({}, { k: 'v' }));
    const handWritten = [
      {
        manager: 'h',
        operation: 'Update',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:k': {} } },
      },
    ];
    s.update('e', (o) => withManagedFields(o, handWritten));
    assert.deepEqual(s.owners(), { 'h/Update': '{"f:data":{"f:k":{}}}' });
    s.update('e', (o) => withManagedFields(o, [{ manager: 'bad', operation: 'Patch' }]));
    assert.deepEqual(s.owners(), { 'h/Update': '{"f:data":{"f:k":{}}}' });
  });

  it('a sub-resource write cannot change managedFields', () => {
    const s = widgets();
    s.apply('a', widget({ replicas: 1 }));
    s.update('st', (o) => withManagedFields({ ...o, status: { phase: 'P' } }, [{}]), { subresource: 'status' });
    assert.deepEqual(Object.keys(s.owners()), ['a/Apply', 'st/Update/status']);
  });
});

describe('reset fields (status sub-resource split)', () => {
  const mainReset = fieldPathsSet(['status']);
  const statusReset = fieldPathsSet(['spec', 'metadata']);

  it('the main resource records no status ownership; the status sub-resource no spec ownership', () => {
    const s = widgets();
    s.apply('a', widget({ replicas: 1 }, { status: { phase: 'Mine' } }), { resetFields: mainReset });
    assert.deepEqual(s.owners(), { 'a/Apply': '{"f:spec":{"f:replicas":{}}}' });
    s.update('kubelet', (o) => ({ ...o, spec: { replicas: 9 }, status: { phase: 'Running' } }), {
      subresource: 'status',
      resetFields: statusReset,
    });
    assert.equal(s.owners()['kubelet/Update/status'], '{"f:status":{"f:phase":{}}}');
    assert.equal(
      s.owners()['a/Apply'],
      '{"f:spec":{"f:replicas":{}}}',
      'a keeps spec: the status write may not change it',
    );
  });
});

describe('apply requests kube rejects', () => {
  const s = configMaps();
  const reject = (config: Record<string, unknown>, code: number, message: string) => {
    assert.throws(
      () => s.fm.apply(undefined, config as never, 'a', false),
      (e: unknown) => e instanceof FieldManagerError && e.code === code && e.message === message,
    );
  };

  it('managedFields in the configuration', () => {
    reject(withManagedFields(cm({}), []), 400, 'metadata.managedFields must be nil');
  });

  it('another type or version', () => {
    reject({ ...cm({}), apiVersion: 'apps/v1' }, 400, 'invalid object type: apps/v1, Kind=ConfigMap');
    reject({ ...cm({}), kind: 'Secret' }, 400, 'invalid object type: /v1, Kind=Secret');
  });

  it('fields the schema does not declare, and wrong types', () => {
    reject(
      { ...cm({}), data_error: 'x' },
      500,
      'failed to create typed patch object (default/x; /v1, Kind=ConfigMap): .data_error: field not declared in schema',
    );
    reject(
      { ...cm({}), data: { a: 1 } },
      500,
      'failed to create typed patch object (default/x; /v1, Kind=ConfigMap): .data.a: expected string, got &value.valueUnstructured{Value:1}',
    );
  });

  it('duplicate list items', () => {
    reject(
      cm({ finalizers: ['a', 'a'] }),
      500,
      'failed to create typed patch object (default/x; /v1, Kind=ConfigMap): .metadata.finalizers: duplicate entries for key [="a"]',
    );
  });

  it('unreadable live managedFields', () => {
    const live = withManagedFields(cm({}), [{ manager: 'm', operation: 'Update', apiVersion: 'v1' }]);
    assert.throws(
      () => s.fm.apply(live as never, cm({}) as never, 'a', false),
      (e: unknown) =>
        e instanceof FieldManagerError &&
        e.code === 500 &&
        e.message === 'failed to decode managed fields: missing fieldsType in managed fields entry 0',
    );
  });
});

describe('capping update entries', () => {
  it('merges the oldest updaters into ancient-changes beyond the cap', () => {
    const s = widgets(3);
    s.apply('a', widget({ paused: true }));
    for (const [i, m] of ['u1', 'u2', 'u3', 'u4', 'u5'].entries()) {
      s.update(m, (o) => ({
        ...o,
        spec: { ...(o.spec as object), config: { ...((o.spec as { config?: object }).config ?? {}), [m]: String(i) } },
      }));
    }
    assert.deepEqual(Object.keys(s.owners()), ['a/Apply', 'ancient-changes/Update', 'u4/Update', 'u5/Update']);
    assert.equal(
      s.owners()['ancient-changes/Update'],
      '{"f:spec":{"f:config":{".":{},"f:u1":{},"f:u2":{},"f:u3":{}}}}',
    );
  });
});
