import type { ApiDomain } from '../../apis/api-domain.js';
import type { PolicyRule } from '../../apis/rbac/rbac-types.js';
import { nodeIdentity } from '../../apis/request/node-identity.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import { goQuote } from '../../util/go-strconv.js';
import {
  ALLOW_RESULT,
  type Attributes,
  type AuthorizationResult,
  type Authorizer,
  NO_OPINION_RESULT,
} from '../authorizer.js';
import { ruleAllows } from '../rbac/rule-matching.js';
import { NO_RULES, type RulesResult } from '../rules.js';
import type { GraphKind, NodeGraphReader } from './node-graph.js';
import { nodeRules } from './node-rules.js';

export interface NodeAuthorizerOptions {
  /** The objects related to each node, kept current from watches. */
  readonly graph: NodeGraphReader;
  /** Group names and the node lease namespace. */
  readonly domain: ApiDomain;
  /**
   * The `AuthorizeNodeWithSelectors` gate: node reads limited to the node's own Node, pod lists
   * and watches to `spec.nodeName=<node>`, ResourceSlice lists to `spec.nodeName=<node>`.
   * Off: nodes and pods are decided by the static rules alone.
   */
  readonly withSelectors: boolean;
  /** The rules of the resources not subdivided; default kube's node rules under `domain`. */
  readonly rules?: readonly PolicyRule[];
}

function noOpinion(reason: string): AuthorizationResult {
  return Object.freeze({ decision: 'no-opinion', reason });
}

// kube's reasons, word for word (clients and people read them after "forbidden: ... :").
const NO_NAME = noOpinion('No Object name found');
const READ_ONLY = noOpinion('can only read resources of this type');
const READ_SUBRESOURCE = noOpinion('cannot read subresource');
const READ_NAMESPACED = noOpinion('can only read namespaced object of this type');
const GET_ONLY = noOpinion('can only get individual resources of this type');
const GET_SUBRESOURCE = noOpinion('cannot get subresource');
const STATUS_VERBS = noOpinion('can only get/update/patch this type');
const TOKEN_VERB = noOpinion('can only create tokens for individual service accounts');
const TOKEN_SUBRESOURCE = noOpinion('can only create token subresource of serviceaccount');
const LEASE_VERBS = noOpinion('can only get, create, update, patch, or delete a node lease');
const LEASE_NAME = noOpinion('can only access node lease with the same name as the requesting node');
const CSINODE_VERBS = noOpinion('can only get, create, update, patch, or delete a CSINode');
const CSINODE_SUBRESOURCE = noOpinion('cannot authorize CSINode subresources');
const CSINODE_NAME = noOpinion('can only access CSINode with the same name as the requesting node');
const SLICE_SUBRESOURCE = noOpinion('cannot authorize ResourceSlice subresources');
const SLICE_SELECTOR = noOpinion('can only list/watch/deletecollection resourceslices with nodeName field selector');
const SLICE_VERBS = noOpinion(
  'only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection',
);
const POD_SELECTOR = noOpinion('can only list/watch pods with spec.nodeName field selector');
const NODE_FIELD = 'spec.nodeName';

const NO_USER_RULES: RulesResult = Object.freeze({
  resourceRules: [],
  nonResourceRules: [],
  incomplete: true,
  errors: Object.freeze(['node authorizer does not support user rule resolution']),
});

/** Whether the request's field selector holds `field=value` (or `field==value`). */
function selects(a: Attributes, field: string, value: string): boolean {
  const reqs = a.fieldSelectorRequirements;
  if (reqs === undefined) return false;
  for (let i = 0; i < reqs.length; i++) {
    const r = reqs[i];
    if (r.field === field && r.operator === '=' && r.value === value) return true;
  }
  return false;
}

/**
 * kube-apiserver's Node authorizer (`--authorization-mode=Node`) for users named
 * `system:node:<node>` in group `system:nodes`; no opinion on anyone else. A node may read
 * secrets, config maps (get, list, watch of one object), PVCs, PVs, ResourceClaims and
 * VolumeAttachments (get) only when related to it in the graph (a pod bound to it uses them),
 * update the status of such PVCs, create tokens for the service accounts of its pods, use its own
 * lease in the node lease namespace and its own CSINode, and its ResourceSlices; with the
 * selector gate it reads only its own Node and lists or watches only its pods. Everything else
 * is decided by kube's static node rules. Never denies: what it does not allow is `no-opinion`
 * with kube's reason. Decisions are synchronous map lookups.
 */
export class NodeAuthorizer implements Authorizer {
  private readonly graph: NodeGraphReader;
  private readonly rules: readonly PolicyRule[];
  private readonly withSelectors: boolean;
  private readonly storageGroup: string;
  private readonly coordinationGroup: string;
  private readonly resourceGroup: string;
  private readonly leaseNamespace: string;
  private readonly leaseNamespaceOnly: AuthorizationResult;
  /** Node name ('' unknown, null no node) of frozen users, which authenticators reuse while cached. */
  private readonly nodeByUser = new WeakMap<UserInfo, string | null>();

  constructor(o: NodeAuthorizerOptions) {
    this.graph = o.graph;
    this.rules = o.rules ?? nodeRules(o.domain);
    this.withSelectors = o.withSelectors;
    this.storageGroup = o.domain.group('storage');
    this.coordinationGroup = o.domain.group('coordination');
    this.resourceGroup = o.domain.group('resource');
    this.leaseNamespace = o.domain.nodeLeaseNamespace;
    this.leaseNamespaceOnly = noOpinion(
      `can only access leases in the ${goQuote(o.domain.nodeLeaseNamespace)} system namespace`,
    );
  }

  private nodeOf(user: UserInfo): string | undefined {
    const cached = this.nodeByUser.get(user);
    if (cached !== undefined) return cached ?? undefined;
    const node = nodeIdentity(user);
    if (Object.isFrozen(user)) this.nodeByUser.set(user, node ?? null);
    return node;
  }

  async authorize(a: Attributes): Promise<AuthorizationResult> {
    return this.decide(a);
  }

  decide(a: Attributes): AuthorizationResult {
    const node = this.nodeOf(a.user);
    if (node === undefined) return NO_OPINION_RESULT;
    if (node === '') return noOpinion(`unknown node for user ${goQuote(a.user.name)}`);
    if (a.isResourceRequest) {
      const r = this.subdivided(node, a);
      if (r !== undefined) return r;
    }
    const rules = this.rules;
    for (let i = 0; i < rules.length; i++) if (ruleAllows(a, rules[i])) return ALLOW_RESULT;
    return NO_OPINION_RESULT;
  }

  /** The decision for a resource whose access depends on the node; undefined for the others. */
  private subdivided(node: string, a: Attributes): AuthorizationResult | undefined {
    const group = a.apiGroup;
    if (group === '') {
      switch (a.resource) {
        case 'secrets':
          return this.readNamespaced(node, 'secret', a);
        case 'configmaps':
          return this.readNamespaced(node, 'configmap', a);
        case 'persistentvolumeclaims':
          return a.subresource === 'status' ? this.statusUpdate(node, 'pvc', a) : this.get(node, 'pvc', a);
        case 'persistentvolumes':
          return this.get(node, 'pv', a);
        case 'serviceaccounts':
          return this.createToken(node, a);
        case 'nodes':
          return this.withSelectors ? this.nodeObject(node, a) : undefined;
        case 'pods':
          return this.withSelectors ? this.pod(node, a) : undefined;
      }
      return undefined;
    }
    if (group === this.storageGroup) {
      if (a.resource === 'volumeattachments') return this.get(node, 'volumeattachment', a);
      if (a.resource === 'csinodes') return this.csiNode(node, a);
    } else if (group === this.coordinationGroup) {
      if (a.resource === 'leases') return this.lease(node, a);
    } else if (group === this.resourceGroup) {
      if (a.resource === 'resourceclaims') return this.get(node, 'resourceclaim', a);
      if (a.resource === 'resourceslices') return this.resourceSlice(node, a);
    }
    return undefined;
  }

  /** Allowed when the named object is related to the node in the graph. */
  private related(node: string, kind: GraphKind, a: Attributes): AuthorizationResult {
    if (a.name === '') return NO_NAME;
    if (this.graph.hasPath(kind, a.namespace, a.name, node)) return ALLOW_RESULT;
    return noOpinion(`no relationship found between node '${node}' and this object`);
  }

  /** get, list and watch of one related namespaced object (list and watch by `metadata.name`). */
  private readNamespaced(node: string, kind: GraphKind, a: Attributes): AuthorizationResult {
    const verb = a.verb;
    if (verb !== 'get' && verb !== 'list' && verb !== 'watch') return READ_ONLY;
    if (a.subresource !== '') return READ_SUBRESOURCE;
    if (a.namespace === '') return READ_NAMESPACED;
    return this.related(node, kind, a);
  }

  private get(node: string, kind: GraphKind, a: Attributes): AuthorizationResult {
    if (a.verb !== 'get') return GET_ONLY;
    if (a.subresource !== '') return GET_SUBRESOURCE;
    return this.related(node, kind, a);
  }

  private statusUpdate(node: string, kind: GraphKind, a: Attributes): AuthorizationResult {
    if (a.verb !== 'update' && a.verb !== 'patch') return STATUS_VERBS;
    return this.related(node, kind, a);
  }

  /** `serviceaccounts/<name>/token` of a service account a pod of the node runs as. */
  private createToken(node: string, a: Attributes): AuthorizationResult {
    if (a.verb !== 'create' || a.name === '') return TOKEN_VERB;
    if (a.subresource !== 'token') return TOKEN_SUBRESOURCE;
    return this.related(node, 'serviceaccount', a);
  }

  /** The node's own lease (create is checked by NodeRestriction: the name is not known here). */
  private lease(node: string, a: Attributes): AuthorizationResult {
    const verb = a.verb;
    if (verb !== 'get' && verb !== 'create' && verb !== 'update' && verb !== 'patch' && verb !== 'delete') {
      return LEASE_VERBS;
    }
    if (a.namespace !== this.leaseNamespace) return this.leaseNamespaceOnly;
    if (verb !== 'create' && a.name !== node) return LEASE_NAME;
    return ALLOW_RESULT;
  }

  private csiNode(node: string, a: Attributes): AuthorizationResult {
    const verb = a.verb;
    if (verb !== 'get' && verb !== 'create' && verb !== 'update' && verb !== 'patch' && verb !== 'delete') {
      return CSINODE_VERBS;
    }
    if (a.subresource !== '') return CSINODE_SUBRESOURCE;
    if (verb !== 'create' && a.name !== node) return CSINODE_NAME;
    return ALLOW_RESULT;
  }

  private resourceSlice(node: string, a: Attributes): AuthorizationResult {
    if (a.subresource !== '') return SLICE_SUBRESOURCE;
    switch (a.verb) {
      case 'create':
        // NodeRestriction checks spec.nodeName of the new slice.
        return ALLOW_RESULT;
      case 'get':
      case 'update':
      case 'patch':
      case 'delete':
        return this.related(node, 'resourceslice', a);
      case 'watch':
      case 'list':
      case 'deletecollection':
        if (!this.withSelectors || selects(a, NODE_FIELD, node)) return ALLOW_RESULT;
        return SLICE_SELECTOR;
      default:
        return SLICE_VERBS;
    }
  }

  /** The node's own Node object (compared by name: a kubelet reads it before creating it). */
  private nodeObject(node: string, a: Attributes): AuthorizationResult {
    const verb = a.verb;
    if (a.subresource === '') {
      // NodeRestriction limits creates and updates to the node's own object.
      if (verb === 'create' || verb === 'update' || verb === 'patch') return ALLOW_RESULT;
      if (verb === 'get' || verb === 'list' || verb === 'watch') {
        if (a.name === node) return ALLOW_RESULT;
        if (a.name === '') return noOpinion(`node '${node}' cannot read all nodes, only its own Node object`);
        return noOpinion(`node '${node}' cannot read '${a.name}', only its own Node object`);
      }
    } else if (a.subresource === 'status' && (verb === 'update' || verb === 'patch')) {
      return ALLOW_RESULT;
    }
    return NO_OPINION_RESULT;
  }

  /** Pods bound to the node; NodeRestriction limits the writes allowed here to such pods. */
  private pod(node: string, a: Attributes): AuthorizationResult {
    const verb = a.verb;
    switch (a.subresource) {
      case '':
        if (verb === 'get') return this.related(node, 'pod', a);
        if (verb === 'list' || verb === 'watch') {
          if (selects(a, NODE_FIELD, node)) return ALLOW_RESULT;
          if (a.name !== '') return this.related(node, 'pod', a);
          return POD_SELECTOR;
        }
        // Mirror pods.
        if (verb === 'create' || verb === 'delete') return ALLOW_RESULT;
        break;
      case 'status':
        if (verb === 'update' || verb === 'patch') return ALLOW_RESULT;
        break;
      case 'eviction':
        if (verb === 'create') return ALLOW_RESULT;
        break;
    }
    return NO_OPINION_RESULT;
  }

  /** Nodes' permissions are not enumerable: incomplete, with kube's error; nothing for others. */
  async rulesFor(user: UserInfo): Promise<RulesResult> {
    return this.nodeOf(user) === undefined ? NO_RULES : NO_USER_RULES;
  }
}
