import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { standardFinalizers, validateObjectMetaUpdate } from '../meta/object-meta-validation.js';
import { schemaStrategy, subresourceStrategy } from '../meta/resource-strategy.js';
import type { Schema } from '../schema/schema.js';
import { validateIngressClass, validateIngressClassUpdate } from './ingress-class-validation.js';
import { validateIngressCreate, validateIngressStatusUpdate, validateIngressUpdate } from './ingress-validation.js';
import { validateNetworkPolicy, validateNetworkPolicyUpdate } from './network-policy-validation.js';
import { ingressClassTableColumns, ingressTableColumns, networkPolicyTableColumns } from './networking-columns.js';
import { defaultIngressClass, defaultNetworkPolicy } from './networking-defaults.js';
import type { Ingress, IngressClass, NetworkPolicy } from './networking-types.js';
import { ingressClassSchema, ingressSchema, networkPolicySchema } from './networking-v1-schemas.js';

interface Names {
  readonly kind: string;
  readonly resource: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly list: string;
}

function definition(
  domain: ApiDomain,
  names: Names,
  schema: Schema,
  rest: Pick<BuiltinResourceDefinition, 'strategy'> & Partial<BuiltinResourceDefinition>,
): BuiltinResourceDefinition {
  return {
    group: domain.group('networking'),
    version: 'v1',
    kind: names.kind,
    listKind: `${names.kind}List`,
    resource: names.resource,
    singular: names.kind.toLowerCase(),
    namespaced: names.namespaced,
    shortNames: names.shortNames,
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: false,
    // Each kind's strategy counts spec changes in `metadata.generation`.
    hasGeneration: true,
    schema,
    listDescription: `A list of ${names.list}.`,
    listItemsDescription: `The ${names.list}.`,
    listMetadataDescription: "The list's metadata: its resource version and continue token.",
    ...rest,
  };
}

/**
 * `ingresses` (kube v1.32): the deprecated class annotation must agree with `ingressClassName` on
 * create; invalid values already stored stay writable; `ingresses/status` changes only the load
 * balancer status.
 */
export function ingressResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(ingressSchema);
  const finalizers = standardFinalizers(domain);
  const classAnnotation = domain.key('', 'ingress.class');
  const names = { kind: 'Ingress', resource: 'ingresses', namespaced: true, shortNames: ['ing'], list: 'Ingresses' };
  return definition(domain, names, ingressSchema, {
    tableColumns: ingressTableColumns(),
    resetFields: ['status'],
    zeroObject: () => ({
      apiVersion: `${domain.group('networking')}/v1`,
      kind: 'Ingress',
      metadata: {},
      spec: {},
      status: { loadBalancer: {} },
    }),
    subresources: [
      {
        name: 'status',
        verbs: ['get', 'patch', 'update'],
        resetFields: ['spec'],
        strategy: subresourceStrategy<Ingress>({
          schema,
          prepareForUpdate(ing, old) {
            ing.spec = structuredClone(old.spec);
          },
          validateUpdate: (ing, old) => [
            ...validateObjectMetaUpdate(ing.metadata, old.metadata, { standardFinalizers: finalizers }),
            ...validateIngressStatusUpdate(ing),
          ],
        }),
      },
    ],
    strategy: schemaStrategy<Ingress>({
      schema,
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: finalizers,
      prepareForCreate(ing) {
        ing.status = { loadBalancer: {} };
      },
      prepareForUpdate(ing, old) {
        ing.status = structuredClone(old.status ?? { loadBalancer: {} });
      },
      validateCreate: (ing) => validateIngressCreate(ing, classAnnotation),
      validateUpdate: validateIngressUpdate,
    }),
  });
}

/** `ingressclasses` (cluster-scoped, kube v1.32): parameters default to the Cluster scope; the controller is immutable. */
export function ingressClassResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(ingressClassSchema);
  const names = {
    kind: 'IngressClass',
    resource: 'ingressclasses',
    namespaced: false,
    shortNames: [],
    list: 'IngressClasses',
  };
  return definition(domain, names, ingressClassSchema, {
    tableColumns: ingressClassTableColumns(),
    zeroObject: () => ({
      apiVersion: `${domain.group('networking')}/v1`,
      kind: 'IngressClass',
      metadata: {},
      spec: {},
    }),
    strategy: schemaStrategy<IngressClass>({
      schema,
      namespaced: false,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: standardFinalizers(domain),
      defaults: defaultIngressClass,
      validateCreate: validateIngressClass,
      validateUpdate: validateIngressClassUpdate,
    }),
  });
}

/** `networkpolicies` (kube v1.32): policy types and port protocols defaulted; selector values ratcheted. */
export function networkPolicyResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(networkPolicySchema);
  const names = {
    kind: 'NetworkPolicy',
    resource: 'networkpolicies',
    namespaced: true,
    shortNames: ['netpol'],
    list: 'NetworkPolicies',
  };
  return definition(domain, names, networkPolicySchema, {
    tableColumns: networkPolicyTableColumns(networkPolicySchema),
    zeroObject: () => ({
      apiVersion: `${domain.group('networking')}/v1`,
      kind: 'NetworkPolicy',
      metadata: {},
      spec: { podSelector: {} },
    }),
    strategy: schemaStrategy<NetworkPolicy>({
      schema,
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: standardFinalizers(domain),
      defaults: defaultNetworkPolicy,
      validateCreate: (np) => validateNetworkPolicy(np),
      validateUpdate: validateNetworkPolicyUpdate,
    }),
  });
}

/** The kinds of `networking.<domain>/v1` (kube's discovery order). */
export function networkingResources(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition[] {
  return [ingressClassResource(domain), ingressResource(domain), networkPolicyResource(domain)];
}
