import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Scenario } from './testing/scenario.js';
import { WIDGET_API_VERSION as V, widget, widgetSchema } from './testing/widget-schema.js';

function scenario(): Scenario {
  return new Scenario({ schema: widgetSchema, apiVersion: V, kind: 'Widget' });
}

describe('apply: ownership of one applier (rules 1 and 5)', () => {
  it('creates the object; the applier owns exactly its configuration', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1, config: { k: 'v' } }));
    assert.deepEqual(s.object(), widget({ replicas: 1, config: { k: 'v' } }));
    assert.deepEqual(s.owners(), { 'a/Apply': '{"f:spec":{"f:config":{"f:k":{}},"f:replicas":{}}}' });
    const entry = s.live!.metadata.managedFields![0];
    assert.deepEqual(Object.keys(entry), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    assert.equal(entry.time, '2024-01-01T00:00:00Z');
  });

  it('re-applying the same configuration changes nothing, not even the time', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1 }));
    const before = s.live!.metadata.managedFields;
    s.apply('a', widget({ replicas: 1 }));
    assert.deepEqual(s.live!.metadata.managedFields, before);
  });

  it('removes fields, map keys and list items it applied before and omits now', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1, image: 'i', config: { k: 'v', q: 'w' }, tags: ['x', 'y'] }));
    s.apply('a', widget({ image: 'i', config: { q: 'w' }, tags: ['y'] }));
    assert.deepEqual(s.object(), widget({ image: 'i', config: { q: 'w' }, tags: ['y'] }));
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:spec":{"f:config":{"f:q":{}},"f:image":{},"f:tags":{"v:\\"y\\"":{}}}}',
    });
  });

  it('removes a whole struct when nothing in it is applied or owned any more', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1 }));
    s.apply('a', widget(undefined));
    assert.deepEqual(s.object(), widget(undefined));
    assert.deepEqual(s.owners(), {});
  });
});

describe('apply: several appliers (rules 2, 3, 4)', () => {
  it('the same value shares ownership without conflict', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1 }));
    s.apply('b', widget({ replicas: 1, image: 'x' }));
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:spec":{"f:replicas":{}}}',
      'b/Apply': '{"f:spec":{"f:image":{},"f:replicas":{}}}',
    });
  });

  it('a different value conflicts; the message and causes are kube’s', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1 }));
    const e = s.conflict('b', widget({ replicas: 2 }));
    assert.equal(e.message, 'Apply failed with 1 conflict: conflict with "a": .spec.replicas');
    assert.deepEqual(e.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.replicas' },
    ]);
    const status = e.toStatusError().toStatus();
    assert.equal(status.code, 409);
    assert.equal(status.reason, 'Conflict');
    assert.deepEqual(status.details?.causes, e.causes);
  });

  it('any sharer changing a shared value conflicts with the others', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1 }));
    s.apply('b', widget({ replicas: 1 }));
    s.apply('c', widget({ replicas: 1 }));
    const e = s.conflict('a', widget({ replicas: 3 }));
    assert.equal(
      e.message,
      'Apply failed with 2 conflicts: conflicts with "b":\n- .spec.replicas\nconflicts with "c":\n- .spec.replicas',
    );
  });

  it('force takes the field over and removes it from the others', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1, image: 'i' }));
    s.apply('b', widget({ replicas: 2 }), { force: true });
    assert.equal((s.object().spec as { replicas: number }).replicas, 2);
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:spec":{"f:image":{}}}',
      'b/Apply': '{"f:spec":{"f:replicas":{}}}',
    });
  });

  it('omitting a shared field releases it and keeps the value', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1, image: 'i' }));
    s.apply('b', widget({ replicas: 1 }));
    s.apply('a', widget({ image: 'i' }));
    assert.deepEqual(s.object(), widget({ replicas: 1, image: 'i' }));
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:spec":{"f:image":{}}}',
      'b/Apply': '{"f:spec":{"f:replicas":{}}}',
    });
    // Now b alone owns it, and a’s new value conflicts with b only.
    assert.match(s.conflict('a', widget({ replicas: 5 })).message, /conflict with "b": \.spec\.replicas$/);
  });

  it('lists conflicts of several fields per owner in field-set order', () => {
    const s = scenario();
    s.apply('z', widget({ image: 'i', replicas: 1 }));
    s.update('m', (o) => ({ ...o, spec: { ...(o.spec as object), paused: true } }));
    const e = s.conflict('a', widget({ replicas: 2, image: 'j', paused: false }));
    assert.equal(
      e.message,
      'Apply failed with 3 conflicts: conflicts with "m" using example.orch.io/v1:\n- .spec.paused\nconflicts with "z":\n- .spec.image\n- .spec.replicas',
    );
    assert.deepEqual(
      e.causes.map((c) => `${c.message} ${c.field}`),
      [
        'conflict with "m" using example.orch.io/v1 .spec.paused',
        'conflict with "z" .spec.image',
        'conflict with "z" .spec.replicas',
      ],
    );
  });
});

describe('update and apply together (rule 6)', () => {
  it('an update never conflicts; it takes over what it changed', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1, image: 'i' }));
    s.update('ctl', (o) => ({ ...o, spec: { ...(o.spec as object), replicas: 4 } }));
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:spec":{"f:image":{}}}',
      'ctl/Update': '{"f:spec":{"f:replicas":{}}}',
    });
    const e = s.conflict('a', widget({ replicas: 1, image: 'i' }));
    assert.equal(
      e.message,
      'Apply failed with 1 conflict: conflict with "ctl" using example.orch.io/v1: .spec.replicas',
    );
  });

  it('an applier that drops a field an updater took over leaves it in place', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 3, image: 'i' }));
    s.update('ctl', (o) => ({ ...o, spec: { ...(o.spec as object), replicas: 4 } }));
    s.apply('a', widget({ image: 'i' }));
    assert.deepEqual(s.object(), widget({ replicas: 4, image: 'i' }));
  });

  it('applying the value an updater set shares it; forcing another value takes it', () => {
    const s = scenario();
    s.update('ctl', widget({ replicas: 2 }));
    s.apply('a', widget({ replicas: 2 }));
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:spec":{"f:replicas":{}}}',
      'ctl/Update': '{"f:spec":{".":{},"f:replicas":{}}}',
    });
    s.apply('a', widget({ replicas: 3 }), { force: true });
    assert.deepEqual(s.owners(), { 'a/Apply': '{"f:spec":{"f:replicas":{}}}', 'ctl/Update': '{"f:spec":{}}' });
  });

  it('an updater’s entry accumulates and its removals are dropped from everyone', () => {
    const s = scenario();
    s.apply('a', widget({ config: { x: '1' } }));
    s.update('ctl', (o) => ({ ...o, spec: { config: { x: '1', y: '2' } } }));
    s.update('ctl', (o) => ({ ...o, spec: { config: { y: '2', z: '3' } } }));
    assert.deepEqual(s.owners(), { 'ctl/Update': '{"f:spec":{"f:config":{"f:y":{},"f:z":{}}}}' });
    assert.deepEqual(s.object(), widget({ config: { y: '2', z: '3' } }));
  });

  it('three managers: an update of a shared field leaves the appliers without it', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1 }));
    s.apply('b', widget({ replicas: 1 }));
    s.update('c', (o) => ({ ...o, spec: { replicas: 7 } }));
    assert.deepEqual(s.owners(), { 'c/Update': '{"f:spec":{"f:replicas":{}}}' });
    assert.equal(s.conflict('b', widget({ replicas: 1 })).causes.length, 1);
  });

  it('an update by the same manager through another sub-resource is a separate entry', () => {
    const s = scenario();
    s.update('ctl', widget({ replicas: 1 }));
    s.update('ctl', (o) => ({ ...o, status: { phase: 'Ready' } }), { subresource: 'status' });
    assert.deepEqual(Object.keys(s.owners()), ['ctl/Update', 'ctl/Update/status']);
    const e = s.conflict('a', widget(undefined, { status: { phase: 'Gone' } }));
    assert.equal(
      e.message,
      'Apply failed with 1 conflict: conflict with "ctl" with subresource "status" using example.orch.io/v1: .status.phase',
    );
  });
});
