import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Subdomain, isQualifiedName } from '../meta/name-validation.js';
import { validateNonSpecialIP } from './non-special-ip.js';
import { validateIP } from './service-ip-validation.js';
import type { EndpointAddress, EndpointPort, Endpoints } from './service-types.js';
import { PORT_PROTOCOLS, validateDNSLabel, validatePortNumber } from './service-validation.js';

function validateAddress(address: EndpointAddress, path: string): FieldError[] {
  const ip = address.ip ?? '';
  const errs = validateIP(`${path}.ip`, ip);
  if (address.hostname) errs.push(...validateDNSLabel(`${path}.hostname`, address.hostname));
  if (address.nodeName !== undefined) {
    for (const msg of isDNS1123Subdomain(address.nodeName)) {
      errs.push(fieldErrors.invalid(`${path}.nodeName`, address.nodeName, msg));
    }
  }
  errs.push(...validateNonSpecialIP(ip, `${path}.ip`));
  return errs;
}

function validatePort(port: EndpointPort, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = port.name ?? '';
  if (requireName && name === '') errs.push(fieldErrors.required(`${path}.name`));
  else if (name !== '') errs.push(...validateDNSLabel(`${path}.name`, name));
  errs.push(...validatePortNumber(`${path}.port`, port.port));
  if (!port.protocol) errs.push(fieldErrors.required(`${path}.protocol`));
  else if (!(PORT_PROTOCOLS as readonly string[]).includes(port.protocol)) {
    errs.push(fieldErrors.notSupported(`${path}.protocol`, port.protocol, PORT_PROTOCOLS));
  }
  if (port.appProtocol !== undefined) {
    for (const msg of isQualifiedName(port.appProtocol)) {
      errs.push(fieldErrors.invalid(`${path}.appProtocol`, port.appProtocol, msg));
    }
  }
  return errs;
}

/**
 * kube v1.32's `ValidateEndpoints` beyond metadata: every subset has addresses (ready or not);
 * each address is a valid, non-special IP with an optional DNS-label hostname and DNS-subdomain
 * node name; ports are in range with a known protocol, named (DNS labels) when more than one.
 */
export function validateEndpoints(ep: Endpoints): FieldError[] {
  const errs: FieldError[] = [];
  (ep.subsets ?? []).forEach((subset, i) => {
    const path = `subsets[${i}]`;
    const ready = subset.addresses ?? [];
    const notReady = subset.notReadyAddresses ?? [];
    if (ready.length === 0 && notReady.length === 0) {
      errs.push(fieldErrors.required(path, 'must specify `addresses` or `notReadyAddresses`'));
    }
    ready.forEach((a, j) => {
      errs.push(...validateAddress(a, `${path}.addresses[${j}]`));
    });
    notReady.forEach((a, j) => {
      errs.push(...validateAddress(a, `${path}.notReadyAddresses[${j}]`));
    });
    const ports = subset.ports ?? [];
    ports.forEach((p, j) => {
      errs.push(...validatePort(p, ports.length > 1, `${path}.ports[${j}]`));
    });
  });
  return errs;
}
