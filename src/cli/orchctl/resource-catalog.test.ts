import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CatalogResource, findResource, kindName, resolveResource } from './resource-catalog.js';

function res(
  p: Partial<CatalogResource> & Pick<CatalogResource, 'group' | 'version' | 'resource' | 'kind'>,
): CatalogResource {
  return {
    singular: p.resource.replace(/s$/, ''),
    shortNames: [],
    namespaced: true,
    verbs: [],
    categories: [],
    preferred: true,
    ...p,
  };
}

const CATALOG: CatalogResource[] = [
  res({ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', shortNames: ['cm'] }),
  res({ group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', shortNames: ['deploy'] }),
  res({
    group: 'autoscaling',
    version: 'v2',
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    shortNames: ['hpa'],
  }),
  res({
    group: 'autoscaling',
    version: 'v1',
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    shortNames: ['hpa'],
    preferred: false,
  }),
  res({ group: 'rbac.authorization.example', version: 'v1', resource: 'roles', kind: 'Role', namespaced: true }),
];

describe('findResource', () => {
  const cases: { arg: string; want?: string }[] = [
    { arg: 'configmaps', want: '/v1/configmaps' },
    { arg: 'configmap', want: '/v1/configmaps' },
    { arg: 'cm', want: '/v1/configmaps' },
    { arg: 'ConfigMap', want: '/v1/configmaps' },
    { arg: 'deploy', want: 'apps/v1/deployments' },
    { arg: 'deployments.apps', want: 'apps/v1/deployments' },
    { arg: 'Deployment.apps', want: 'apps/v1/deployments' },
    { arg: 'deployments.v1.apps', want: 'apps/v1/deployments' },
    { arg: 'hpa', want: 'autoscaling/v2/horizontalpodautoscalers' },
    { arg: 'hpa.v1.autoscaling', want: 'autoscaling/v1/horizontalpodautoscalers' },
    { arg: 'roles.rbac.authorization.example', want: 'rbac.authorization.example/v1/roles' },
    { arg: 'roles.v1.rbac.authorization.example', want: 'rbac.authorization.example/v1/roles' },
    { arg: 'deployments.extensions' },
    { arg: 'widgets' },
  ];
  for (const c of cases) {
    it(c.arg, () => {
      const r = findResource(CATALOG, c.arg);
      assert.equal(r ? `${r.group}/${r.version}/${r.resource}` : undefined, c.want);
    });
  }

  it('resolveResource names the unknown type as kubectl does', () => {
    assert.throws(() => resolveResource(CATALOG, 'widgets'), {
      message: 'the server doesn\'t have a resource type "widgets"',
    });
  });

  it('kindName', () => {
    assert.equal(kindName('ConfigMap', ''), 'configmap');
    assert.equal(kindName('Deployment', 'apps'), 'deployment.apps');
  });
});
