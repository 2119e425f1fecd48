import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../apis/builtin.js';
import { buildLastApplied, LAST_APPLIED_ANNOTATION } from './last-applied.js';
import { Scenario } from './testing/scenario.js';

const configMapSchema = builtinResources().find((d) => d.kind === 'ConfigMap')!.schema;

function cm(data: Record<string, string>, annotations?: Record<string, string>) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'x', namespace: 'default', ...(annotations ? { annotations } : {}) },
    data,
  };
}

/** An object created by client-side `kubectl apply`: the annotation holds the applied configuration. */
function clientSideApplied(): Scenario {
  const s = new Scenario({ schema: configMapSchema, apiVersion: 'v1', kind: 'ConfigMap' });
  const applied = cm({ k: 'v', gone: 'g' });
  s.update(
    'kubectl-client-side-apply',
    cm({ k: 'v', gone: 'g' }, { [LAST_APPLIED_ANNOTATION]: buildLastApplied(applied) }),
  );
  return s;
}

describe('moving from client-side to server-side apply (kubectl)', () => {
  it('builds the annotation as Go’s JSON encoder writes it', () => {
    assert.equal(
      buildLastApplied({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { b: '<', a: '1' } }),
      '{"apiVersion":"v1","data":{"a":"1","b":"\\u003c"},"kind":"ConfigMap","metadata":{"name":"x"}}\n',
    );
  });

  it('`kubectl` takes over fields the annotation declared with the live value, without conflict', () => {
    const s = clientSideApplied();
    s.apply('kubectl', cm({ k: 'changed' }));
    assert.deepEqual(s.live!.data, { k: 'changed', gone: 'g' });
    assert.deepEqual(s.owners(), {
      'kubectl/Apply': '{"f:data":{"f:k":{}}}',
      'kubectl-client-side-apply/Update':
        '{"f:data":{".":{},"f:gone":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}',
    });
    assert.equal(
      s.live!.metadata.annotations?.[LAST_APPLIED_ANNOTATION],
      '{"apiVersion":"v1","data":{"k":"changed"},"kind":"ConfigMap","metadata":{"name":"x","namespace":"default"}}\n',
    );
  });

  it('conflicts remain where someone else changed the value since', () => {
    const s = clientSideApplied();
    s.update('editor', (o) => ({ ...o, data: { k: 'edited', gone: 'g' } }));
    const e = s.conflict('kubectl', cm({ k: 'changed' }));
    assert.equal(e.message, 'Apply failed with 1 conflict: conflict with "editor" using v1: .data.k');
  });

  it('only for the `kubectl` manager', () => {
    const s = clientSideApplied();
    const e = s.conflict('other', cm({ k: 'changed' }));
    assert.equal(
      e.message,
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.k',
    );
    s.apply('other', cm({ k: 'v' }));
    assert.equal(
      s.live!.metadata.annotations?.[LAST_APPLIED_ANNOTATION],
      buildLastApplied(cm({ k: 'v', gone: 'g' })),
      'other managers leave the annotation alone',
    );
  });
});
