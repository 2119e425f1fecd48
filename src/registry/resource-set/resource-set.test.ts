import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceDefinition } from '../../apis/resource-definition.js';
import type { BuiltResource } from './resource-factory.js';
import { ResourceSet } from './resource-set.js';
import type { ServedResource } from './served-resource.js';

/** A factory whose resources serve nothing: lookups are all these tests read. */
function fakeFactory(def: ResourceDefinition): BuiltResource {
  const served = { def } as unknown as ServedResource;
  return { served, start: async () => {}, terminateWatchers: () => {} };
}

const def = (group: string, version: string, resource: string) =>
  ({ group, version, resource }) as unknown as ResourceDefinition;

describe('ResourceSet lookup', () => {
  it('finds what is served, again after other lookups, and nothing once removed', async () => {
    const set = new ResourceSet(fakeFactory, new AbortController().signal);
    const widgets = await set.add(def('test.orch.io', 'v1', 'widgets'));
    const gadgets = await set.add(def('test.orch.io', 'v1', 'gadgets'));
    const steps: { look: [string, string, string]; want: ServedResource | undefined }[] = [
      { look: ['test.orch.io', 'v1', 'widgets'], want: widgets },
      { look: ['test.orch.io', 'v1', 'widgets'], want: widgets },
      { look: ['test.orch.io', 'v2', 'widgets'], want: undefined },
      { look: ['other.orch.io', 'v1', 'widgets'], want: undefined },
      { look: ['test.orch.io', 'v1', 'gadgets'], want: gadgets },
      { look: ['test.orch.io', 'v1', 'widgets'], want: widgets },
    ];
    for (const [i, st] of steps.entries()) assert.equal(set.lookup(...st.look), st.want, `step ${i}`);
    assert.equal(set.remove('test.orch.io', 'v1', 'widgets'), true);
    assert.equal(set.lookup('test.orch.io', 'v1', 'widgets'), undefined, 'removed right after being found');
    const again = await set.add(def('test.orch.io', 'v1', 'widgets'));
    assert.notEqual(again, widgets);
    assert.equal(set.lookup('test.orch.io', 'v1', 'widgets'), again, 'added again: the new one');
  });
});
