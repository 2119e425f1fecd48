import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Scenario } from './testing/scenario.js';
import { WIDGET_API_VERSION as V, widget, widgetSchema } from './testing/widget-schema.js';

function scenario(): Scenario {
  return new Scenario({ schema: widgetSchema, apiVersion: V, kind: 'Widget' });
}

/** Integers past 2^53 are `bigint`s: ownership compares them exactly, as kube compares int64s. */
describe('apply: integers past 2^53', () => {
  const A = 9007199254740993n;
  const B = 9007199254740992n;

  it('the same value is shared; one differing only past 2^53 conflicts', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: A }));
    s.apply('b', widget({ replicas: A }));
    assert.deepEqual(s.owners(), {
      'a/Apply': '{"f:spec":{"f:replicas":{}}}',
      'b/Apply': '{"f:spec":{"f:replicas":{}}}',
    });
    const e = s.conflict('c', widget({ replicas: B }));
    assert.equal(
      e.message,
      'Apply failed with 2 conflicts: conflicts with "a":\n- .spec.replicas\nconflicts with "b":\n- .spec.replicas',
    );
    s.apply('c', widget({ replicas: B }), { force: true });
    assert.deepEqual(s.object(), widget({ replicas: B }));
  });

  it('an update to a value differing only past 2^53 takes the field over', () => {
    const s = scenario();
    s.apply('a', widget({ replicas: A }));
    s.update('ctl', (o) => ({ ...o, spec: { replicas: B } }));
    assert.deepEqual(s.owners(), { 'ctl/Update': '{"f:spec":{"f:replicas":{}}}' });
  });

  it('list-map keys past 2^53 identify distinct items', () => {
    const s = scenario();
    s.apply('a', widget({ ports: [{ containerPort: A, name: 'a' }] }));
    s.apply('b', widget({ ports: [{ containerPort: B, name: 'b' }] }));
    assert.deepEqual(
      s.object(),
      widget({
        ports: [
          { containerPort: A, name: 'a' },
          { containerPort: B, name: 'b' },
        ],
      }),
    );
    assert.deepEqual(s.owners(), {
      'a/Apply':
        '{"f:spec":{"f:ports":{"k:{\\"containerPort\\":9007199254740993,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{}}}}}',
      'b/Apply':
        '{"f:spec":{"f:ports":{"k:{\\"containerPort\\":9007199254740992,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{}}}}}',
    });
  });
});
