/**
 * kube v1.32's core/v1 defaulting of pod specs (`SetDefaults_PodSpec` and every nested type's
 * defaults: containers, ports, probes, handlers, volumes and their sources) and of pods
 * (`SetDefaults_Pod`). All functions mutate their argument and are idempotent; values that are
 * not of the expected JSON type are left alone for validation to report.
 */
import { isPlainObject } from '../schema/json-value.js';
import type { Container, Pod, PodSpec, PodTemplateSpec, Probe, ProbeHandler, Volume } from './pod-types.js';

/** `v1.DefaultTerminationGracePeriodSeconds`. */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
/** `v1.DefaultSchedulerName`. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** `v1.TerminationMessagePathDefault`. */
export const DEFAULT_TERMINATION_MESSAGE_PATH = '/dev/termination-log';
/** Mode of files projected from Secrets, ConfigMaps, the downward API (0644). */
export const DEFAULT_VOLUME_FILE_MODE = 0o644;

type Json = Record<string, unknown>;

/**
 * Calls `visit` on each object in `list`, when it is a list; other items are left alone. Runs per
 * request: no array is made for the objects, and `visit` is a named function, not a closure.
 */
function forEachObject<T>(list: unknown, visit: (item: T) => void): void {
  if (!Array.isArray(list)) return;
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    if (isPlainObject(item)) visit(item as T);
  }
}

/**
 * kube's `parsers.ParseImageName` reduced to what defaulting needs: the tag of a reference
 * (`latest` when none and no digest is given). `name@sha256:...` has no tag.
 */
export function imageTag(image: string): string | undefined {
  const at = image.indexOf('@');
  const ref = at === -1 ? image : image.slice(0, at);
  const lastSlash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  if (colon > lastSlash) return ref.slice(colon + 1);
  return at === -1 ? 'latest' : undefined;
}

/** `Always` for `:latest` (or no tag), else `IfNotPresent`. */
export function defaultPullPolicy(image: unknown): string {
  return typeof image === 'string' && imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultHandler(h: ProbeHandler | undefined): void {
  if (!isPlainObject(h)) return;
  const http = h.httpGet;
  if (isPlainObject(http)) {
    http.path ||= '/';
    http.scheme ||= 'HTTP';
  }
  const grpc = h.grpc;
  if (isPlainObject(grpc) && grpc.service === undefined) grpc.service = '';
}

function defaultProbe(p: Probe | undefined): void {
  if (!isPlainObject(p)) return;
  p.timeoutSeconds ||= 1;
  p.periodSeconds ||= 10;
  p.successThreshold ||= 1;
  p.failureThreshold ||= 3;
  defaultHandler(p);
}

function defaultPortProtocol(port: Json): void {
  port.protocol ||= 'TCP';
}

function defaultEnvFieldRef(env: Json): void {
  const fieldRef = isPlainObject(env.valueFrom) ? env.valueFrom.fieldRef : undefined;
  if (isPlainObject(fieldRef)) fieldRef.apiVersion ||= 'v1';
}

/** `SetDefaults_Container` and the defaults of its nested types. */
export function defaultContainer(c: Container): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = defaultPullPolicy(c.image);
  c.terminationMessagePath ||= DEFAULT_TERMINATION_MESSAGE_PATH;
  c.terminationMessagePolicy ||= 'File';
  // A non-pointer struct in Go: always present in kube's output.
  if (c.resources === undefined || c.resources === null) c.resources = {};
  forEachObject(c.ports, defaultPortProtocol);
  forEachObject(c.env, defaultEnvFieldRef);
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  const lifecycle = c.lifecycle;
  if (isPlainObject(lifecycle)) {
    defaultHandler(lifecycle.postStart as ProbeHandler | undefined);
    defaultHandler(lifecycle.preStop as ProbeHandler | undefined);
  }
}

function defaultMode(source: unknown): void {
  if (isPlainObject(source) && source.defaultMode === undefined) source.defaultMode = DEFAULT_VOLUME_FILE_MODE;
}

function defaultDownwardItems(source: unknown): void {
  if (isPlainObject(source)) forEachObject(source.items, defaultItemFieldRef);
}

function defaultItemFieldRef(item: Json): void {
  if (isPlainObject(item.fieldRef)) item.fieldRef.apiVersion ||= 'v1';
}

/** Whether a volume names a source: any field but `name` that is set. */
function hasSource(v: Volume): boolean {
  for (const key in v) {
    if (key !== 'name' && v[key] !== undefined && v[key] !== null) return true;
  }
  return false;
}

function defaultProjection(src: Json): void {
  const token = src.serviceAccountToken;
  if (isPlainObject(token) && token.expirationSeconds === undefined) token.expirationSeconds = 3600;
  defaultDownwardItems(src.downwardAPI);
}

/** `SetDefaults_Volume` (an empty source is an emptyDir) and the defaults of each source. */
export function defaultVolume(v: Volume): void {
  if (!hasSource(v)) v.emptyDir = {};
  defaultMode(v.secret);
  defaultMode(v.configMap);
  defaultMode(v.downwardAPI);
  defaultDownwardItems(v.downwardAPI);
  if (isPlainObject(v.hostPath) && v.hostPath.type === undefined) v.hostPath.type = '';
  if (isPlainObject(v.projected)) {
    defaultMode(v.projected);
    forEachObject(v.projected.sources, defaultProjection);
  }
  if (isPlainObject(v.iscsi)) v.iscsi.iscsiInterface ||= 'default';
  if (isPlainObject(v.rbd)) {
    v.rbd.pool ||= 'rbd';
    v.rbd.user ||= 'admin';
    v.rbd.keyring ||= '/etc/ceph/keyring';
  }
  if (isPlainObject(v.azureDisk)) {
    v.azureDisk.cachingMode ??= 'ReadWrite';
    v.azureDisk.fsType ??= 'ext4';
    v.azureDisk.readOnly ??= false;
    v.azureDisk.kind ??= 'Shared';
  }
  if (isPlainObject(v.scaleIO)) {
    v.scaleIO.storageMode ||= 'ThinProvisioned';
    v.scaleIO.fsType ||= 'xfs';
  }
  const template = isPlainObject(v.ephemeral) ? v.ephemeral.volumeClaimTemplate : undefined;
  if (isPlainObject(template) && isPlainObject(template.spec)) template.spec.volumeMode ??= 'Filesystem';
}

/**
 * kube's defaulting of a `PodSpec` wherever it appears (pods and the templates of workloads):
 * `dnsPolicy` ClusterFirst, `restartPolicy` Always, `securityContext` {},
 * `terminationGracePeriodSeconds` 30, `schedulerName` default-scheduler, then every container
 * (all three lists), volume, probe and handler. Also keeps the deprecated `serviceAccount` in step
 * with `serviceAccountName`, as kube's v1 conversion does.
 */
export function defaultPodSpec(spec: PodSpec): void {
  if (!isPlainObject(spec)) return;
  spec.dnsPolicy ||= 'ClusterFirst';
  spec.restartPolicy ||= 'Always';
  if (spec.securityContext === undefined || spec.securityContext === null) spec.securityContext = {};
  spec.terminationGracePeriodSeconds ??= DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  spec.schedulerName ||= DEFAULT_SCHEDULER_NAME;
  if (!spec.serviceAccountName && typeof spec.serviceAccount === 'string' && spec.serviceAccount) {
    spec.serviceAccountName = spec.serviceAccount;
  }
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  else delete spec.serviceAccount;
  forEachObject(spec.containers, defaultContainer);
  forEachObject(spec.initContainers, defaultContainer);
  forEachObject(spec.ephemeralContainers, defaultContainer);
  forEachObject(spec.volumes, defaultVolume);
}

/** The defaults of a `PodTemplateSpec` (workload templates): those of its pod spec. */
export function defaultPodTemplateSpec(template: PodTemplateSpec): void {
  if (isPlainObject(template) && isPlainObject(template.spec)) defaultPodSpec(template.spec);
}

function requestsFromLimits(c: Container): void {
  const res = c.resources;
  if (!isPlainObject(res) || !isPlainObject(res.limits)) return;
  if (!isPlainObject(res.requests)) res.requests = {};
  const requests = res.requests as Record<string, string>;
  const limits = res.limits as Record<string, string>;
  for (const name of Object.keys(limits)) {
    if (!Object.hasOwn(requests, name)) requests[name] = limits[name]!;
  }
}

/** With the host's network, a container port without a host port is its own host port. */
function hostPortsFromContainerPorts(c: Container): void {
  forEachObject(c.ports, defaultHostPort);
}

function defaultHostPort(port: Json): void {
  if (!port.hostPort) port.hostPort = port.containerPort;
}

/**
 * kube's defaulting of a Pod: the pod spec's defaults, then `SetDefaults_Pod`: containers and
 * init containers request what they limit unless they say otherwise, `enableServiceLinks` true,
 * and with `hostNetwork` every container port without a host port gets its container port.
 */
export function defaultPod(pod: Pod): void {
  if (!isPlainObject(pod.spec)) return;
  const spec = pod.spec;
  defaultPodSpec(spec);
  forEachObject(spec.containers, requestsFromLimits);
  forEachObject(spec.initContainers, requestsFromLimits);
  spec.enableServiceLinks ??= true;
  if (spec.hostNetwork === true) {
    forEachObject(spec.containers, hostPortsFromContainerPorts);
    forEachObject(spec.initContainers, hostPortsFromContainerPorts);
  }
}
