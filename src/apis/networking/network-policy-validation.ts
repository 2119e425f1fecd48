import { goQuote } from '../../util/go-strconv.js';
import { networkContains, parseCIDR } from '../core/ip-address.js';
import { isValidPortName, validatePortNumber } from '../core/service-validation.js';
import { type FieldError, fieldErrors, invalidShown } from '../meta/field-error.js';
import { validateLabelSelector } from '../rbac/label-selector-validation.js';
import type { NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort } from './networking-types.js';

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];

function validatePort(port: NetworkPolicyPort, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (port.protocol !== undefined && !PROTOCOLS.includes(port.protocol)) {
    errs.push(fieldErrors.notSupported(`${path}.protocol`, port.protocol, PROTOCOLS));
  }
  if (port.port !== undefined) {
    if (typeof port.port === 'number') {
      errs.push(...validatePortNumber(`${path}.port`, port.port));
      if (port.endPort !== undefined) {
        if (port.endPort < port.port) {
          errs.push(fieldErrors.invalid(`${path}.endPort`, port.endPort, 'must be greater than or equal to `port`'));
        }
        errs.push(...validatePortNumber(`${path}.endPort`, port.endPort));
      }
    } else {
      if (port.endPort !== undefined) {
        errs.push(
          fieldErrors.invalid(`${path}.endPort`, port.endPort, 'may not be specified when `port` is non-numeric'),
        );
      }
      for (const m of isValidPortName(port.port)) errs.push(fieldErrors.invalid(`${path}.port`, port.port, m));
    }
  } else if (port.endPort !== undefined) {
    errs.push(
      fieldErrors.invalid(`${path}.endPort`, port.endPort, 'may not be specified when `port` is not specified'),
    );
  }
  return errs;
}

function validateIPBlock(block: { cidr?: string; except?: string[] }, path: string): FieldError[] {
  const cidr = block.cidr ?? '';
  if (cidr === '') return [fieldErrors.required(`${path}.cidr`)];
  const net = parseCIDR(cidr);
  if (!net) return [fieldErrors.invalid(`${path}.cidr`, cidr, 'not a valid CIDR')];
  const errs: FieldError[] = [];
  for (const [i, exceptText] of (block.except ?? []).entries()) {
    const exceptPath = `${path}.except[${i}]`;
    const except = parseCIDR(exceptText);
    if (!except) {
      errs.push(fieldErrors.invalid(exceptPath, exceptText, 'not a valid CIDR'));
      return errs;
    }
    if (!networkContains(net, except.base) || net.prefixLength >= except.prefixLength) {
      errs.push(fieldErrors.invalid(exceptPath, exceptText, 'must be a strict subset of `cidr`'));
    }
  }
  return errs;
}

function validatePeer(peer: NetworkPolicyPeer, path: string, allowInvalidLabelValueInSelector: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const opts = { allowInvalidLabelValueInSelector };
  let peers = 0;
  if (peer.podSelector !== undefined) {
    peers++;
    errs.push(...validateLabelSelector(peer.podSelector, `${path}.podSelector`, opts));
  }
  if (peer.namespaceSelector !== undefined) {
    peers++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, `${path}.namespaceSelector`, opts));
  }
  if (peer.ipBlock !== undefined) {
    peers++;
    errs.push(...validateIPBlock(peer.ipBlock, `${path}.ipBlock`));
  }
  if (peers === 0) errs.push(fieldErrors.required(path, 'must specify a peer'));
  else if (peers > 1 && peer.ipBlock !== undefined) {
    errs.push(fieldErrors.forbidden(path, 'may not specify both ipBlock and another peer'));
  }
  return errs;
}

/**
 * kube v1.32's `ValidateNetworkPolicySpec`: the pod selector; each rule's ports (known protocol,
 * port number or name, `endPort` only after a numeric port) and peers (exactly one kind, or pod
 * and namespace selectors together; IP blocks with valid CIDRs and strictly narrower exceptions);
 * at most two known policy types. With `allowInvalidLabelValueInSelector` (an update of a policy
 * whose stored pod selector already had such values), selector values are not checked.
 */
export function validateNetworkPolicy(np: NetworkPolicy, allowInvalidLabelValueInSelector = false): FieldError[] {
  const spec = np.spec ?? {};
  const errs = validateLabelSelector(spec.podSelector ?? {}, 'spec.podSelector', { allowInvalidLabelValueInSelector });
  (spec.ingress ?? []).forEach((rule, i) => {
    const path = `spec.ingress[${i}]`;
    (rule.ports ?? []).forEach((p, j) => {
      errs.push(...validatePort(p, `${path}.ports[${j}]`));
    });
    (rule.from ?? []).forEach((p, j) => {
      errs.push(...validatePeer(p, `${path}.from[${j}]`, allowInvalidLabelValueInSelector));
    });
  });
  (spec.egress ?? []).forEach((rule, i) => {
    const path = `spec.egress[${i}]`;
    (rule.ports ?? []).forEach((p, j) => {
      errs.push(...validatePort(p, `${path}.ports[${j}]`));
    });
    (rule.to ?? []).forEach((p, j) => {
      errs.push(...validatePeer(p, `${path}.to[${j}]`, allowInvalidLabelValueInSelector));
    });
  });
  const types = spec.policyTypes ?? [];
  if (types.length > POLICY_TYPES.length) {
    // kube prints the Go slice with `%#v`.
    const goTypes = `[]networking.PolicyType{${types.map(goQuote).join(', ')}}`;
    errs.push(invalidShown('spec.policyTypes', goTypes, 'may not specify more than two policyTypes'));
    return errs;
  }
  types.forEach((t, i) => {
    if (!POLICY_TYPES.includes(t)) errs.push(fieldErrors.notSupported(`spec.policyTypes[${i}]`, t, POLICY_TYPES));
  });
  return errs;
}

/** kube's `ValidateNetworkPolicyUpdate`: the spec rules, ratcheting invalid selector values. */
export function validateNetworkPolicyUpdate(np: NetworkPolicy, old: NetworkPolicy): FieldError[] {
  const oldSelector = old.spec?.podSelector;
  const allow = oldSelector !== undefined && validateLabelSelector(oldSelector, 'spec.podSelector').length > 0;
  return validateNetworkPolicy(np, allow);
}
