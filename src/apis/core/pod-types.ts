/**
 * The parts of core/v1 Pod, PodTemplate and their nested types that defaulting, validation and
 * the printers read, as plain JSON. Every field is optional: these describe objects that have
 * passed schema validation, not objects that are complete.
 */
import type { ApiObject, ObjectMeta } from '../object.js';
import type { LabelSelectorObject } from '../selectors/label-selector-object.js';

/** `map[ResourceName]Quantity`: quantities as their string form. */
export type ResourceList = Record<string, string>;

export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
  claims?: { name?: string; request?: string }[];
}

export interface ContainerPort {
  name?: string;
  hostPort?: number;
  containerPort?: number;
  protocol?: string;
  hostIP?: string;
}

export interface EnvVar {
  name?: string;
  value?: string;
  valueFrom?: {
    fieldRef?: { apiVersion?: string; fieldPath?: string };
    resourceFieldRef?: { containerName?: string; resource?: string; divisor?: string };
    configMapKeyRef?: { name?: string; key?: string; optional?: boolean };
    secretKeyRef?: { name?: string; key?: string; optional?: boolean };
  };
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

export interface VolumeMount {
  name?: string;
  readOnly?: boolean;
  recursiveReadOnly?: string;
  mountPath?: string;
  subPath?: string;
  mountPropagation?: string;
  subPathExpr?: string;
}

export interface VolumeDevice {
  name?: string;
  devicePath?: string;
}

/** `intstr.IntOrString` as JSON. */
export type IntOrString = number | string;

export interface ProbeHandler {
  exec?: { command?: string[] };
  httpGet?: {
    path?: string;
    port?: IntOrString;
    host?: string;
    scheme?: string;
    httpHeaders?: { name?: string; value?: string }[];
  };
  tcpSocket?: { port?: IntOrString; host?: string };
  grpc?: { port?: number; service?: string };
  sleep?: { seconds?: number };
}

export interface Probe extends ProbeHandler {
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface Lifecycle {
  postStart?: ProbeHandler;
  preStop?: ProbeHandler;
  stopSignal?: string;
}

export interface SecurityContext {
  privileged?: boolean;
  runAsUser?: number;
  runAsGroup?: number;
  windowsOptions?: unknown;
  [key: string]: unknown;
}

export interface Container {
  name?: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  ports?: ContainerPort[];
  envFrom?: EnvFromSource[];
  env?: EnvVar[];
  resources?: ResourceRequirements;
  resizePolicy?: { resourceName?: string; restartPolicy?: string }[];
  restartPolicy?: string;
  volumeMounts?: VolumeMount[];
  volumeDevices?: VolumeDevice[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: Lifecycle;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  imagePullPolicy?: string;
  securityContext?: SecurityContext;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
  /** Ephemeral containers only. */
  targetContainerName?: string;
}

export interface KeyToPath {
  key?: string;
  path?: string;
  mode?: number;
}

/** A `Volume`: its name and exactly one source, each source an object. */
export interface Volume {
  name?: string;
  [source: string]: unknown;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface NodeSelectorRequirement {
  key?: string;
  operator?: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelectorObject;
  namespaceSelector?: LabelSelectorObject;
  namespaces?: string[];
  topologyKey?: string;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
    preferredDuringSchedulingIgnoredDuringExecution?: { weight?: number; preference?: NodeSelectorTerm }[];
  };
  podAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: { weight?: number; podAffinityTerm?: PodAffinityTerm }[];
  };
  podAntiAffinity?: Affinity['podAffinity'];
}

export interface PodSecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  fsGroup?: number;
  supplementalGroups?: number[];
  fsGroupChangePolicy?: string;
  sysctls?: { name?: string; value?: string }[];
  [key: string]: unknown;
}

export interface PodSpec {
  volumes?: Volume[];
  initContainers?: Container[];
  containers?: Container[];
  ephemeralContainers?: Container[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: string;
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  nodeName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  shareProcessNamespace?: boolean;
  securityContext?: PodSecurityContext;
  imagePullSecrets?: { name?: string }[];
  hostname?: string;
  subdomain?: string;
  affinity?: Affinity;
  schedulerName?: string;
  tolerations?: Toleration[];
  hostAliases?: { ip?: string; hostnames?: string[] }[];
  priorityClassName?: string;
  priority?: number;
  dnsConfig?: { nameservers?: string[]; searches?: string[]; options?: { name?: string; value?: string }[] };
  readinessGates?: { conditionType?: string }[];
  runtimeClassName?: string;
  enableServiceLinks?: boolean;
  preemptionPolicy?: string;
  overhead?: ResourceList;
  topologySpreadConstraints?: Record<string, unknown>[];
  setHostnameAsFQDN?: boolean;
  os?: { name?: string };
  hostUsers?: boolean;
  schedulingGates?: { name?: string }[];
  resourceClaims?: { name?: string; resourceClaimName?: string; resourceClaimTemplateName?: string }[];
  resources?: ResourceRequirements;
}

export interface PodCondition {
  type?: string;
  status?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

export interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: { exitCode?: number; signal?: number; reason?: string; message?: string; finishedAt?: string };
}

export interface ContainerStatus {
  name?: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready?: boolean;
  restartCount?: number;
  started?: boolean;
  image?: string;
  imageID?: string;
}

export interface PodStatus {
  phase?: string;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  hostIPs?: { ip?: string }[];
  podIP?: string;
  podIPs?: { ip?: string }[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  ephemeralContainerStatuses?: ContainerStatus[];
  qosClass?: string;
}

export interface Pod extends ApiObject {
  spec?: PodSpec;
  status?: PodStatus;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

export interface PodTemplate extends ApiObject {
  template?: PodTemplateSpec;
}
