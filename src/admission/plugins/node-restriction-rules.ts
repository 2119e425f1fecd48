/**
 * The parts of kube's NodeRestriction rules that compare objects: which Node labels a node may
 * set (the kubelet label set), whether two objects are equal the way kube's `Semantic.DeepEqual`
 * sees typed objects, and the fields a node may change in a PVC's status.
 */
import type { ApiDomain } from '../../apis/api-domain.js';
import type { ApiObject } from '../../apis/object.js';
import { compareGoStrings } from '../../util/go-strings.js';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The label namespace of a key: what comes before `/` (empty without one). */
function labelNamespace(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

function inNamespace(ns: string, domain: string): boolean {
  return ns === domain || ns.endsWith(`.${domain}`);
}

/**
 * The labels a node may set on its own Node, derived from the API domain: under `k8s.io`
 * exactly kube's `kubelet/pkg/apis` set (`kubernetes.io/hostname`, `topology.kubernetes.io/zone`,
 * ..., anything under `kubelet.kubernetes.io` and `node.kubernetes.io`), and the node-restriction
 * namespace (`node-restriction.kubernetes.io`) no node may touch.
 */
export interface NodeLabelPolicy {
  /** Reserved label domains: `kubernetes.io` and `k8s.io` (both `orch.io` under Orch's profile). */
  readonly reservedDomains: readonly string[];
  readonly kubeletLabels: ReadonlySet<string>;
  readonly kubeletNamespaces: readonly string[];
  readonly nodeRestrictionNamespace: string;
}

/** The label policy of an API domain. */
export function nodeLabelPolicy(d: ApiDomain): NodeLabelPolicy {
  const ns = (prefix: string) => labelNamespace(d.key(prefix, 'x'));
  return {
    reservedDomains: [...new Set([ns(''), d.name])],
    kubeletLabels: new Set([
      d.key('', 'hostname'),
      d.key('topology', 'zone'),
      d.key('topology', 'region'),
      d.key('failure-domain.beta', 'zone'),
      d.key('failure-domain.beta', 'region'),
      d.key('beta', 'instance-type'),
      d.key('node', 'instance-type'),
      d.key('', 'os'),
      d.key('', 'arch'),
      d.key('beta', 'os'),
      d.key('beta', 'arch'),
    ]),
    kubeletNamespaces: [ns('kubelet'), ns('node')],
    nodeRestrictionNamespace: ns('node-restriction'),
  };
}

/** Keys whose value differs between the two label maps (added, removed or changed). */
export function modifiedLabels(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): string[] {
  const out = new Set<string>();
  const x = a ?? {};
  const y = b ?? {};
  for (const k of Object.keys(x)) if (!Object.hasOwn(y, k) || x[k] !== y[k]) out.add(k);
  for (const k of Object.keys(y)) if (!Object.hasOwn(x, k) || x[k] !== y[k]) out.add(k);
  return [...out];
}

/**
 * The modified labels a node may not set, sorted (Go's `sets.String.List`): any in the
 * node-restriction namespace, and any in a reserved domain that is not a kubelet label.
 */
export function forbiddenLabels(policy: NodeLabelPolicy, modified: readonly string[]): string[] {
  const forbidden = modified.filter((label) => {
    const ns = labelNamespace(label);
    if (inNamespace(ns, policy.nodeRestrictionNamespace)) return true;
    const reserved = policy.reservedDomains.some((d) => inNamespace(ns, d));
    if (!reserved || policy.kubeletLabels.has(label)) return false;
    return !policy.kubeletNamespaces.some((k) => inNamespace(ns, k));
  });
  return forbidden.sort(compareGoStrings);
}

/**
 * A JSON value as a typed Go object would hold it, for comparisons: null, empty strings, empty
 * lists and empty maps are what an absent field decodes to, so they are dropped.
 */
function normalized(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map((e) => normalized(e) ?? null);
  if (isObject(v)) {
    const out: Json = {};
    for (const [k, e] of Object.entries(v)) {
      const n = normalized(e);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v === null || v === '' ? undefined : v;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((e, i) => sameValue(e, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}

/** kube's `apiequality.Semantic.DeepEqual` on decoded JSON: absent, null and empty are equal. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return sameValue(normalized(a), normalized(b));
}

/** Paths (`metadata.labels`, `spec.resources`) of the top two levels where `a` and `b` differ. */
export function differingPaths(a: unknown, b: unknown, prefix = '', depth = 2): string[] {
  const x = normalized(a);
  const y = normalized(b);
  if (sameValue(x, y)) return [];
  if (depth === 0 || !isObject(x) || !isObject(y)) return [prefix || '.'];
  const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort(compareGoStrings);
  return keys.flatMap((k) => differingPaths(x[k], y[k], prefix ? `${prefix}.${k}` : k, depth - 1));
}

/**
 * A PVC as compared for a node's status update: without `resourceVersion`, `managedFields`,
 * `status.capacity` and `status.conditions`, and with volume-expansion recovery also without
 * `status.allocatedResources` and `status.allocatedResourceStatuses`.
 */
export function pvcForStatusComparison(pvc: ApiObject, expansionRecovery: boolean): Json {
  const copy = structuredClone(pvc) as Json;
  const meta = isObject(copy.metadata) ? copy.metadata : {};
  delete meta.resourceVersion;
  delete meta.managedFields;
  if (isObject(copy.status)) {
    delete copy.status.capacity;
    delete copy.status.conditions;
    if (expansionRecovery) {
      delete copy.status.allocatedResources;
      delete copy.status.allocatedResourceStatuses;
    }
  }
  return copy;
}
