import { isDeepStrictEqual } from 'node:util';
import { arrayOf } from '../core/json-shape.js';
import { isDNS1123Subdomain } from '../meta/name-validation.js';
import { isPlainObject } from '../schema/json-value.js';
import type { EndpointSlice } from './endpoint-slice-types.js';

/**
 * kube v1.32's `SetDefaults_EndpointPort` (discovery/v1): ports have a `name` (empty) and a
 * `protocol` (TCP). Mutates `slice`; fields of the wrong type are left for validation.
 */
export function defaultEndpointSlice(slice: EndpointSlice): void {
  for (const port of arrayOf(slice.ports)) {
    if (!isPlainObject(port)) continue;
    if (port.name === undefined) port.name = '';
    if (port.protocol === undefined) port.protocol = 'TCP';
  }
}

/**
 * kube's `dropTopologyOnV1`: `deprecatedTopology` cannot be written through v1. On create it is
 * dropped; on update it is dropped whenever the endpoints change, and an endpoint without a
 * `nodeName` takes the `hostname` topology label as its node name when the stored slice had that
 * node name and it is a valid one. Mutates `slice`.
 */
export function dropDeprecatedTopology(
  slice: EndpointSlice,
  old: EndpointSlice | undefined,
  hostnameLabel: string,
): void {
  if (old && isDeepStrictEqual(old.endpoints ?? null, slice.endpoints ?? null)) return;
  const previousNodeNames = new Set<string>();
  for (const ep of arrayOf(old?.endpoints)) {
    const name =
      isPlainObject(ep) && isPlainObject(ep.deprecatedTopology) ? ep.deprecatedTopology[hostnameLabel] : undefined;
    if (typeof name === 'string') previousNodeNames.add(name);
  }
  for (const ep of arrayOf(slice.endpoints)) {
    if (!isPlainObject(ep)) continue;
    const topology = isPlainObject(ep.deprecatedTopology) ? ep.deprecatedTopology : undefined;
    const nodeName = topology?.[hostnameLabel];
    if (
      ep.nodeName === undefined &&
      typeof nodeName === 'string' &&
      previousNodeNames.has(nodeName) &&
      isDNS1123Subdomain(nodeName).length === 0
    ) {
      ep.nodeName = nodeName;
    }
    delete ep.deprecatedTopology;
  }
}
