import type { ApiObject } from '../object.js';
import type { LabelSelectorObject } from '../selectors/label-selector-object.js';

/** networking/v1 kinds as the rules of this folder read them (schema-valid JSON). */

export interface IngressServiceBackend {
  name?: string;
  port?: { name?: string; number?: number };
}

export interface IngressBackend {
  service?: IngressServiceBackend;
  resource?: { apiGroup?: string; kind?: string; name?: string };
}

export interface HTTPIngressPath {
  path?: string;
  pathType?: string;
  backend?: IngressBackend;
}

export interface IngressRule {
  host?: string;
  http?: { paths?: HTTPIngressPath[] };
}

export interface IngressSpec {
  ingressClassName?: string;
  defaultBackend?: IngressBackend;
  tls?: { hosts?: string[]; secretName?: string }[];
  rules?: IngressRule[];
}

export interface IngressLoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ports?: { port?: number; protocol?: string; error?: string }[];
}

export interface Ingress extends ApiObject {
  spec?: IngressSpec;
  status?: { loadBalancer?: { ingress?: IngressLoadBalancerIngress[] } };
}

export interface IngressClassParameters {
  apiGroup?: string;
  kind?: string;
  name?: string;
  scope?: string;
  namespace?: string;
}

export interface IngressClass extends ApiObject {
  spec?: { controller?: string; parameters?: IngressClassParameters };
}

export interface NetworkPolicyPort {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}

export interface NetworkPolicyPeer {
  podSelector?: LabelSelectorObject;
  namespaceSelector?: LabelSelectorObject;
  ipBlock?: { cidr?: string; except?: string[] };
}

export interface NetworkPolicySpec {
  podSelector?: LabelSelectorObject;
  ingress?: { ports?: NetworkPolicyPort[]; from?: NetworkPolicyPeer[] }[];
  egress?: { ports?: NetworkPolicyPort[]; to?: NetworkPolicyPeer[] }[];
  policyTypes?: string[];
}

export interface NetworkPolicy extends ApiObject {
  spec?: NetworkPolicySpec;
}
