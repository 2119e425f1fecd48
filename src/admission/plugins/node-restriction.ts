import type { ApiDomain } from '../../apis/api-domain.js';
import { podConfigMapNames, podSecretNames } from '../../apis/core/pod-references.js';
import type { PodSpec } from '../../apis/core/pod-types.js';
import { MIRROR_POD_ANNOTATION } from '../../apis/core/pod-validation.js';
import { apiErrors } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { nodeIdentity } from '../../apis/request/node-identity.js';
import { goQuote } from '../../util/go-strconv.js';
import type { AdmissionAttributes, Operation } from '../admission-attributes.js';
import type { AdmissionPlugin } from '../admission-plugin.js';
import {
  differingPaths,
  forbiddenLabels,
  modifiedLabels,
  type NodeLabelPolicy,
  nodeLabelPolicy,
  pvcForStatusComparison,
  semanticEqual,
} from './node-restriction-rules.js';

export const NODE_RESTRICTION = 'NodeRestriction';

/** The current pods and nodes the plugin checks writes against (kube reads them from informers). */
export interface NodeRestrictionObjects {
  /** The pod; undefined when it does not exist. */
  pod(namespace: string, name: string, signal: AbortSignal): Promise<ApiObject | undefined>;
  /** The node; undefined when it does not exist. */
  node(name: string, signal: AbortSignal): Promise<ApiObject | undefined>;
}

export interface NodeRestrictionOptions {
  /** Group names, the node-lease namespace and the reserved label domains. */
  readonly domain: ApiDomain;
  readonly objects: NodeRestrictionObjects;
  /**
   * kube's `RecoverVolumeExpansionFailure` (beta and on in v1.32): nodes may also write a PVC's
   * `status.allocatedResources` and `status.allocatedResourceStatuses`. Default true.
   */
  readonly expansionRecovery?: boolean;
}

/** A write a node may not make; the admission chain answers it with a 403 naming the object. */
export class NodeRestrictionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeRestrictionError';
  }
}

type Json = Record<string, unknown>;

function refuse(message: string): never {
  throw new NodeRestrictionError(message);
}

function asObject(v: unknown): Json | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The object a rule needs, or kube's `unexpected type <nil>` when the request has none. */
function required(o: ApiObject | undefined): ApiObject {
  return o ?? refuse('unexpected type <nil>');
}

/** A pod that must exist: kube answers a missing one with its lister's 404 (`pod "x" not found`). */
async function existingPod(o: NodeRestrictionOptions, ns: string, name: string, signal: AbortSignal) {
  const pod = await o.objects.pod(ns, name, signal);
  if (!pod) throw apiErrors.notFound({ group: '', resource: 'pod' }, name);
  return pod;
}

function nodeNameOf(pod: ApiObject): string {
  return str(asObject(pod.spec)?.nodeName);
}

interface Check {
  readonly node: string;
  readonly a: AdmissionAttributes;
  readonly o: NodeRestrictionOptions;
  readonly labels: NodeLabelPolicy;
  readonly signal: AbortSignal;
}

/** A mirror pod: bound to the node, owned by its Node only, naming no other API object. */
async function admitPodCreate({ node, a, o, signal }: Check): Promise<void> {
  const pod = required(a.object);
  const q = goQuote(node);
  if (!Object.hasOwn(pod.metadata.annotations ?? {}, MIRROR_POD_ANNOTATION)) {
    refuse(`pod does not have ${goQuote(MIRROR_POD_ANNOTATION)} annotation, node ${q} can only create mirror pods`);
  }
  if (nodeNameOf(pod) !== node) refuse(`node ${q} can only create pods with spec.nodeName set to itself`);
  const owners = pod.metadata.ownerReferences ?? [];
  if (owners.length > 1) refuse(`node ${q} can only create pods with a single owner reference set to itself`);
  const owner = owners[0];
  if (owner?.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node) {
    refuse(`node ${q} can only create pods with an owner reference set to itself`);
  }
  if (owner.controller !== true)
    refuse(`node ${q} can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion === true) refuse(`node ${q} must not set blockOwnerDeletion on an owner reference`);
  const current = await o.objects.node(node, signal);
  if (!current) throw apiErrors.notFound({ group: '', resource: 'node' }, node);
  const uid = str(current.metadata.uid);
  if (str(owner.uid) !== uid) refuse(`node ${node} UID mismatch: expected ${str(owner.uid)} got ${uid}`);

  const spec = (asObject(pod.spec) ?? {}) as PodSpec;
  if (str(spec.serviceAccountName) !== '') refuse(`node ${q} can not create pods that reference a service account`);
  if (podSecretNames(spec).length > 0) refuse(`node ${q} can not create pods that reference secrets`);
  if (podConfigMapNames(spec).length > 0) refuse(`node ${q} can not create pods that reference configmaps`);
  const volumes = (Array.isArray(spec.volumes) ? spec.volumes : []).map((v) => asObject(v) ?? {});
  const sources = volumes.flatMap((v) => {
    const list = asObject(v.projected)?.sources;
    return Array.isArray(list) ? list : [];
  });
  if (sources.some((s) => asObject(s)?.clusterTrustBundle !== undefined && asObject(s)?.clusterTrustBundle !== null)) {
    refuse(`node ${q} can not create pods that reference clustertrustbundles`);
  }
  if (volumes.some((v) => asObject(v.persistentVolumeClaim) !== undefined)) {
    refuse(`node ${q} can not create pods that reference persistentvolumeclaims`);
  }
}

async function admitPod(c: Check): Promise<void> {
  const { node, a } = c;
  if (a.operation === 'CREATE') return admitPodCreate(c);
  if (a.operation === 'DELETE') {
    const pod = a.oldObject ?? (await existingPod(c.o, a.namespace, a.name, c.signal));
    if (nodeNameOf(pod) !== node) refuse(`node ${goQuote(node)} can only delete pods with spec.nodeName set to itself`);
    return;
  }
  refuse(`unexpected operation ${goQuote(a.operation)}, node ${goQuote(node)} can only create and delete mirror pods`);
}

/** kube compares the claim statuses by name and claim name only. */
function sameClaimStatuses(x: unknown, y: unknown): boolean {
  const a = Array.isArray(x) ? x : [];
  const b = Array.isArray(y) ? y : [];
  if (a.length !== b.length) return false;
  return a.every((s, i) => {
    const p = asObject(s) ?? {};
    const q = asObject(b[i]) ?? {};
    const pn = p.resourceClaimName ?? null;
    const qn = q.resourceClaimName ?? null;
    return str(p.name) === str(q.name) && pn === qn;
  });
}

function admitPodStatus({ node, a }: Check): void {
  if (a.operation !== 'UPDATE') refuse(`unexpected operation ${goQuote(a.operation)}`);
  const old = required(a.oldObject);
  const q = goQuote(node);
  if (nodeNameOf(old) !== node)
    refuse(`node ${q} can only update pod status for pods with spec.nodeName set to itself`);
  const pod = required(a.object);
  if (modifiedLabels(old.metadata.labels, pod.metadata.labels).length > 0) {
    refuse(`node ${q} cannot update labels through pod status`);
  }
  if (!sameClaimStatuses(asObject(old.status)?.resourceClaimStatuses, asObject(pod.status)?.resourceClaimStatuses)) {
    refuse(`node ${q} cannot update resource claim statues`);
  }
}

async function admitPodEviction({ node, a, o, signal }: Check): Promise<void> {
  if (a.operation !== 'CREATE') refuse(`unexpected operation ${a.operation}`);
  const eviction = required(a.object);
  // The pod named by the path wins over the one the Eviction names.
  const podName = a.name || str(eviction.metadata?.name) || refuse('could not determine pod from request data');
  const pod = await existingPod(o, a.namespace, podName, signal);
  if (nodeNameOf(pod) !== node) refuse(`node ${node} can only evict pods with spec.nodeName set to itself`);
}

function admitNode({ node, a, labels }: Check): void {
  const q = goQuote(node);
  if (a.name !== node) refuse(`node ${q} is not allowed to modify node ${goQuote(a.name)}`);
  if (a.operation === 'CREATE') {
    const obj = required(a.object);
    const spec = asObject(obj.spec);
    // Nodes reach what their spec names; a config source would widen that.
    if (spec?.configSource !== undefined && spec.configSource !== null) {
      refuse(`node ${q} is not allowed to create pods with a non-nil configSource`);
    }
    const forbidden = forbiddenLabels(labels, modifiedLabels(obj.metadata.labels, undefined));
    if (forbidden.length > 0) refuse(`node ${q} is not allowed to set the following labels: ${forbidden.join(', ')}`);
  }
  if (a.operation === 'UPDATE') {
    const obj = required(a.object);
    const old = required(a.oldObject);
    const spec = asObject(obj.spec);
    const oldSpec = asObject(old.spec);
    const source = spec?.configSource;
    if (source !== undefined && source !== null && !semanticEqual(source, oldSpec?.configSource)) {
      refuse(`node ${q} is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!semanticEqual(spec?.taints, oldSpec?.taints)) refuse(`node ${q} is not allowed to modify taints`);
    if (!semanticEqual(obj.metadata.ownerReferences, old.metadata.ownerReferences)) {
      refuse(`node ${q} is not allowed to modify ownerReferences`);
    }
    const forbidden = forbiddenLabels(labels, modifiedLabels(obj.metadata.labels, old.metadata.labels));
    if (forbidden.length > 0) refuse(`is not allowed to modify labels: ${forbidden.join(', ')}`);
  }
}

function admitPvcStatus({ node, a, o }: Check): void {
  if (a.operation !== 'UPDATE') refuse(`unexpected operation ${goQuote(a.operation)}`);
  const recovery = o.expansionRecovery ?? true;
  const old = pvcForStatusComparison(required(a.oldObject), recovery);
  const pvc = pvcForStatusComparison(required(a.object), recovery);
  if (!semanticEqual(old, pvc)) {
    refuse(
      `node ${goQuote(node)} is not allowed to update fields other than status.quantity and status.conditions: ${differingPaths(old, pvc).join(', ')}`,
    );
  }
}

/** Token requests of a node: bound to a pod (by uid) that runs on it. */
async function admitServiceAccount({ node, a, o, signal }: Check): Promise<void> {
  if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
  const request = required(a.object);
  const ref = asObject(asObject(request.spec)?.boundObjectRef);
  if (ref?.apiVersion !== 'v1' || ref.kind !== 'Pod' || str(ref.name) === '') {
    refuse('node requested token not bound to a pod');
  }
  const uid = str(ref.uid);
  if (uid === '') refuse('node requested token with a pod binding without a uid');
  const pod = await existingPod(o, a.namespace, str(ref.name), signal);
  if (uid !== str(pod.metadata.uid)) {
    refuse(
      `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  if (nodeNameOf(pod) !== node) refuse('node requested token bound to a pod scheduled on a different node');
}

/** The name of the object a write is about: the new object's on create, the request's otherwise. */
function targetName(a: AdmissionAttributes): string {
  return a.operation === 'CREATE' ? str(a.object?.metadata?.name) : a.name;
}

function admitLease({ node, a, o }: Check): void {
  const ns = o.domain.nodeLeaseNamespace;
  if (a.namespace !== ns) refuse(`can only access leases in the ${goQuote(ns)} system namespace`);
  if (a.operation === 'CREATE') required(a.object);
  if (targetName(a) !== node) refuse('can only access node lease with the same name as the requesting node');
}

function admitCsiNode({ node, a }: Check): void {
  if (a.operation === 'CREATE') required(a.object);
  if (targetName(a) !== node) refuse('can only access CSINode with the same name as the requesting node');
}

/** Creates and deletes of ResourceSlices name the node in `spec.nodeName`; the authorizer checks the rest. */
function admitResourceSlice({ node, a }: Check): void {
  const sliceNode = (o: ApiObject) => str(asObject(o.spec)?.nodeName);
  if (a.operation === 'CREATE' && sliceNode(required(a.object)) !== node) {
    refuse('can only create ResourceSlice with the same NodeName as the requesting node');
  }
  if (a.operation === 'DELETE' && sliceNode(required(a.oldObject)) !== node) {
    refuse('can only delete ResourceSlice with the same NodeName as the requesting node');
  }
}

/**
 * kube's `NodeRestriction` admission plugin (mutating, off by default): a node
 * (`system:node:<name>` in `system:nodes`) may create and delete only mirror pods bound to itself,
 * update the status of and evict only its pods, write only its own Node (no taint, config source,
 * owner or reserved-label changes), only PVC status (its status fields only), only its own lease
 * in the node-lease namespace and its own CSINode, request service-account tokens only bound to
 * its pods, and create or delete only its ResourceSlices. Everyone else passes untouched. A
 * refusal is a 403 naming the object with kube's message; a missing pod or node a 404.
 */
export function nodeRestriction(o: NodeRestrictionOptions): AdmissionPlugin {
  const labels = nodeLabelPolicy(o.domain);
  const groups = {
    coordination: o.domain.group('coordination'),
    storage: o.domain.group('storage'),
    resource: o.domain.group('resource'),
  };
  return {
    name: NODE_RESTRICTION,
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    async admit(a: AdmissionAttributes, signal: AbortSignal): Promise<void> {
      const node = nodeIdentity(a.user);
      if (node === undefined) return;
      if (node === '') refuse(`could not determine node from user ${goQuote(a.user.name)}`);
      const c: Check = { node, a, o, labels, signal };
      const { group, resource } = a.resource;
      if (group === '') {
        switch (resource) {
          case 'pods':
            if (a.subresource === '') return admitPod(c);
            if (a.subresource === 'status') return admitPodStatus(c);
            if (a.subresource === 'eviction') return admitPodEviction(c);
            refuse(`unexpected pod subresource ${goQuote(a.subresource)}, only 'status' and 'eviction' are allowed`);
            break;
          case 'nodes':
            return admitNode(c);
          case 'persistentvolumeclaims':
            if (a.subresource === 'status') return admitPvcStatus(c);
            refuse('may only update PVC status');
            break;
          case 'serviceaccounts':
            return admitServiceAccount(c);
        }
        return;
      }
      if (group === groups.coordination && resource === 'leases') return admitLease(c);
      if (group === groups.storage && resource === 'csinodes') return admitCsiNode(c);
      if (group === groups.resource && resource === 'resourceslices') return admitResourceSlice(c);
    },
  };
}
