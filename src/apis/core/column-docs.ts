import type { Schema } from '../schema/schema.js';
import { describeField } from '../table/column-helpers.js';

/**
 * kube v1.32's `SwaggerDoc()` texts of the fields the core printers describe their columns with,
 * keyed by the field's path from the object; used when the schema carries no description.
 */
const FIELD_DOCS: Readonly<Record<string, string>> = {
  'status.podIP':
    'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
  'spec.nodeName':
    'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename',
  'status.nominatedNodeName':
    'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.',
  'spec.readinessGates':
    'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
  'status.nodeInfo.kubeletVersion': 'Kubelet Version reported by the node.',
  'status.addresses':
    "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
  'status.nodeInfo.osImage': 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
  'status.nodeInfo.kernelVersion': "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
  'status.nodeInfo.containerRuntimeVersion':
    'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
  'pv.spec.capacity':
    "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
  'pv.spec.accessModes':
    'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes',
  'pv.spec.persistentVolumeReclaimPolicy':
    'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming',
  'pv.status.phase':
    'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase',
  'pv.spec.claimRef':
    'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding',
  'pv.status.reason':
    'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
  'pv.spec.volumeMode':
    'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.',
  'pvc.status.phase': 'phase represents the current phase of PersistentVolumeClaim.',
  'pvc.spec.volumeName': 'volumeName is the binding reference to the PersistentVolume backing this claim.',
  'pvc.status.capacity': 'capacity represents the actual resources of the underlying volume.',
  'pvc.status.accessModes':
    'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1',
  'pvc.spec.volumeMode':
    'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.',
};

/**
 * The description of the field at `path` in `schema`, or kube's text for it when the schema has
 * none; `prefix` tells apart kinds whose fields share a path (`pv`, `pvc`).
 */
export function fieldDoc(schema: Schema, path: readonly string[], prefix = ''): string {
  return describeField(schema, ...path) || FIELD_DOCS[[...(prefix ? [prefix] : []), ...path].join('.')] || '';
}
