import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../object.js';
import { selectableFieldLabels } from './selectable-fields.js';

describe('selectable fields as field labels', () => {
  const obj = {
    metadata: { name: 'w', namespace: 'ns' },
    spec: { color: 'red', count: 3, on: false },
  } as unknown as ApiObject;
  it('supports the declared fields and name/namespace by scope', () => {
    const namespaced = selectableFieldLabels(true, ['.spec.color', '.spec.count', '.spec.on', '.spec.none']);
    assert.deepEqual(namespaced.supported, [
      'metadata.name',
      'metadata.namespace',
      'spec.color',
      'spec.count',
      'spec.on',
      'spec.none',
    ]);
    assert.deepEqual(namespaced.fieldSet(obj), {
      'metadata.name': 'w',
      'metadata.namespace': 'ns',
      'spec.color': 'red',
      'spec.count': '3',
      'spec.on': 'false',
      'spec.none': '',
    });
    const cluster = selectableFieldLabels(false, []);
    assert.deepEqual(cluster.supported, ['metadata.name']);
    assert.equal(cluster.unsupportedMessage('metadata.namespace'), 'field label not supported: metadata.namespace');
  });
});
