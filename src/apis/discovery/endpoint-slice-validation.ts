import { parseIP } from '../core/ip-address.js';
import { validateNonSpecialIP } from '../core/non-special-ip.js';
import { PORT_PROTOCOLS, validateDNSLabel } from '../core/service-validation.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../meta/name-validation.js';
import { validateImmutableField, validateLabels } from '../meta/object-meta-validation.js';
import type { EndpointSlice, EndpointSliceEndpoint, EndpointSlicePort } from './endpoint-slice-types.js';

export const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'] as const;
const MAX_TOPOLOGY_LABELS = 16;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_ENDPOINTS = 1000;
const MAX_ZONE_HINTS = 8;

/** kube's `IsFullyQualifiedDomainName`. */
export function validateFQDN(path: string, value: string): FieldError[] {
  if (value === '') return [fieldErrors.required(path)];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomain = isDNS1123Subdomain(name);
  if (subdomain.length > 0) return [fieldErrors.invalid(path, name, subdomain.join(','))];
  const labels = name.split('.');
  if (labels.length < 2)
    return [fieldErrors.invalid(path, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const errs = isDNS1123Label(label);
    if (errs.length > 0) return [fieldErrors.invalid(path, label, errs.join(','))];
  }
  return [];
}

function validateAddress(addressType: string, path: string, address: string): FieldError[] {
  switch (addressType) {
    case 'IPv4': {
      const ip = parseIP(address);
      const errs = ip?.is4 ? [] : [fieldErrors.invalid(path, address, 'must be a valid IPv4 address')];
      return [...errs, ...validateNonSpecialIP(address, path)];
    }
    case 'IPv6': {
      const ip = parseIP(address);
      const errs = ip && !ip.is4 ? [] : [fieldErrors.invalid(path, address, 'must be a valid IPv6 address')];
      return [...errs, ...validateNonSpecialIP(address, path)];
    }
    case 'FQDN':
      return validateFQDN(path, address);
  }
  // Unknown address types are reported once, on `addressType`.
  return [];
}

function validateEndpoint(ep: EndpointSliceEndpoint, addressType: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const addresses = ep.addresses ?? [];
  const addressPath = `${path}.addresses`;
  if (addresses.length === 0) errs.push(fieldErrors.required(addressPath, 'must contain at least 1 address'));
  else if (addresses.length > MAX_ADDRESSES)
    errs.push(fieldErrors.tooMany(addressPath, addresses.length, MAX_ADDRESSES));
  addresses.forEach((a, i) => {
    errs.push(...validateAddress(addressType, `${addressPath}[${i}]`, a));
  });
  if (ep.nodeName !== undefined) {
    for (const msg of isDNS1123Subdomain(ep.nodeName))
      errs.push(fieldErrors.invalid(`${path}.nodeName`, ep.nodeName, msg));
  }
  const topology = ep.deprecatedTopology ?? {};
  const topologyPath = `${path}.deprecatedTopology`;
  const topologySize = Object.keys(topology).length;
  if (topologySize > MAX_TOPOLOGY_LABELS)
    errs.push(fieldErrors.tooMany(topologyPath, topologySize, MAX_TOPOLOGY_LABELS));
  errs.push(...validateLabels(topology, topologyPath));
  if (ep.hostname !== undefined) errs.push(...validateDNSLabel(`${path}.hostname`, ep.hostname));
  if (ep.hints !== undefined) {
    const zones = ep.hints.forZones ?? [];
    const zonesPath = `${path}.hints.forZones`;
    if (zones.length > MAX_ZONE_HINTS) errs.push(fieldErrors.tooMany(zonesPath, zones.length, MAX_ZONE_HINTS));
    else {
      const seen = new Set<string>();
      zones.forEach((zone, i) => {
        const zonePath = `${zonesPath}[${i}].name`;
        const name = zone.name ?? '';
        if (seen.has(name)) errs.push(fieldErrors.duplicate(zonePath, name));
        else seen.add(name);
        for (const msg of isValidLabelValue(name)) errs.push(fieldErrors.invalid(zonePath, name, msg));
      });
    }
  }
  return errs;
}

function validatePorts(ports: readonly EndpointSlicePort[]): FieldError[] {
  if (ports.length > MAX_PORTS) return [fieldErrors.tooMany('ports', ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const path = `ports[${i}]`;
    const name = port.name ?? '';
    if (name !== '') errs.push(...validateDNSLabel(`${path}.name`, name));
    if (names.has(name)) errs.push(fieldErrors.duplicate(`${path}.name`, name));
    else names.add(name);
    if (port.protocol === undefined) errs.push(fieldErrors.required(`${path}.protocol`));
    else if (!(PORT_PROTOCOLS as readonly string[]).includes(port.protocol)) {
      errs.push(fieldErrors.notSupported(`${path}.protocol`, port.protocol, PORT_PROTOCOLS));
    }
    if (port.appProtocol !== undefined) {
      for (const msg of isQualifiedName(port.appProtocol))
        errs.push(fieldErrors.invalid(`${path}.appProtocol`, port.appProtocol, msg));
    }
  });
  return errs;
}

/**
 * kube v1.32's `ValidateEndpointSlice` beyond metadata: a known `addressType`; at most 1000
 * endpoints, each with 1–100 addresses of that type (IPv4/IPv6 non-special, FQDN a domain with
 * two or more labels), a DNS-subdomain node name, at most 16 deprecated topology labels, a
 * DNS-label hostname, at most 8 unique zone hints; at most 20000 ports with unique DNS-label
 * names, a known protocol and a qualified-name app protocol.
 */
export function validateEndpointSlice(slice: EndpointSlice): FieldError[] {
  const errs: FieldError[] = [];
  const addressType = slice.addressType ?? '';
  if (addressType === '') errs.push(fieldErrors.required('addressType'));
  else if (!(ADDRESS_TYPES as readonly string[]).includes(addressType)) {
    errs.push(fieldErrors.notSupported('addressType', addressType, ADDRESS_TYPES));
  }
  const endpoints = slice.endpoints ?? [];
  if (endpoints.length > MAX_ENDPOINTS) errs.push(fieldErrors.tooMany('endpoints', endpoints.length, MAX_ENDPOINTS));
  else
    endpoints.forEach((ep, i) => {
      errs.push(...validateEndpoint(ep, addressType, `endpoints[${i}]`));
    });
  errs.push(...validatePorts(slice.ports ?? []));
  return errs;
}

/** kube's `ValidateEndpointSliceUpdate`: `addressType` is immutable, then everything above. */
export function validateEndpointSliceUpdate(slice: EndpointSlice, old: EndpointSlice): FieldError[] {
  return [
    ...validateEndpointSlice(slice),
    ...validateImmutableField(slice.addressType ?? '', old.addressType ?? '', 'addressType'),
  ];
}
