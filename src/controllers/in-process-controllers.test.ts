import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ignoredResources } from './garbage-collector/garbage-collector.js';
import { inProcessControllers } from './index.js';

describe('the in-process controllers as descriptors', () => {
  it("carry kube-controller-manager v1.32's names, aliases, service accounts and configuration members", () => {
    assert.deepEqual(
      inProcessControllers().map((d) => [d.name, d.aliases, d.serviceAccount, d.configMember, d.enabledByDefault]),
      [
        [
          'garbage-collector-controller',
          ['garbagecollector'],
          'generic-garbage-collector',
          'GarbageCollectorController',
          true,
        ],
        ['namespace-controller', ['namespace'], 'namespace-controller', 'NamespaceController', true],
        ['serviceaccount-controller', ['serviceaccount'], 'service-account-controller', undefined, true],
        [
          'clusterrole-aggregation-controller',
          ['clusterrole-aggregation'],
          'clusterrole-aggregation-controller',
          undefined,
          true,
        ],
      ],
    );
  });
});

describe('GCIgnoredResources', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ["unset: kube's default, core events", {}, ['/events']],
    ['empty: nothing ignored', { GCIgnoredResources: [] }, []],
    [
      'as given (Group/Resource, lower-case accepted)',
      { GCIgnoredResources: [{ Group: 'apps', Resource: 'replicasets' }, { resource: 'pods' }] },
      ['apps/replicasets', '/pods'],
    ],
    ['entries without a resource are skipped', { GCIgnoredResources: [{ Group: 'x' }, null, 'pods'] }, []],
  ];
  for (const [what, config, want] of cases) {
    it(what, () => assert.deepEqual([...ignoredResources(config)], want));
  }
});
