import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../apis/object.js';
import { createFieldManager } from './field-manager.js';
import { WIDGET_API_VERSION, widget, widgetSchema } from './testing/widget-schema.js';

function ports(n: number, suffix: string) {
  return Array.from({ length: n }, (_, i) => ({ containerPort: 1000 + i, protocol: 'TCP', name: `p${i}-${suffix}` }));
}

// Timing lives in `npm run bench -- apply`; this keeps the large-object path correct.
describe('large list-map objects', () => {
  it('re-applies an object with 50 list-map items many times, sharing it with an updater', () => {
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
    for (let i = 0; i < 50; i++) {
      const out = fm.apply(live, widget({ ports: ports(50, String(i)), replicas: 2 }) as ApiObject, 'a', false);
      const names = (out.spec as { ports: { name: string }[] }).ports.map((p) => p.name);
      assert.equal(names.length, 50);
      assert.equal(names[0], `p0-${i}`);
      const updated = fm.update(live, { ...live, spec: { ...(live.spec as object), replicas: i } } as ApiObject, 'ctl');
      assert.equal((updated.spec as { replicas: number }).replicas, i);
    }
  });
});
