/**
 * Every kind the manifest converter knows, for one API domain, and the conversion of one object:
 * from its version into the hub (the kind's first served version), then out to the target, as
 * kube converts through its internal type. Group names come from the domain: a registry built for
 * `orch.io` reads `networking.orch.io/v1beta1` and not `networking.k8s.io/v1beta1`, as the server
 * of that domain serves only its own names.
 */
import type { ApiDomain } from '../api-domain.js';
import type { ApiObject } from '../object.js';
import { admissionregistrationFamilies } from './admissionregistration-conversion.js';
import { apiextensionsFamilies } from './apiextensions-conversion.js';
import { appsFamilies } from './apps-conversion.js';
import { authorizationFamilies } from './authorization-conversion.js';
import { autoscalingFamilies } from './autoscaling-conversion.js';
import { certificatesFamilies } from './certificates-conversion.js';
import {
  type ConversionContext,
  type ConvertFn,
  formatGroupVersion,
  type GroupVersion,
  type KindFamily,
  KindNotRegisteredError,
  NotSuitableForTargetError,
} from './conversion-types.js';
import { discoveryFamilies } from './discovery-conversion.js';
import { flowcontrolFamilies } from './flowcontrol-conversion.js';
import { networkingFamilies } from './networking-conversion.js';
import { policyFamilies } from './policy-conversion.js';
import { sameShapeFamilies } from './same-shape-kinds.js';

/** Where an object's version sits in its family. */
interface Located {
  readonly family: KindFamily;
  /** Into the hub; identity for the hub itself. */
  readonly toHub: ConvertFn;
}

export interface ConversionRegistry {
  readonly domain: ApiDomain;
  readonly families: readonly KindFamily[];
  /**
   * `obj` in `target`, or, when `target` is undefined, in its kind's preferred version (the hub).
   * The input is not changed.
   *
   * @throws KindNotRegisteredError when the object's kind and version are unknown
   * @throws NotSuitableForTargetError when its kind is not served in `target`
   * @throws ConversionRefusedError when the object cannot be expressed in the target version
   */
  convert(obj: ApiObject, target?: GroupVersion): ApiObject;
  /** Whether the kind is known in that `apiVersion`. */
  knows(apiVersion: string, kind: string): boolean;
}

const identity: ConvertFn = (o) => o;

/** The registry of a domain's names. */
export function conversionRegistry(domain: ApiDomain): ConversionRegistry {
  const families = [
    ...appsFamilies(domain),
    ...networkingFamilies(domain),
    ...autoscalingFamilies(domain),
    ...policyFamilies(domain),
    ...discoveryFamilies(domain),
    ...certificatesFamilies(domain),
    ...admissionregistrationFamilies(domain),
    ...apiextensionsFamilies(domain),
    ...flowcontrolFamilies(domain),
    ...authorizationFamilies(domain),
    ...sameShapeFamilies(domain),
  ];
  const byVersionKind = new Map<string, Located>();
  for (const family of families) {
    for (const v of family.served) {
      byVersionKind.set(`${formatGroupVersion(v)}|${family.kind}`, { family, toHub: v.toHub ?? identity });
    }
    for (const v of family.removed)
      byVersionKind.set(`${formatGroupVersion(v)}|${family.kind}`, { family, toHub: v.toHub });
  }
  const ctx: ConversionContext = { domain };
  return {
    domain,
    families,
    knows: (apiVersion, kind) => byVersionKind.has(`${apiVersion}|${kind}`),
    convert(obj, target) {
      const located = byVersionKind.get(`${obj.apiVersion}|${obj.kind}`);
      if (!located) throw new KindNotRegisteredError(obj.kind, obj.apiVersion);
      const { family } = located;
      const to = target ?? family.served[0];
      const served = family.served.find((v) => v.group === to.group && v.version === to.version);
      if (!served) throw new NotSuitableForTargetError(family.internal, formatGroupVersion(to));
      if (obj.apiVersion === formatGroupVersion(served)) return obj;
      const hub = located.toHub(obj, ctx);
      return served.fromHub ? served.fromHub(hub, ctx) : hub;
    },
  };
}
