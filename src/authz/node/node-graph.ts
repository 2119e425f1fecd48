import type { NamespacedName, PersistentVolumeReferences, PodReferences } from './object-references.js';

/** The kinds of objects a node may reach through the graph (kube's vertex types). */
export type GraphKind =
  | 'pod'
  | 'secret'
  | 'configmap'
  | 'pvc'
  | 'pv'
  | 'resourceclaim'
  | 'volumeattachment'
  | 'serviceaccount'
  | 'resourceslice';

/** What the Node authorizer asks of the graph. */
export interface NodeGraphReader {
  /**
   * Whether an object of `kind` named `namespace`/`name` (namespace '' for cluster-scoped kinds)
   * is related to node `node`: one of its pods uses it (a secret of a pod, a PV bound to a
   * claim a pod uses, a secret of such a PV, ...) or it names the node itself.
   */
  hasPath(kind: GraphKind, namespace: string, name: string, node: string): boolean;
}

/** node name → how many references lead from an object to that node. */
type NodeCounts = Map<string, number>;

/**
 * namespace → name → node counts, for the objects pods reference directly. Counting lets two pods
 * on one node share a secret: deleting one leaves the other's path.
 */
class ReferenceIndex {
  private readonly byNamespace = new Map<string, Map<string, NodeCounts>>();

  add(namespace: string, name: string, node: string): void {
    let names = this.byNamespace.get(namespace);
    if (!names) {
      names = new Map();
      this.byNamespace.set(namespace, names);
    }
    let counts = names.get(name);
    if (!counts) {
      counts = new Map();
      names.set(name, counts);
    }
    counts.set(node, (counts.get(node) ?? 0) + 1);
  }

  remove(namespace: string, name: string, node: string): void {
    const names = this.byNamespace.get(namespace);
    const counts = names?.get(name);
    const n = counts?.get(node);
    if (!names || !counts || n === undefined) return;
    if (n > 1) {
      counts.set(node, n - 1);
      return;
    }
    counts.delete(node);
    if (counts.size > 0) return;
    names.delete(name);
    if (names.size === 0) this.byNamespace.delete(namespace);
  }

  has(namespace: string, name: string, node: string): boolean {
    return this.byNamespace.get(namespace)?.get(name)?.has(node) === true;
  }

  /** How many objects are indexed (for tests and metrics). */
  size(): number {
    let n = 0;
    for (const names of this.byNamespace.values()) n += names.size;
    return n;
  }
}

/** A PV as the graph keeps it: the claim it is bound to and the secrets it lets that claim's nodes read. */
interface VolumeEntry {
  readonly claim: NamespacedName;
  readonly secrets: readonly NamespacedName[];
}

/**
 * kube-apiserver's node authorizer graph, kept as reference counts instead of edges so a decision
 * is a few map lookups, never a walk: pod → node; secret, config map, PVC, ResourceClaim and
 * service account → pod → node; PV → PVC → pod → node; secret → PV → PVC → pod → node;
 * VolumeAttachment → node; ResourceSlice → node. Writers replace or delete whole objects (a pod,
 * a PV, an attachment, a slice); there is no other state. Not safe for concurrent writers, which
 * a single-threaded event loop rules out.
 */
export class NodeGraph implements NodeGraphReader {
  private readonly pods = new Map<string, PodReferences>();
  /** namespace → pod name → node. */
  private readonly podNodes = new Map<string, Map<string, string>>();
  private readonly secrets = new ReferenceIndex();
  private readonly configMaps = new ReferenceIndex();
  private readonly claims = new ReferenceIndex();
  private readonly resourceClaims = new ReferenceIndex();
  private readonly serviceAccounts = new ReferenceIndex();
  private readonly volumes = new Map<string, VolumeEntry>();
  /** Secrets PVs reference: namespace → secret → PV names. */
  private readonly volumeSecrets = new Map<string, Map<string, Set<string>>>();
  private readonly attachments = new Map<string, string>();
  private readonly slices = new Map<string, string>();

  hasPath(kind: GraphKind, namespace: string, name: string, node: string): boolean {
    switch (kind) {
      case 'pod':
        return this.podNodes.get(namespace)?.get(name) === node;
      case 'secret':
        return this.secrets.has(namespace, name, node) || this.secretOfVolumeOn(namespace, name, node);
      case 'configmap':
        return this.configMaps.has(namespace, name, node);
      case 'pvc':
        return this.claims.has(namespace, name, node);
      case 'pv':
        return this.volumeOn(name, node);
      case 'resourceclaim':
        return this.resourceClaims.has(namespace, name, node);
      case 'serviceaccount':
        return this.serviceAccounts.has(namespace, name, node);
      case 'volumeattachment':
        return this.attachments.get(name) === node;
      case 'resourceslice':
        return this.slices.get(name) === node;
    }
  }

  private volumeOn(pv: string, node: string): boolean {
    const v = this.volumes.get(pv);
    return v !== undefined && this.claims.has(v.claim.namespace, v.claim.name, node);
  }

  private secretOfVolumeOn(namespace: string, name: string, node: string): boolean {
    const pvs = this.volumeSecrets.get(namespace)?.get(name);
    if (pvs === undefined) return false;
    for (const pv of pvs) if (this.volumeOn(pv, node)) return true;
    return false;
  }

  /**
   * Records a pod bound to a node (replacing what was recorded under its namespace and name); a
   * pod without `nodeName` only removes the old record.
   */
  setPod(pod: PodReferences): void {
    this.deletePod(pod.namespace, pod.name);
    if (pod.nodeName === '') return;
    const { namespace, nodeName: node } = pod;
    this.pods.set(podKey(namespace, pod.name), pod);
    let names = this.podNodes.get(namespace);
    if (!names) {
      names = new Map();
      this.podNodes.set(namespace, names);
    }
    names.set(pod.name, node);
    for (const s of pod.secrets) this.secrets.add(namespace, s, node);
    for (const c of pod.configMaps) this.configMaps.add(namespace, c, node);
    for (const c of pod.persistentVolumeClaims) this.claims.add(namespace, c, node);
    for (const c of pod.resourceClaims) this.resourceClaims.add(namespace, c, node);
    if (pod.serviceAccount) this.serviceAccounts.add(namespace, pod.serviceAccount, node);
  }

  /** The pod recorded under a namespace and name, if it is bound. */
  pod(namespace: string, name: string): PodReferences | undefined {
    return this.pods.get(podKey(namespace, name));
  }

  deletePod(namespace: string, name: string): void {
    const key = podKey(namespace, name);
    const old = this.pods.get(key);
    if (!old) return;
    this.pods.delete(key);
    const names = this.podNodes.get(namespace);
    names?.delete(name);
    if (names?.size === 0) this.podNodes.delete(namespace);
    const node = old.nodeName;
    for (const s of old.secrets) this.secrets.remove(namespace, s, node);
    for (const c of old.configMaps) this.configMaps.remove(namespace, c, node);
    for (const c of old.persistentVolumeClaims) this.claims.remove(namespace, c, node);
    for (const c of old.resourceClaims) this.resourceClaims.remove(namespace, c, node);
    if (old.serviceAccount) this.serviceAccounts.remove(namespace, old.serviceAccount, node);
  }

  /** Records a PV (replacing its old record); one without a claim is only removed. */
  setPersistentVolume(pv: PersistentVolumeReferences): void {
    this.deletePersistentVolume(pv.name);
    if (!pv.claim) return;
    this.volumes.set(pv.name, { claim: pv.claim, secrets: pv.secrets });
    for (const s of pv.secrets) {
      let names = this.volumeSecrets.get(s.namespace);
      if (!names) {
        names = new Map();
        this.volumeSecrets.set(s.namespace, names);
      }
      let pvs = names.get(s.name);
      if (!pvs) {
        pvs = new Set();
        names.set(s.name, pvs);
      }
      pvs.add(pv.name);
    }
  }

  deletePersistentVolume(name: string): void {
    const old = this.volumes.get(name);
    if (!old) return;
    this.volumes.delete(name);
    for (const s of old.secrets) {
      const names = this.volumeSecrets.get(s.namespace);
      const pvs = names?.get(s.name);
      pvs?.delete(name);
      if (pvs?.size === 0) names?.delete(s.name);
      if (names?.size === 0) this.volumeSecrets.delete(s.namespace);
    }
  }

  /** Records the node a VolumeAttachment is for; '' only removes it. */
  setVolumeAttachment(name: string, node: string): void {
    if (node === '') this.attachments.delete(name);
    else this.attachments.set(name, node);
  }

  deleteVolumeAttachment(name: string): void {
    this.attachments.delete(name);
  }

  /** Records the node a ResourceSlice belongs to; '' (a slice of no node) only removes it. */
  setResourceSlice(name: string, node: string): void {
    if (node === '') this.slices.delete(name);
    else this.slices.set(name, node);
  }

  deleteResourceSlice(name: string): void {
    this.slices.delete(name);
  }

  /** How many objects of each kind the graph holds (bound pods, referenced objects, ...). */
  sizes(): Record<GraphKind, number> {
    return {
      pod: this.pods.size,
      secret: this.secrets.size(),
      configmap: this.configMaps.size(),
      pvc: this.claims.size(),
      pv: this.volumes.size,
      resourceclaim: this.resourceClaims.size(),
      volumeattachment: this.attachments.size,
      serviceaccount: this.serviceAccounts.size(),
      resourceslice: this.slices.size,
    };
  }
}

function podKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}
