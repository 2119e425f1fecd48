import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../apis/object.js';
import { createFieldManager } from './field-manager.js';
import { WIDGET_API_VERSION, widget, widgetSchema } from './testing/widget-schema.js';

function ports(n: number, suffix: string) {
  return Array.from({ length: n }, (_, i) => ({ containerPort: 1000 + i, protocol: 'TCP', name: `p${i}-${suffix}` }));
}

function meanMs(runs: number, fn: (i: number) => void): number {
  for (let i = 0; i < 20; i++) fn(i);
  const start = performance.now();
  for (let i = 0; i < runs; i++) fn(i);
  return (performance.now() - start) / runs;
}

describe('performance', () => {
  it('re-applies an object with 50 list-map items, sharing it with an updater, in about half a millisecond', (t) => {
    const fm = createFieldManager({ schema: widgetSchema, apiVersion: WIDGET_API_VERSION, kind: 'Widget' });
    const created = fm.apply(undefined, widget({ ports: ports(50, 'a'), replicas: 1 }) as ApiObject, 'a', false);
    const live = fm.update(
      { ...created, metadata: { ...created.metadata, uid: 'u' } },
      {
        ...created,
        metadata: { ...created.metadata, uid: 'u' },
        spec: { ...(created.spec as object), replicas: 2 },
      } as ApiObject,
      'ctl',
    );
    const applyMs = meanMs(200, (i) => {
      const out = fm.apply(live, widget({ ports: ports(50, String(i)), replicas: 2 }) as ApiObject, 'a', false);
      assert.equal((out.spec as { ports: unknown[] }).ports.length, 50);
    });
    const updateMs = meanMs(200, (i) => {
      fm.update(live, { ...live, spec: { ...(live.spec as object), replicas: i } } as ApiObject, 'ctl');
    });
    t.diagnostic(`apply ${applyMs.toFixed(3)} ms, update ${updateMs.toFixed(3)} ms`);
    // Generous bounds (the machine runs other tests concurrently); they catch quadratic blow-ups.
    assert.ok(applyMs < 5, `apply took ${applyMs} ms`);
    assert.ok(updateMs < 5, `update took ${updateMs} ms`);
  });
});
