import type { Schema } from '../schema/schema.js';
import { describeField } from '../table/column-helpers.js';

/**
 * Orch's own short descriptions of the fields the core printers describe their columns with,
 * keyed by the field's path from the object; used when the schema carries no description.
 */
const FIELD_DOCS: Readonly<Record<string, string>> = {
  'status.podIP': "The pod's IP address, empty until one is allocated.",
  'spec.nodeName': 'The node the pod is bound to; empty while the pod waits to be scheduled.',
  'status.nominatedNodeName': 'The node a preempting pod expects to run on once its victims are gone.',
  'spec.readinessGates': 'Extra pod conditions that must be True before the pod counts as ready.',
  'status.nodeInfo.kubeletVersion': 'The node agent version the node reports.',
  'status.addresses': 'The addresses at which the node can be reached.',
  'status.nodeInfo.osImage': 'The operating system image the node reports.',
  'status.nodeInfo.kernelVersion': 'The kernel version the node reports.',
  'status.nodeInfo.containerRuntimeVersion': 'The container runtime and its version, as the node reports them.',
  'pv.spec.capacity': "The volume's capacity.",
  'pv.spec.accessModes': 'The ways the volume can be mounted.',
  'pv.spec.persistentVolumeReclaimPolicy': 'What happens to the volume once its claim releases it.',
  'pv.status.phase': 'Whether the volume is available, bound, released or failed.',
  'pv.spec.claimRef': 'The claim the volume is bound to.',
  'pv.status.reason': 'A short machine-readable reason for a failure.',
  'pv.spec.volumeMode': 'Filesystem or Block; Filesystem when unset.',
  'pvc.status.phase': "The claim's current phase.",
  'pvc.spec.volumeName': 'The volume bound to this claim.',
  'pvc.status.capacity': 'The capacity of the bound volume.',
  'pvc.status.accessModes': 'The access modes of the bound volume.',
  'pvc.spec.volumeMode': 'Filesystem or Block, as the claim requires; Filesystem when unset.',
};

/**
 * The description of the field at `path` in `schema`, or Orch's own text for it when the schema
 * has none; `prefix` tells apart kinds whose fields share a path (`pv`, `pvc`).
 */
export function fieldDoc(schema: Schema, path: readonly string[], prefix = ''): string {
  return describeField(schema, ...path) || FIELD_DOCS[[...(prefix ? [prefix] : []), ...path].join('.')] || '';
}
