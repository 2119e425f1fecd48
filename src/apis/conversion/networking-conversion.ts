/**
 * Ingress from extensions/v1beta1 and networking.<domain>/v1beta1 into networking.<domain>/v1:
 * `spec.backend` becomes `spec.defaultBackend`; a backend's `serviceName` becomes `service.name`
 * and its `servicePort` `service.port.number` (an integer) or `service.port.name` (a string);
 * a path without `pathType` gets `ImplementationSpecific`, as the old defaulting set it.
 * IngressClass (networking v1beta1) and NetworkPolicy (extensions/v1beta1) have v1's shape.
 */
import type { ApiDomain } from '../api-domain.js';
import type { ApiObject } from '../object.js';
import type { ConvertFn, KindFamily } from './conversion-types.js';
import { isSet, type Obj, obj, omit, withSpec } from './json-helpers.js';

function backendToV1(b: unknown): unknown {
  if (!isSet(b)) return b;
  const old = obj(b);
  const out = omit(old, 'serviceName', 'servicePort');
  if (isSet(old.serviceName) || isSet(old.servicePort)) {
    const port = old.servicePort;
    const service: Obj = { name: old.serviceName ?? '' };
    if (typeof port === 'number') service.port = { number: port };
    else if (typeof port === 'string' && port !== '') service.port = { name: port };
    return { service, ...out };
  }
  return out;
}

function ruleToV1(rule: unknown): unknown {
  const r = obj(rule);
  if (!isSet(r.http)) return rule;
  const http = obj(r.http);
  const paths = Array.isArray(http.paths)
    ? http.paths.map((p) => {
        const path = { ...obj(p) };
        if (Object.hasOwn(path, 'backend')) path.backend = backendToV1(path.backend);
        if (!isSet(path.pathType)) path.pathType = 'ImplementationSpecific';
        return path;
      })
    : http.paths;
  return { ...r, http: { ...http, paths } };
}

function ingressToV1(apiVersion: string): ConvertFn {
  return (o: ApiObject) => {
    const out = withSpec(o, (spec) => {
      const next: Obj = {};
      for (const [k, v] of Object.entries(spec)) {
        if (k === 'backend') next.defaultBackend = backendToV1(v);
        else if (k === 'rules' && Array.isArray(v)) next.rules = v.map(ruleToV1);
        else next[k] = v;
      }
      return next;
    });
    out.apiVersion = apiVersion;
    return out;
  };
}

function sameShape(apiVersion: string): ConvertFn {
  return (o) => ({ ...o, apiVersion });
}

/** Ingress, IngressClass and NetworkPolicy of networking.<domain>/v1 and their old versions. */
export function networkingFamilies(domain: ApiDomain): KindFamily[] {
  const group = domain.group('networking');
  const v1 = `${group}/v1`;
  return [
    {
      kind: 'Ingress',
      internal: 'networking.Ingress',
      served: [{ group, version: 'v1' }],
      removed: [
        { group: 'extensions', version: 'v1beta1', toHub: ingressToV1(v1) },
        { group, version: 'v1beta1', toHub: ingressToV1(v1) },
      ],
    },
    {
      kind: 'IngressClass',
      internal: 'networking.IngressClass',
      served: [{ group, version: 'v1' }],
      removed: [{ group, version: 'v1beta1', toHub: sameShape(v1) }],
    },
    {
      kind: 'NetworkPolicy',
      internal: 'networking.NetworkPolicy',
      served: [{ group, version: 'v1' }],
      removed: [{ group: 'extensions', version: 'v1beta1', toHub: sameShape(v1) }],
    },
  ];
}
