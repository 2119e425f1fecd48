import { podConfigMapNames, podSecretNames } from '../../apis/core/pod-references.js';
import type { PodSpec } from '../../apis/core/pod-types.js';
import type { ApiObject } from '../../apis/object.js';

/**
 * What the Node authorizer's graph needs of objects, read defensively: the objects come from
 * watches and are validated, but a missing or oddly typed field must never throw here.
 */

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

function list(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** `o[a][b]...` as a string, or '' when any step is missing. */
function path(o: unknown, ...keys: string[]): string {
  let cur: unknown = o;
  for (const k of keys) {
    const next = obj(cur);
    if (!next) return '';
    cur = next[k];
  }
  return str(cur);
}

/** The objects a pod bound to a node lets that node read, each in the pod's namespace. */
export interface PodReferences {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** `spec.nodeName`; '' while unscheduled. */
  readonly nodeName: string;
  readonly secrets: readonly string[];
  readonly configMaps: readonly string[];
  /** Claims of `persistentVolumeClaim` volumes and the `<pod>-<volume>` claims of ephemeral ones. */
  readonly persistentVolumeClaims: readonly string[];
  /** ResourceClaims named in the spec or, for claims from templates, in `status.resourceClaimStatuses`. */
  readonly resourceClaims: readonly string[];
  /** `spec.serviceAccountName` (token requests); '' when unset. */
  readonly serviceAccount: string;
}

/** Adds non-empty names once each, keeping first-seen order. */
class NameSet {
  readonly names: string[] = [];
  private readonly seen = new Set<string>();
  add(name: string): void {
    if (name === '' || this.seen.has(name)) return;
    this.seen.add(name);
    this.names.push(name);
  }
}

/**
 * The references kube-apiserver's node graph records for a pod (`AddPod`): image pull secrets;
 * secrets and config maps of every container's `env` and `envFrom` (init and ephemeral
 * containers included); secrets and config maps of volumes (secret, configMap, projected,
 * azureFile, cephfs, cinder, flexVolume, rbd, scaleIO, iscsi, storageos, csi
 * `nodePublishSecretRef`); PVCs of `persistentVolumeClaim` volumes and `<pod>-<volume>` for
 * ephemeral volumes; ResourceClaims; and the service account. A mirror pod (annotation
 * `mirrorPodAnnotation`) references nothing but its node: a node must never gain access to
 * other objects by creating a pod.
 */
export function podReferences(pod: ApiObject, mirrorPodAnnotation: string): PodReferences {
  const meta = pod.metadata;
  const spec = obj(pod.spec) ?? {};
  const base = {
    namespace: str(meta.namespace),
    name: str(meta.name),
    uid: str(meta.uid),
    nodeName: str(spec.nodeName),
  };
  const annotations = obj(meta.annotations);
  if (annotations && Object.hasOwn(annotations, mirrorPodAnnotation)) {
    return {
      ...base,
      secrets: [],
      configMaps: [],
      persistentVolumeClaims: [],
      resourceClaims: [],
      serviceAccount: '',
    };
  }
  const secrets = new NameSet();
  const configMaps = new NameSet();
  const claims = new NameSet();
  for (const name of podSecretNames(spec as PodSpec)) secrets.add(name);
  for (const name of podConfigMapNames(spec as PodSpec)) configMaps.add(name);
  for (const item of list(spec.volumes)) {
    const v = obj(item);
    if (!v) continue;
    const claim = path(v, 'persistentVolumeClaim', 'claimName');
    if (claim) claims.add(claim);
    else if (obj(v.ephemeral) && str(v.name)) claims.add(`${base.name}-${str(v.name)}`);
  }
  return {
    ...base,
    secrets: secrets.names,
    configMaps: configMaps.names,
    persistentVolumeClaims: claims.names,
    resourceClaims: podResourceClaimNames(pod),
    serviceAccount: str(spec.serviceAccountName),
  };
}

/**
 * The ResourceClaims a pod uses (kube's `resourceclaim.Name`): `resourceClaimName` as given; for
 * `resourceClaimTemplateName` the claim generated for it, as `status.resourceClaimStatuses`
 * names it (none yet while it is being created).
 */
export function podResourceClaimNames(pod: ApiObject): string[] {
  const names = new NameSet();
  const statuses = list(obj(pod.status)?.resourceClaimStatuses);
  for (const item of list(obj(pod.spec)?.resourceClaims)) {
    const c = obj(item);
    if (!c) continue;
    if (typeof c.resourceClaimName === 'string') names.add(c.resourceClaimName);
    else if (typeof c.resourceClaimTemplateName === 'string') {
      const status = statuses.find((s) => path(s, 'name') === str(c.name));
      names.add(path(status, 'resourceClaimName'));
    }
  }
  return names.names;
}

/**
 * Whether two pods name the same generated ResourceClaims (`status.resourceClaimStatuses`, in
 * order): the only reference that may change after a pod is bound.
 */
export function sameResourceClaimStatuses(a: ApiObject, b: ApiObject): boolean {
  const sa = list(obj(a.status)?.resourceClaimStatuses);
  const sb = list(obj(b.status)?.resourceClaimStatuses);
  if (sa.length !== sb.length) return false;
  for (let i = 0; i < sa.length; i++) {
    const x = obj(sa[i]);
    const y = obj(sb[i]);
    if (path(x, 'name') !== path(y, 'name')) return false;
    const cx = x?.resourceClaimName;
    const cy = y?.resourceClaimName;
    if ((typeof cx === 'string') !== (typeof cy === 'string') || (typeof cx === 'string' && cx !== cy)) return false;
  }
  return true;
}

/** A namespaced object's name. */
export interface NamespacedName {
  readonly namespace: string;
  readonly name: string;
}

/** What a PersistentVolume lets the nodes of its claim read. */
export interface PersistentVolumeReferences {
  readonly name: string;
  /** `spec.claimRef`; undefined when the volume is not bound to a claim. */
  readonly claim: NamespacedName | undefined;
  /** Secrets the kubelet reads to mount the volume. */
  readonly secrets: readonly NamespacedName[];
}

/** Volume sources whose `secretRef.namespace` defaults to the claim's namespace. */
const CLAIM_NAMESPACED_SECRET_REFS = ['cephfs', 'flexVolume', 'rbd', 'scaleIO', 'iscsi'] as const;
/** Volume sources whose `secretRef.namespace` is taken as it is. */
const EXPLICIT_SECRET_REFS = ['cinder', 'storageos'] as const;
/** CSI secrets the kubelet uses (the controller ones are not the node's business). */
const CSI_NODE_SECRETS = ['nodePublishSecretRef', 'nodeStageSecretRef', 'nodeExpandSecretRef'] as const;

/**
 * The references kube-apiserver's node graph records for a PersistentVolume (`AddPV`): its
 * claim, and the kubelet-visible secrets of its source, each in its `namespace` or, where kube
 * defaults it so, the claim's namespace (azureFile `secretNamespace`; cephfs, flexVolume, rbd,
 * scaleIO and iscsi `secretRef.namespace`). A volume without a claim references nothing.
 */
export function persistentVolumeReferences(pv: ApiObject): PersistentVolumeReferences {
  const name = str(pv.metadata.name);
  const spec = obj(pv.spec) ?? {};
  const claimRef = obj(spec.claimRef);
  if (!claimRef) return { name, claim: undefined, secrets: [] };
  const claim = { namespace: str(claimRef.namespace), name: str(claimRef.name) };
  const secrets: NamespacedName[] = [];
  const add = (namespace: string, secret: string) => {
    if (secret === '' || secrets.some((s) => s.namespace === namespace && s.name === secret)) return;
    secrets.push({ namespace, name: secret });
  };
  const azure = obj(spec.azureFile);
  if (azure) add(str(azure.secretNamespace) || claim.namespace, str(azure.secretName));
  for (const source of CLAIM_NAMESPACED_SECRET_REFS) {
    const ref = obj(obj(spec[source])?.secretRef);
    if (ref) add(str(ref.namespace) || claim.namespace, str(ref.name));
  }
  for (const source of EXPLICIT_SECRET_REFS) {
    const ref = obj(obj(spec[source])?.secretRef);
    if (ref) add(str(ref.namespace), str(ref.name));
  }
  const csi = obj(spec.csi);
  for (const key of CSI_NODE_SECRETS) {
    const ref = obj(csi?.[key]);
    if (ref) add(str(ref.namespace), str(ref.name));
  }
  return { name, claim, secrets };
}
