import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeTyped } from './merge/merge.js';
import { Scenario } from './testing/scenario.js';
import { WIDGET_API_VERSION as V, widget, widgetSchema } from './testing/widget-schema.js';
import { compareTyped } from './typed/compare.js';
import { TypeCompiler } from './typed/type-node.js';

/**
 * Nulls in server-side apply, as structured-merge-diff v4 handles them: an applied null is a
 * value the applier owns and keeps; a granular map or list that an apply empties becomes null;
 * in schemaless (deduced) values a null facing a map is an empty map. (The registry drops nulls
 * of non-nullable fields afterwards, as kube's decoding does; these scenarios stop before it.)
 */
function scenario(): Scenario {
  return new Scenario({ schema: widgetSchema, apiVersion: V, kind: 'Widget' });
}

const W = new TypeCompiler().compile(widgetSchema);

describe('apply: applied nulls are owned and kept', () => {
  it('nulls for a scalar, a map key, an atomic struct and a schemaless value', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: null, config: { k: null }, target: null, extra: { a: { b: null } } }));
    assert.deepEqual(
      s.object(),
      widget({ replicas: null, config: { k: null }, target: null, extra: { a: { b: null } } }),
    );
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:spec":{"f:config":{"f:k":{}},"f:extra":{"f:a":{".":{},"f:b":{}}},"f:replicas":{},"f:target":{}}}',
    });
  });

  it('a value the applier changes to null', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1 }));
    s.apply('a', widget({ replicas: null }));
    assert.deepEqual(s.object(), widget({ replicas: null }));
    assert.deepEqual(s.owners(), { 'a/Apply': '{"f:spec":{"f:replicas":{}}}' });
  });

  it('a map the applier applied, now applied as null, is emptied to null (not dropped)', () => {
    const s = scenario();
    s.apply('a', widget({ config: { k: 'v' } }));
    s.apply('a', widget({ config: null }));
    assert.deepEqual(s.object(), widget({ config: null }));
    assert.deepEqual(s.owners(), { 'a/Apply': '{"f:spec":{"f:config":{}}}' });
  });

  it('a set the applier applied, now applied as null, is emptied to null', () => {
    const s = scenario();
    s.apply('a', widget({ tags: ['x', 'y'] }));
    s.apply('a', widget({ tags: null }));
    assert.deepEqual(s.object(), widget({ tags: null }));
    assert.deepEqual(s.owners(), { 'a/Apply': '{"f:spec":{"f:tags":{}}}' });
  });

  it('a null over a map with keys another applier owns keeps those keys', () => {
    const s = scenario();
    s.apply('a', widget({ config: { k: 'v' } }));
    s.apply('b', widget({ config: { q: 'w' } }));
    s.apply('a', widget({ config: null }));
    assert.deepEqual(s.object(), widget({ config: { q: 'w' } }));
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:spec":{"f:config":{}}}',
      'b/Apply': '{"f:spec":{"f:config":{"f:q":{}}}}',
    });
  });

  it('a null the applier stops applying goes, when nobody else owns it', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: null, image: 'x' }));
    s.apply('a', widget({ image: 'x' }));
    assert.deepEqual(s.object(), widget({ image: 'x' }));
  });
});

describe('apply: nulls owned by another manager are not pruned', () => {
  it('a null another applier also applied stays when the first stops applying it', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: null, image: 'x' }));
    s.apply('b', widget({ replicas: null }));
    s.apply('a', widget({ image: 'x' }));
    assert.deepEqual(s.object(), widget({ replicas: null, image: 'x' }));
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:spec":{"f:image":{}}}',
      'b/Apply': '{"f:spec":{"f:replicas":{}}}',
    });
  });

  it('a null an updater wrote stays when the applier stops applying the field', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: 1, image: 'x' }));
    s.update('ctl', (o) => ({ ...o, spec: { replicas: null, image: 'x' } }));
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:spec":{"f:image":{}}}',
      'ctl/Update': '{"f:spec":{"f:replicas":{}}}',
    });
    s.apply('a', widget({ image: 'x' }));
    assert.deepEqual(s.object(), widget({ replicas: null, image: 'x' }));
  });
});

describe('apply: a struct applied as null (structured-merge-diff nested_test)', () => {
  // The upstream `struct` is spec here, its `name` image and its `value` replicas.
  const start = (s: Scenario, controllerImage: string) => {
    s.apply('default', widget({ image: 'a' }));
    s.update('controller', (o) => ({ ...o, spec: { image: controllerImage, replicas: 1 } }));
  };

  it('struct_apply_update_dict_null: what the controller added stays', () => {
    const s = scenario();
    start(s, 'a');
    s.apply('default', { ...widget(undefined), spec: null });
    assert.deepEqual(s.object(), widget({ replicas: 1 }));
    assert.deepEqual(s.owners(), {
      'default/Apply': '{"f:spec":{}}',
      'controller/Update': '{"f:spec":{"f:replicas":{}}}',
    });
  });

  it('struct_apply_update_dict_dangling: an empty struct does the same', () => {
    const s = scenario();
    start(s, 'a');
    s.apply('default', widget({}));
    assert.deepEqual(s.object(), widget({ replicas: 1 }));
  });

  it('struct_apply_update_took_over: a field the controller changed is the controller’s', () => {
    const s = scenario();
    start(s, 'b');
    s.apply('default', { ...widget(undefined), spec: null });
    assert.deepEqual(s.object(), widget({ image: 'b', replicas: 1 }));
  });
});

describe('apply: schemaless values with nulls', () => {
  it('owning {a: {b: null}} claims a and a.b, not a sibling an updater wrote', () => {
    const s = scenario();
    s.update('ctl', widget({ extra: { a: { c: 1 } } }));
    s.apply('x', widget({ extra: { a: { b: null } } }));
    assert.deepEqual(s.object(), widget({ extra: { a: { c: 1, b: null } } }));
    assert.deepEqual(s.owners(), {
      'ctl/Update': '{"f:spec":{".":{},"f:extra":{".":{},"f:a":{".":{},"f:c":{}}}}}',
      'x/Apply': '{"f:spec":{"f:extra":{"f:a":{".":{},"f:b":{}}}}}',
    });
  });

  it('the applier stops applying a.b: the sibling another applier owns stays', () => {
    const s = scenario();
    s.apply('x', widget({ extra: { a: { b: null } } }));
    s.apply('y', widget({ extra: { a: { c: 1 } } }));
    s.apply('x', widget({ extra: {} }));
    assert.deepEqual(s.object(), widget({ extra: { a: { c: 1 } } }));
    assert.deepEqual(s.owners(), {
      'x/Apply': '{"f:spec":{"f:extra":{}}}',
      'y/Apply': '{"f:spec":{"f:extra":{"f:a":{".":{},"f:c":{}}}}}',
    });
  });

  it('an update filling a null with a map adds the keys below it, leaving the null’s owner alone', () => {
    const s = scenario();
    s.apply('x', widget({ extra: { a: null } }));
    s.update('ctl', (o) => ({ ...o, spec: { extra: { a: { k: 1 } } } }));
    assert.deepEqual(s.owners(), {
      'x/Apply': '{"f:spec":{"f:extra":{"f:a":{}}}}',
      'ctl/Update': '{"f:spec":{"f:extra":{"f:a":{"f:k":{}}}}}',
    });
    // Re-applying the null merges nothing into the map: no conflict, no change.
    const before = s.live?.metadata.managedFields;
    s.apply('x', widget({ extra: { a: null } }));
    assert.deepEqual(s.object(), widget({ extra: { a: { k: 1 } } }));
    assert.deepEqual(s.live?.metadata.managedFields, before);
  });
});

describe('mergeTyped and compareTyped with nulls (structured-merge-diff merge_test)', () => {
  const at = (value: unknown) => ({ spec: value });
  const cases: Array<{ name: string; lhs: unknown; rhs: unknown; out: unknown }> = [
    { name: 'null over nothing', lhs: {}, rhs: { config: null }, out: { config: null } },
    { name: 'empty map over null', lhs: { config: null }, rhs: { config: {} }, out: { config: {} } },
    { name: 'null over an empty map', lhs: { config: {} }, rhs: { config: null }, out: { config: null } },
    { name: 'null over an empty list', lhs: { tags: [] }, rhs: { tags: null }, out: { tags: null } },
    { name: 'empty list over null', lhs: { tags: null }, rhs: { tags: [] }, out: { tags: [] } },
    {
      name: 'null over a map merges nothing in',
      lhs: { config: { k: 'v' } },
      rhs: { config: null },
      out: { config: { k: 'v' } },
    },
    { name: 'null over a set merges nothing in', lhs: { tags: ['x'] }, rhs: { tags: null }, out: { tags: ['x'] } },
    {
      name: 'null over an atomic struct replaces it',
      lhs: { target: { kind: 'K' } },
      rhs: { target: null },
      out: { target: null },
    },
    {
      name: 'schemaless: null over a map merges nothing in',
      lhs: { extra: { a: { k: 1 } } },
      rhs: { extra: { a: null } },
      out: { extra: { a: { k: 1 } } },
    },
    {
      name: 'schemaless: null over a scalar or list replaces it',
      lhs: { extra: { a: 1, l: [1] } },
      rhs: { extra: { a: null, l: null } },
      out: { extra: { a: null, l: null } },
    },
    {
      name: 'schemaless: a map over null',
      lhs: { extra: { a: null } },
      rhs: { extra: { a: { k: 1 } } },
      out: { extra: { a: { k: 1 } } },
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(mergeTyped(at(c.lhs), at(c.rhs), W), at(c.out)));
  }

  it('schemaless: null against a map differs below it, not at it', () => {
    const cmp = compareTyped(at({ extra: { a: null } }), at({ extra: { a: { k: 1 } } }), W);
    assert.deepEqual(
      [cmp.added.paths(), cmp.modified.paths(), cmp.removed.paths()].map((ps) =>
        ps.map((p) => p.map((e) => e.id).join('.')),
      ),
      [['f:spec.f:extra.f:a.f:k'], [], []],
    );
    const back = compareTyped(at({ extra: { a: { k: 1 } } }), at({ extra: { a: null } }), W);
    assert.deepEqual(
      [back.added.paths(), back.modified.paths(), back.removed.paths()].map((ps) =>
        ps.map((p) => p.map((e) => e.id).join('.')),
      ),
      [[], [], ['f:spec.f:extra.f:a.f:k']],
    );
  });

  it('a null and an empty map differ at the field', () => {
    const cmp = compareTyped(at({ config: null }), at({ config: {} }), W);
    assert.deepEqual(
      cmp.modified.paths().map((p) => p.map((e) => e.id).join('.')),
      ['f:spec.f:config'],
    );
  });
});
