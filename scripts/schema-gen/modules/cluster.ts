import { builtinModule } from '../externals.js';
import type { ModuleConfig } from '../module-config.js';

const NETWORKING = 'io.k8s.api.networking.v1';
const DISCOVERY = 'io.k8s.api.discovery.v1';
const SCHEDULING = 'io.k8s.api.scheduling.v1';
const NODE = 'io.k8s.api.node.v1';
const STORAGE = 'io.k8s.api.storage.v1';
const CERTIFICATES = 'io.k8s.api.certificates.v1';
const FLOWCONTROL = 'io.k8s.api.flowcontrol.v1';

/** `networking/v1`. */
export const NETWORKING_MODULE: ModuleConfig = builtinModule({
  name: 'networking',
  facts: 'networking-v1',
  goPackage: 'k8s.io/api/networking/v1',
  output: 'src/apis/networking/networking-v1-schemas.ts',
  types: {
    [`${NETWORKING}.Ingress`]: 'Routes external HTTP(S) traffic by host and path to services.',
    [`${NETWORKING}.IngressClass`]: 'Names the controller that implements a class of ingresses, with its parameters.',
    [`${NETWORKING}.NetworkPolicy`]: 'Allows traffic to and from selected pods; everything else to them is denied.',
  },
  uses: ['meta', 'core'],
});

/** `discovery/v1`. */
export const DISCOVERY_MODULE: ModuleConfig = builtinModule({
  name: 'discovery',
  facts: 'discovery-v1',
  goPackage: 'k8s.io/api/discovery/v1',
  output: 'src/apis/discovery/discovery-v1-schemas.ts',
  types: {
    [`${DISCOVERY}.EndpointSlice`]: 'A bounded group of network endpoints of a service, of one address type.',
  },
  uses: ['meta', 'core'],
});

/** `scheduling/v1`. */
export const SCHEDULING_MODULE: ModuleConfig = builtinModule({
  name: 'scheduling',
  facts: 'scheduling-v1',
  goPackage: 'k8s.io/api/scheduling/v1',
  output: 'src/apis/scheduling/scheduling-v1-schemas.ts',
  types: {
    [`${SCHEDULING}.PriorityClass`]: 'Maps a priority class name to the integer priority of the pods that use it.',
  },
  uses: ['meta', 'core'],
});

/** `node/v1`. */
export const NODE_MODULE: ModuleConfig = builtinModule({
  name: 'node',
  facts: 'node-v1',
  goPackage: 'k8s.io/api/node/v1',
  output: 'src/apis/node/node-v1-schemas.ts',
  types: {
    [`${NODE}.RuntimeClass`]:
      'Names a container runtime configuration that pods can select, with its overhead and scheduling.',
  },
  uses: ['meta', 'core'],
});

/** `storage/v1`. */
export const STORAGE_MODULE: ModuleConfig = builtinModule({
  name: 'storage',
  facts: 'storage-v1',
  goPackage: 'k8s.io/api/storage/v1',
  output: 'src/apis/storage/storage-v1-schemas.ts',
  types: {
    [`${STORAGE}.StorageClass`]: 'A class of dynamically provisioned storage: provisioner, parameters and policies.',
    [`${STORAGE}.CSIDriver`]: 'How the cluster talks to one installed CSI volume driver.',
    [`${STORAGE}.CSINode`]: 'The CSI drivers installed on a node and what they report about it.',
    [`${STORAGE}.VolumeAttachment`]: 'A request to attach a volume to a node, and whether it is attached.',
    [`${STORAGE}.CSIStorageCapacity`]: 'Storage capacity a CSI driver reports for one class in one topology segment.',
  },
  uses: ['meta', 'core'],
});

/** `certificates/v1`. */
export const CERTIFICATES_MODULE: ModuleConfig = builtinModule({
  name: 'certificates',
  facts: 'certificates-v1',
  goPackage: 'k8s.io/api/certificates/v1',
  output: 'src/apis/certificates/certificates-v1-schemas.ts',
  types: {
    [`${CERTIFICATES}.CertificateSigningRequest`]:
      'A request for a signer to issue a certificate, with its approval and the result.',
  },
  uses: ['meta', 'core'],
});

/** `flowcontrol.apiserver/v1`. */
export const FLOWCONTROL_MODULE: ModuleConfig = builtinModule({
  name: 'flowcontrol',
  facts: 'flowcontrol-v1',
  goPackage: 'k8s.io/api/flowcontrol/v1',
  output: 'src/apis/flowcontrol/flowcontrol-v1-schemas.ts',
  types: {
    [`${FLOWCONTROL}.FlowSchema`]: 'Classifies requests into flows and assigns them to a priority level.',
    [`${FLOWCONTROL}.PriorityLevelConfiguration`]:
      'A share of the API server\u2019s concurrency and how requests wait for it.',
  },
  uses: ['meta', 'core'],
});

/** `events/v1`: the second view of core/v1 events. */
export const EVENTS_V1_MODULE: ModuleConfig = builtinModule({
  name: 'events-v1',
  facts: 'events-v1',
  goPackage: 'k8s.io/api/events/v1',
  output: 'src/apis/events/events-v1-schemas.ts',
  types: {
    'io.k8s.api.events.v1.Event': 'A report of something that happened to an object, by the component that saw it.',
  },
  uses: ['meta', 'core'],
});
