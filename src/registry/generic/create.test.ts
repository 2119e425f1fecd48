import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import { registryFixture } from '../resource-set/testing/registry-fixture.js';

const pod = (name: string): ApiObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns' },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources: { limits: { cpu: '0.5' } } }] },
  }) as ApiObject;

describe('createObject and its input', () => {
  it('only reads an input the caller keeps: the created object is a defaulted copy', async () => {
    const f = await registryFixture();
    await f.createNamespace('ns');
    const input = pod('kept');
    const before = structuredClone(input);
    const created = await f.registry('pods').create(f.ctx('ns'), input, { dryRun: false, fieldManager: 'test' });
    assert.deepEqual(input, before);
    assert.notEqual(created.spec, input.spec);
    const spec = created.spec as { dnsPolicy?: string; containers: { resources: unknown }[] };
    assert.equal(spec.dnsPolicy, 'ClusterFirst');
    assert.deepEqual(spec.containers[0]!.resources, { limits: { cpu: '500m' }, requests: { cpu: '500m' } });
  });

  it('keeps an input given away, defaulted in place, and creates the same object as from a copy', async () => {
    const f = await registryFixture();
    await f.createNamespace('ns');
    const options = { dryRun: false, fieldManager: 'test' };
    const copied = await f.registry('pods').create(f.ctx('ns'), pod('a'), options);
    const input = pod('b');
    const owned = await f.registry('pods').create(f.ctx('ns'), input, { ...options, inputIsOwned: true });
    // Taken as it is: what the object holds is the input's (the field manager makes a new top).
    assert.equal(owned.spec, input.spec);
    const comparable = (o: ApiObject) => {
      const { uid: _u, name: _n, resourceVersion: _r, creationTimestamp: _c, managedFields, ...meta } = o.metadata;
      const times = (managedFields ?? []).map(({ time: _t, ...entry }) => entry);
      return { ...o, metadata: { ...meta, managedFields: times } };
    };
    assert.deepEqual(comparable(owned), comparable(copied));
  });
});
