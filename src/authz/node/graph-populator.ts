import type { ApiObject } from '../../apis/object.js';
import type { NodeGraph } from './node-graph.js';
import { persistentVolumeReferences, podReferences, sameResourceClaimStatuses } from './object-references.js';

/** The watch events one resource feeds into the graph. */
export interface GraphHandlers {
  onAdd(obj: ApiObject): void;
  onUpdate(oldObj: ApiObject, newObj: ApiObject): void;
  onDelete(obj: ApiObject): void;
  /**
   * True when `onAdd` would do nothing with an object, told from its encoded form without
   * decoding it (`mentions` is false when the object's JSON does not contain `text`).
   */
  ignoresAdd?(encoded: { mentions?(text: string): boolean }): boolean;
}

/** How the populator reads objects. */
export interface GraphPopulatorOptions {
  /** The annotation marking mirror pods (`kubernetes.io/config.mirror`). */
  readonly mirrorPodAnnotation: string;
}

function nodeNameOf(obj: ApiObject): string {
  const spec = obj.spec as { nodeName?: unknown } | undefined;
  return typeof spec?.nodeName === 'string' ? spec.nodeName : '';
}

/**
 * The event handlers that keep a {@link NodeGraph} current, as kube-apiserver's graph populator
 * does: pods are recorded once bound, and an update is applied only when it can change what the
 * pod references (another node or uid, that is a new pod under the same name, or other
 * generated ResourceClaims; everything else a pod references is immutable); PVs on every change;
 * VolumeAttachments when their node changes; ResourceSlices by `spec.nodeName` (immutable).
 * Deletes remove the object. Handlers never throw.
 */
export function graphPopulator(
  graph: NodeGraph,
  o: GraphPopulatorOptions,
): {
  pods: GraphHandlers;
  persistentVolumes: GraphHandlers;
  volumeAttachments: GraphHandlers;
  resourceSlices: GraphHandlers;
} {
  const setPod = (pod: ApiObject) => graph.setPod(podReferences(pod, o.mirrorPodAnnotation));
  const name = (obj: ApiObject) => obj.metadata.name ?? '';
  return {
    pods: {
      onAdd: (pod) => {
        if (nodeNameOf(pod) !== '') setPod(pod);
      },
      // A pod that names no node (not yet scheduled) is not recorded.
      ignoresAdd: (shared) => shared.mentions?.('"nodeName"') === false,
      onUpdate: (old, pod) => {
        const node = nodeNameOf(pod);
        if (node === '') {
          // An unbound pod under a bound one's name is another pod: the old one's record goes.
          if (nodeNameOf(old) !== '') graph.deletePod(pod.metadata.namespace ?? '', name(pod));
          return;
        }
        if (node === nodeNameOf(old) && pod.metadata.uid === old.metadata.uid && sameResourceClaimStatuses(old, pod)) {
          return;
        }
        setPod(pod);
      },
      onDelete: (pod) => graph.deletePod(pod.metadata.namespace ?? '', name(pod)),
    },
    persistentVolumes: {
      onAdd: (pv) => graph.setPersistentVolume(persistentVolumeReferences(pv)),
      onUpdate: (_old, pv) => graph.setPersistentVolume(persistentVolumeReferences(pv)),
      onDelete: (pv) => graph.deletePersistentVolume(name(pv)),
    },
    volumeAttachments: {
      onAdd: (va) => graph.setVolumeAttachment(name(va), nodeNameOf(va)),
      onUpdate: (old, va) => {
        if (nodeNameOf(old) !== nodeNameOf(va)) graph.setVolumeAttachment(name(va), nodeNameOf(va));
      },
      onDelete: (va) => graph.deleteVolumeAttachment(name(va)),
    },
    resourceSlices: {
      onAdd: (slice) => graph.setResourceSlice(name(slice), nodeNameOf(slice)),
      onUpdate: (_old, slice) => graph.setResourceSlice(name(slice), nodeNameOf(slice)),
      onDelete: (slice) => graph.deleteResourceSlice(name(slice)),
    },
  };
}
