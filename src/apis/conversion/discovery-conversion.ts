/**
 * EndpointSlice from discovery.<domain>/v1beta1 into v1: each endpoint's `topology` becomes the
 * read-only `deprecatedTopology`, except that the zone key becomes `zone` and the hostname key
 * becomes `nodeName` when the endpoint has none (a hostname equal to `nodeName` is dropped from the
 * map; a different one stays there, as kube keeps it). An empty map is left out.
 */
import type { ApiDomain } from '../api-domain.js';
import type { KindFamily } from './conversion-types.js';
import { isSet, type Obj, obj, omit, retarget } from './json-helpers.js';

function endpointToV1(e: unknown, hostnameKey: string, zoneKey: string): unknown {
  const old = obj(e);
  if (!isSet(old.topology)) return e;
  const topology = { ...obj(old.topology) } as Record<string, unknown>;
  const out: Obj = omit(old, 'topology');
  if (typeof topology[zoneKey] === 'string') {
    if (!isSet(out.zone)) out.zone = topology[zoneKey];
    delete topology[zoneKey];
  }
  if (typeof topology[hostnameKey] === 'string') {
    if (!isSet(out.nodeName)) out.nodeName = topology[hostnameKey];
    if (out.nodeName === topology[hostnameKey]) delete topology[hostnameKey];
  }
  if (Object.keys(topology).length > 0) out.deprecatedTopology = topology;
  return out;
}

/** EndpointSlice in discovery.<domain>/v1 and v1beta1. */
export function discoveryFamilies(domain: ApiDomain): KindFamily[] {
  const group = domain.group('discovery');
  const hostnameKey = domain.key('', 'hostname');
  const zoneKey = domain.key('topology', 'zone');
  return [
    {
      kind: 'EndpointSlice',
      internal: 'discovery.EndpointSlice',
      served: [{ group, version: 'v1' }],
      removed: [
        {
          group,
          version: 'v1beta1',
          toHub: (o) => {
            const out = retarget(o, `${group}/v1`);
            if (Array.isArray(out.endpoints))
              out.endpoints = out.endpoints.map((e) => endpointToV1(e, hostnameKey, zoneKey));
            return out;
          },
        },
      ],
    },
  ];
}
