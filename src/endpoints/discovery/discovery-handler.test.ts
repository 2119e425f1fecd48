import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wantedAggregatedVersion } from './discovery-handler.js';

const v2 = 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList';
const v2beta1 = 'application/json;g=apidiscovery.orch.io;v=v2beta1;as=APIGroupDiscoveryList';

describe('wantedAggregatedVersion', () => {
  const cases: [name: string, accept: string | undefined, expected: string | undefined][] = [
    ['no Accept', undefined, undefined],
    ['plain JSON', 'application/json', undefined],
    ['what kubectl 1.32 sends', `${v2},${v2beta1},application/json`, 'v2'],
    ['v2beta1 only', v2beta1, 'v2beta1'],
    ['spaces around parameters', 'application/json ; g=apidiscovery.orch.io ; v=v2 ; as=APIGroupDiscoveryList', 'v2'],
    ['a plain JSON clause first (skipped, as kube does)', `application/json, ${v2}`, 'v2'],
    ['q-values before header order', `${v2};q=0.5, ${v2beta1}`, 'v2beta1'],
    ['the full wildcard with the conversion', '*/*;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList', 'v2'],
    ['the k8s.io group', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', undefined],
    ['an unknown version', 'application/json;g=apidiscovery.orch.io;v=v3;as=APIGroupDiscoveryList', undefined],
    ['another kind', 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscovery', undefined],
    ['YAML', 'application/yaml;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList', undefined],
  ];
  for (const [name, accept, expected] of cases) {
    it(`${name} → ${expected}`, () => assert.equal(wantedAggregatedVersion(accept, 'apidiscovery.orch.io'), expected));
  }
});
