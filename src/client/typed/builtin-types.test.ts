import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { API_DOMAIN_NAMES, apiDomain } from '../../apis/api-domain.js';
import { builtinResources } from '../../apis/builtin.js';
import { BUILTIN_RESOURCE_TYPES, ConfigMaps, Deployments, Leases, Namespaces } from './builtin-types.js';
import { groupOf } from './resource-type.js';

describe('built-in resource types', () => {
  for (const name of API_DOMAIN_NAMES) {
    it(`each names a resource the server serves under ${name}, with its kind and scope`, () => {
      const domain = apiDomain(name);
      const served = new Map(
        builtinResources({ domain }).map((d) => [`${d.group}/${d.version}/${d.resource}`, d] as const),
      );
      const wrong = BUILTIN_RESOURCE_TYPES.flatMap((t) => {
        const d = served.get(`${groupOf(t, domain)}/${t.version}/${t.resource}`);
        if (!d) return [`${t.resource}: not served`];
        return d.kind === t.kind && d.namespaced === t.namespaced ? [] : [`${t.resource}: ${d.kind} ${d.namespaced}`];
      });
      assert.deepEqual(wrong, []);
    });
  }

  it('names each resource once', () => {
    const keys = BUILTIN_RESOURCE_TYPES.map((t) => `${t.group}/${t.version}/${t.resource}`);
    assert.equal(new Set(keys).size, keys.length);
    assert.ok(keys.length >= 40);
  });

  it('completes groups with the domain only where kube names them after it', () => {
    const kube = apiDomain('k8s.io');
    assert.deepEqual(
      [ConfigMaps, Namespaces, Deployments, Leases].map((t) => groupOf(t, kube)),
      ['', '', 'apps', 'coordination.k8s.io'],
    );
  });
});
