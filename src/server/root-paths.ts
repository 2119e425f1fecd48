import type { ApiRequest, BodyResponse } from '../endpoints/handler.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import { HEALTH_GROUPS, type HealthRegistry } from './health/health-registry.js';

/**
 * The paths kube-apiserver lists at `/`: API discovery roots and every served group and
 * group-version, the health endpoints and each of their checks, the OpenAPI documents
 * (`/apis/` and `/openapi/v3/` are the prefixes kube registers), `/metrics`, `/version` and, when served, the
 * service-account issuer discovery documents. Sorted, no
 * duplicates; read from the resource set and health checks at the time of the request.
 */
export function listedPaths(resources: ResourceSet, health: HealthRegistry, issuerDiscovery = false): string[] {
  const paths = new Set<string>([
    '/apis',
    '/apis/',
    '/metrics',
    '/openapi/v2',
    '/openapi/v3',
    '/openapi/v3/',
    '/version',
  ]);
  if (issuerDiscovery) {
    paths.add('/.well-known/openid-configuration');
    paths.add('/openid/v1/jwks');
  }
  for (const group of resources.groups()) {
    const root = group === '' ? '/api' : `/apis/${group}`;
    paths.add(root);
    for (const version of resources.versionsOf(group)) paths.add(`${root}/${version}`);
  }
  for (const group of HEALTH_GROUPS) {
    paths.add(`/${group}`);
    for (const check of health.checkNames(group)) paths.add(`/${group}/${check}`);
  }
  return [...paths].sort();
}

/**
 * `/` and `/index.html` as kube's index handler answers them, whatever the method:
 * `{"paths": [...]}` indented by two spaces; undefined for any other path.
 */
export function rootPathsHandler(
  resources: ResourceSet,
  health: HealthRegistry,
  issuerDiscovery = false,
): (req: ApiRequest) => BodyResponse | undefined {
  return (req) => {
    if (req.path !== '/' && req.path !== '/index.html') return undefined;
    const body = JSON.stringify({ paths: listedPaths(resources, health, issuerDiscovery) }, null, 2);
    return { kind: 'body', status: 200, headers: { 'content-type': 'application/json' }, body };
  };
}
