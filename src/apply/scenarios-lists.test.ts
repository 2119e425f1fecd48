import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from './../apis/builtin.js';
import { Scenario } from './testing/scenario.js';
import { WIDGET_API_VERSION as V, widget, widgetSchema } from './testing/widget-schema.js';

const configMapSchema = builtinResources().find((d) => d.kind === 'ConfigMap')!.schema;

function configMaps(): Scenario {
  return new Scenario({ schema: configMapSchema, apiVersion: 'v1', kind: 'ConfigMap' });
}

function widgets(): Scenario {
  return new Scenario({ schema: widgetSchema, apiVersion: V, kind: 'Widget' });
}

function cm(metadata: Record<string, unknown>, data?: Record<string, string>) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c', namespace: 'default', ...metadata },
    ...(data ? { data } : {}),
  };
}

const owner = (uid: string) => ({ apiVersion: 'v1', kind: 'Pod', name: `p-${uid}`, uid });

describe('owner references (list map keyed by uid, atomic items)', () => {
  it('updates own items with `.` on the list; applies own the items only', () => {
    const s = configMaps();
    s.update('kube-controller-manager', cm({ ownerReferences: [owner('u1')] }));
    assert.deepEqual(s.owners(), {
      'kube-controller-manager/Update': '{"f:metadata":{"f:ownerReferences":{".":{},"k:{\\"uid\\":\\"u1\\"}":{}}}}',
    });
    s.apply('a', cm({ ownerReferences: [owner('u2')] }));
    assert.deepEqual(
      (s.live!.metadata.ownerReferences ?? []).map((o) => o.uid),
      ['u1', 'u2'],
    );
    assert.equal(s.owners()['a/Apply'], '{"f:metadata":{"f:ownerReferences":{"k:{\\"uid\\":\\"u2\\"}":{}}}}');
  });

  it('an applier dropping its item removes it; another owner’s item stays', () => {
    const s = configMaps();
    s.apply('a', cm({ ownerReferences: [owner('u1'), owner('u2')] }));
    s.apply('b', cm({ ownerReferences: [owner('u2')] }));
    s.apply('a', cm({}));
    assert.deepEqual(s.live!.metadata.ownerReferences, [owner('u2')]);
    s.apply('b', cm({}));
    assert.equal(s.live!.metadata.ownerReferences, undefined);
  });

  it('changing a field of an item owned by another conflicts on the item', () => {
    const s = configMaps();
    s.apply('a', cm({ ownerReferences: [owner('u1')] }));
    const e = s.conflict('b', cm({ ownerReferences: [{ ...owner('u1'), controller: true }] }));
    assert.equal(e.message, 'Apply failed with 1 conflict: conflict with "a": .metadata.ownerReferences[uid="u1"]');
  });
});

describe('finalizers (set)', () => {
  it('each manager owns its values; removing one leaves the others', () => {
    const s = configMaps();
    s.apply('a', cm({ finalizers: ['example.com/a'] }, { k: 'v' }));
    s.update('ctl', (o) => {
      const meta = o.metadata as { finalizers: string[] };
      return { ...o, metadata: { ...meta, finalizers: [...meta.finalizers, 'example.com/ctl'] } };
    });
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:data":{"f:k":{}},"f:metadata":{"f:finalizers":{"v:\\"example.com/a\\"":{}}}}',
      'ctl/Update': '{"f:metadata":{"f:finalizers":{"v:\\"example.com/ctl\\"":{}}}}',
    });
    s.apply('a', cm({ finalizers: ['example.com/b'] }, { k: 'v' }));
    assert.deepEqual(s.live!.metadata.finalizers, ['example.com/ctl', 'example.com/b']);
  });

  it('applying a value another manager holds shares it', () => {
    const s = configMaps();
    s.update('ctl', cm({ finalizers: ['x'] }));
    s.apply('a', cm({ finalizers: ['x'] }));
    s.apply('a', cm({}));
    assert.deepEqual(s.live!.metadata.finalizers, ['x'], 'still owned by ctl');
  });
});

describe('labels and annotations (granular maps)', () => {
  it('updates own the map (`.`) and keys; applies own keys', () => {
    const s = configMaps();
    s.update('kubectl-create', cm({ labels: { app: 'a' } }, { a: 'b' }));
    s.apply('a', cm({ labels: { tier: 't' }, annotations: { note: 'n' } }));
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:metadata":{"f:annotations":{"f:note":{}},"f:labels":{"f:tier":{}}}}',
      'kubectl-create/Update': '{"f:data":{".":{},"f:a":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}',
    });
    s.apply('a', cm({}));
    assert.deepEqual(s.live!.metadata.labels, { app: 'a' });
    assert.equal(s.live!.metadata.annotations, undefined, 'an emptied map nobody owns is removed');
  });
});

describe('list maps with several keys', () => {
  it('items are keyed by all keys, defaults filling omitted ones', () => {
    const s = widgets();
    s.apply('a', widget({ ports: [{ containerPort: 80, name: 'http' }] }));
    s.apply('b', widget({ ports: [{ containerPort: 80, protocol: 'UDP', name: 'dns' }] }));
    assert.deepEqual((s.object().spec as { ports: unknown[] }).ports, [
      { containerPort: 80, name: 'http' },
      { containerPort: 80, protocol: 'UDP', name: 'dns' },
    ]);
    const e = s.conflict('b', widget({ ports: [{ containerPort: 80, protocol: 'TCP', name: 'web' }] }));
    assert.equal(
      e.message,
      'Apply failed with 1 conflict: conflict with "a": .spec.ports[containerPort=80,protocol="TCP"].name',
    );
  });

  it('an applier removes an item even when an updater changed a field in it', () => {
    const s = widgets();
    s.apply('a', widget({ containers: [{ name: 'c', image: 'i' }] }));
    s.update('ctl', (o) => ({
      ...o,
      spec: { containers: [{ name: 'c', image: 'i', env: [{ name: 'E', value: '1' }] }] },
    }));
    s.apply('a', widget({ containers: [{ name: 'other', image: 'i' }] }));
    assert.deepEqual((s.object().spec as { containers: unknown[] }).containers, [{ name: 'other', image: 'i' }]);
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:spec":{"f:containers":{"k:{\\"name\\":\\"other\\"}":{".":{},"f:image":{},"f:name":{}}}}}',
    });
  });

  it('nested list maps: managers own different items of an item', () => {
    const s = widgets();
    s.apply('a', widget({ containers: [{ name: 'c', env: [{ name: 'A', value: '1' }] }] }));
    s.apply('b', widget({ containers: [{ name: 'c', env: [{ name: 'B', value: '2' }] }] }));
    s.apply('a', widget({ containers: [{ name: 'c', env: [] }] }));
    assert.deepEqual((s.object().spec as { containers: unknown[] }).containers, [
      { name: 'c', env: [{ name: 'B', value: '2' }] },
    ]);
  });
});

describe('atomic lists, maps and structs', () => {
  for (const [field, first, second] of [
    ['args', ['a'], ['b', 'c']],
    ['selector', { a: '1' }, { b: '2' }],
    ['target', { kind: 'K', name: 'n' }, { name: 'm' }],
  ] as const) {
    it(`${field}: one owner, replaced whole, conflicts as a whole`, () => {
      const s = widgets();
      s.apply('a', widget({ [field]: first }));
      const e = s.conflict('b', widget({ [field]: second }));
      assert.equal(e.message, `Apply failed with 1 conflict: conflict with "a": .spec.${field}`);
      s.apply('b', widget({ [field]: second }), { force: true });
      assert.deepEqual((s.object().spec as Record<string, unknown>)[field], second);
      assert.deepEqual(s.owners(), { 'b/Apply': `{"f:spec":{"f:${field}":{}}}` });
    });
  }

  it('a granular map: appliers own separate keys without conflict', () => {
    const s = widgets();
    s.apply('a', widget({ config: { x: '1' } }));
    s.apply('b', widget({ config: { y: '2' } }));
    s.apply('a', widget({ config: {} }));
    assert.deepEqual((s.object().spec as { config: unknown }).config, { y: '2' });
  });

  it('unknown fields: nested maps merge, lists are atomic', () => {
    const s = widgets();
    s.apply('a', widget({ extra: { m: { x: 1 }, l: [1] } }));
    s.apply('b', widget({ extra: { m: { y: 2 } } }));
    assert.deepEqual((s.object().spec as { extra: unknown }).extra, { m: { x: 1, y: 2 }, l: [1] });
    assert.equal(s.conflict('b', widget({ extra: { l: [2] } })).causes[0].field, '.spec.extra.l');
  });
});
