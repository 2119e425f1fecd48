/**
 * kube's validation of a pod spec's containers (`validateContainers`, `validateInitContainers`,
 * `validateEphemeralContainers` and the `validateContainerCommon` they share): names, images,
 * ports, environment, mounts and devices against the pod's volumes, pull and restart policies,
 * resources, probes and lifecycle hooks, security context, host-port conflicts.
 */
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Label } from '../meta/name-validation.js';
import { addEnvErrors, addEnvFromErrors } from './env-validation.js';
import type { Container, ContainerPort, SecurityContext, Volume, VolumeDevice, VolumeMount } from './pod-types.js';
import { validateLifecycle, validateProbeOfKind } from './probe-validation.js';
import { addContainerResourceErrors } from './resource-validation.js';
import { isValidGroupID, isValidPortName, isValidPortNum, isValidUserID } from './value-formats.js';
import { validateLocalDescendingPath, validateNoBacksteps } from './volume-validation.js';

/** What every container of a pod spec is checked against. */
export interface ContainerContext {
  /** The pod's valid volumes by name. */
  readonly volumes: ReadonlyMap<string, Volume>;
  /** Names in `spec.resourceClaims`. */
  readonly podClaimNames: ReadonlySet<string>;
  readonly restartPolicy: string;
  readonly gracePeriod?: number;
}

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];

/*
 * The checks below add their errors to one list and are given the container's path: the path of
 * a field below it is written only for an error, so that a valid container costs no strings.
 */

/** Up to this many entries, a list's earlier entries are scanned for a repeat, not put in a Set. */
const SCANNED_ENTRIES = 16;

function portPath(path: string, i: number, field: string): string {
  return `${path}.ports[${i}].${field}`;
}

function addPortErrors(errs: FieldError[], ports: readonly ContainerPort[] | undefined, path: string): void {
  if (!ports) return;
  // kube keeps a set of the valid names seen; a short list is scanned instead.
  const names = ports.length > SCANNED_ENTRIES ? new Set<string>() : undefined;
  for (let i = 0; i < ports.length; i++) {
    const port = ports[i]!;
    const name = port.name;
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) for (const m of msgs) errs.push(fieldErrors.invalid(portPath(path, i, 'name'), name, m));
      else if (names ? names.has(name) : validNameBefore(ports, i, name)) {
        errs.push(fieldErrors.duplicate(portPath(path, i, 'name'), name));
      } else names?.add(name);
    }
    if (!port.containerPort) errs.push(fieldErrors.required(portPath(path, i, 'containerPort')));
    else {
      for (const m of isValidPortNum(port.containerPort)) {
        errs.push(fieldErrors.invalid(portPath(path, i, 'containerPort'), port.containerPort, m));
      }
    }
    if (port.hostPort) {
      for (const m of isValidPortNum(port.hostPort)) {
        errs.push(fieldErrors.invalid(portPath(path, i, 'hostPort'), port.hostPort, m));
      }
    }
    if (!port.protocol) errs.push(fieldErrors.required(portPath(path, i, 'protocol')));
    else if (!PROTOCOLS.includes(port.protocol)) {
      errs.push(fieldErrors.notSupported(portPath(path, i, 'protocol'), port.protocol, PROTOCOLS));
    }
  }
}

/** Whether a port before `i` has the valid name `name`. */
function validNameBefore(ports: readonly ContainerPort[], i: number, name: string): boolean {
  for (let j = 0; j < i; j++) if (ports[j]!.name === name) return true;
  return false;
}

/** A list with at least one item (an absent or empty one has nothing to check). */
export function hasItems<T>(list: readonly T[] | null | undefined): list is readonly T[] {
  return (list?.length ?? 0) > 0;
}

/** Whether a mount before `i` has the mount path `mountPath`. */
function mountedBefore(mounts: readonly VolumeMount[], i: number, mountPath: string): boolean {
  for (let j = 0; j < i; j++) if ((mounts[j]!.mountPath ?? '') === mountPath) return true;
  return false;
}

function addMountErrors(errs: FieldError[], c: Container, ctx: ContainerContext, path: string): void {
  const mounts = c.volumeMounts;
  if (!hasItems(mounts)) return;
  // A device name given twice counts with its last path, as in kube's map of them.
  const devices = hasItems(c.volumeDevices)
    ? new Map(c.volumeDevices.map((d) => [d.name ?? '', d.devicePath ?? '']))
    : undefined;
  const devicePaths = devices ? new Set(devices.values()) : undefined;
  const mountPoints = mounts.length > SCANNED_ENTRIES ? new Set<string>() : undefined;
  const list = `${path}.volumeMounts`;
  for (let i = 0; i < mounts.length; i++) {
    const m = mounts[i]!;
    const name = m.name ?? '';
    const mountPath = m.mountPath ?? '';
    if (!name) errs.push(fieldErrors.required(`${list}[${i}].name`));
    if (!ctx.volumes.has(name)) errs.push(fieldErrors.notFound(`${list}[${i}].name`, name));
    if (!mountPath) errs.push(fieldErrors.required(`${list}[${i}].mountPath`));
    if (mountPoints ? mountPoints.has(mountPath) : mountedBefore(mounts, i, mountPath)) {
      errs.push(fieldErrors.invalid(`${list}[${i}].mountPath`, mountPath, 'must be unique'));
    }
    mountPoints?.add(mountPath);
    if (devices?.has(name)) {
      errs.push(fieldErrors.invalid(`${list}[${i}].name`, name, 'must not already exist in volumeDevices'));
    }
    if (devicePaths?.has(mountPath)) {
      errs.push(
        fieldErrors.invalid(`${list}[${i}].mountPath`, mountPath, 'must not already exist as a path in volumeDevices'),
      );
    }
    // kube reports sub-path problems under the list's path, not the mount's.
    if (m.subPath) errs.push(...validateLocalDescendingPath(m.subPath, `${list}.subPath`));
    if (m.subPathExpr) {
      if (m.subPath) {
        errs.push(
          fieldErrors.invalid(
            `${list}[${i}].subPathExpr`,
            m.subPathExpr,
            'subPathExpr and subPath are mutually exclusive',
          ),
        );
      }
      errs.push(...validateLocalDescendingPath(m.subPathExpr, `${list}.subPathExpr`));
    }
    if (m.mountPropagation !== undefined) {
      if (!MOUNT_PROPAGATIONS.includes(m.mountPropagation)) {
        errs.push(fieldErrors.notSupported(`${list}.mountPropagation`, m.mountPropagation, MOUNT_PROPAGATIONS));
      } else if (m.mountPropagation === 'Bidirectional' && c.securityContext?.privileged !== true) {
        errs.push(
          fieldErrors.forbidden(
            `${list}.mountPropagation`,
            'Bidirectional mount propagation is available only to privileged containers',
          ),
        );
      }
    }
  }
}

function addDeviceErrors(errs: FieldError[], c: Container, ctx: ContainerContext, path: string): void {
  if (!hasItems(c.volumeDevices)) return;
  const list = `${path}.volumeDevices`;
  const mounts = new Map((c.volumeMounts ?? []).map((m) => [m.name ?? '', m.mountPath ?? '']));
  const mountPaths = new Set(mounts.values());
  const names = new Set<string>();
  const paths = new Set<string>();
  c.volumeDevices.forEach((d: VolumeDevice, i) => {
    const p = `${list}[${i}]`;
    const name = d.name ?? '';
    const devPath = d.devicePath ?? '';
    const volume = ctx.volumes.get(name);
    if (!name) errs.push(fieldErrors.required(`${p}.name`));
    if (names.has(name)) errs.push(fieldErrors.invalid(`${p}.name`, name, 'must be unique'));
    if (volume && volume.persistentVolumeClaim == null && volume.ephemeral == null) {
      errs.push(
        fieldErrors.invalid(
          `${p}.name`,
          name,
          'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
        ),
      );
    }
    if (!volume) errs.push(fieldErrors.notFound(`${p}.name`, name));
    if (!devPath) errs.push(fieldErrors.required(`${p}.devicePath`));
    if (paths.has(devPath)) errs.push(fieldErrors.invalid(`${p}.devicePath`, devPath, 'must be unique'));
    if (devPath && validateNoBacksteps(devPath, '').length > 0) {
      errs.push(fieldErrors.invalid(`${p}.devicePath`, devPath, "can not contain backsteps ('..')"));
    } else {
      paths.add(devPath);
    }
    if (mounts.has(name)) errs.push(fieldErrors.invalid(`${p}.name`, name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(devPath)) {
      errs.push(fieldErrors.invalid(`${p}.devicePath`, devPath, 'must not already exist as a path in volumeMounts'));
    }
    if (name) names.add(name);
  });
}

function addSecurityContextErrors(errs: FieldError[], sc: SecurityContext | undefined, path: string): void {
  if (!sc) return;
  if (typeof sc.runAsUser === 'number') {
    for (const m of isValidUserID(sc.runAsUser)) {
      errs.push(fieldErrors.invalid(`${path}.securityContext.runAsUser`, sc.runAsUser, m));
    }
  }
  if (typeof sc.runAsGroup === 'number') {
    for (const m of isValidGroupID(sc.runAsGroup)) {
      errs.push(fieldErrors.invalid(`${path}.securityContext.runAsGroup`, sc.runAsGroup, m));
    }
  }
  if (sc.allowPrivilegeEscalation === false && sc.privileged === true) {
    errs.push(
      fieldErrors.invalid(
        `${path}.securityContext`,
        sc,
        'cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
      ),
    );
  }
}

function addResizePolicyErrors(errs: FieldError[], c: Container, path: string, restartPolicy: string): void {
  const policies = c.resizePolicy;
  if (!hasItems(policies)) return;
  const list = `${path}.resizePolicy`;
  const seen = new Set<string>();
  policies.forEach((policy, i) => {
    const resource = policy.resourceName ?? '';
    if (seen.has(resource)) errs.push(fieldErrors.duplicate(`${list}[${i}]`, resource));
    seen.add(resource);
    if (!resource) errs.push(fieldErrors.required(list));
    else if (resource !== 'cpu' && resource !== 'memory') {
      errs.push(fieldErrors.notSupported(list, resource, ['cpu', 'memory']));
    }
    const rp = policy.restartPolicy ?? '';
    if (!rp) errs.push(fieldErrors.required(list));
    else if (rp !== 'NotRequired' && rp !== 'RestartContainer') {
      errs.push(fieldErrors.notSupported(list, rp, ['NotRequired', 'RestartContainer']));
    }
    if (restartPolicy === 'Never' && rp !== 'NotRequired') {
      errs.push(fieldErrors.invalid(list, rp, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
    }
  });
}

/** kube's `validateContainerCommon`: what every kind of container must satisfy. */
export function validateContainerCommon(c: Container, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  addContainerCommonErrors(errs, c, ctx, path);
  return errs;
}

function addContainerCommonErrors(errs: FieldError[], c: Container, ctx: ContainerContext, path: string): void {
  if (!c.name) errs.push(fieldErrors.required(`${path}.name`));
  else for (const m of isDNS1123Label(c.name)) errs.push(fieldErrors.invalid(`${path}.name`, c.name, m));
  if (!c.image) errs.push(fieldErrors.required(`${path}.image`));
  const tmp = c.terminationMessagePolicy ?? '';
  if (!tmp) errs.push(fieldErrors.required(`${path}.terminationMessagePolicy`));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(tmp)) {
    errs.push(fieldErrors.notSupported(`${path}.terminationMessagePolicy`, tmp, TERMINATION_MESSAGE_POLICIES));
  }
  addPortErrors(errs, c.ports, path);
  addEnvErrors(errs, c.env, path);
  addEnvFromErrors(errs, c.envFrom, path);
  addMountErrors(errs, c, ctx, path);
  addDeviceErrors(errs, c, ctx, path);
  const pull = c.imagePullPolicy ?? '';
  if (!pull) errs.push(fieldErrors.required(`${path}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(pull)) {
    errs.push(fieldErrors.notSupported(`${path}.imagePullPolicy`, pull, PULL_POLICIES));
  }
  if (c.resources) addContainerResourceErrors(errs, c.resources, path, ctx.podClaimNames);
  addResizePolicyErrors(errs, c, path, ctx.restartPolicy);
  addSecurityContextErrors(errs, c.securityContext, path);
}

/** kube's `AccumulateUniqueHostPorts`: a `protocol/hostIP/hostPort` is bound once (`seen` made when first needed). */
function addHostPortConflicts(
  errs: FieldError[],
  containers: readonly Container[],
  path: string,
  seen: Set<string> | undefined = undefined,
): Set<string> | undefined {
  let bound = seen;
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((port, pi) => {
      if (!port.hostPort) return;
      const key = `${port.protocol ?? ''}/${port.hostIP ?? ''}/${port.hostPort}`;
      bound ??= new Set();
      if (bound.has(key)) errs.push(fieldErrors.duplicate(`${path}[${ci}].ports[${pi}].hostPort`, key));
      else bound.add(key);
    });
  });
  return bound;
}

function addProbeAndHookErrors(errs: FieldError[], c: Container, ctx: ContainerContext, path: string): void {
  if (c.lifecycle) errs.push(...validateLifecycle(c.lifecycle, `${path}.lifecycle`, ctx.gracePeriod));
  if (c.livenessProbe) errs.push(...validateProbeOfKind('liveness', c.livenessProbe, `${path}.livenessProbe`));
  if (c.readinessProbe) errs.push(...validateProbeOfKind('readiness', c.readinessProbe, `${path}.readinessProbe`));
  if (c.startupProbe) errs.push(...validateProbeOfKind('startup', c.startupProbe, `${path}.startupProbe`));
}

/** Whether a container before `i` is named `name`. */
function namedBefore(containers: readonly Container[], i: number, name: string): boolean {
  for (let j = 0; j < i; j++) if ((containers[j]!.name ?? '') === name) return true;
  return false;
}

/** kube's `validateContainers` (the regular containers; at least one). */
export function validateContainers(
  containers: readonly Container[] | undefined,
  ctx: ContainerContext,
  path: string,
): FieldError[] {
  if (!containers || containers.length === 0) return [fieldErrors.required(path)];
  const errs: FieldError[] = [];
  const names = containers.length > SCANNED_ENTRIES ? new Set<string>() : undefined;
  for (let i = 0; i < containers.length; i++) {
    const c = containers[i]!;
    const p = `${path}[${i}]`;
    addContainerCommonErrors(errs, c, ctx, p);
    const name = c.name ?? '';
    if (names ? names.has(name) : namedBefore(containers, i, name)) errs.push(fieldErrors.duplicate(`${p}.name`, name));
    else names?.add(name);
    addProbeAndHookErrors(errs, c, ctx, p);
    if (c.restartPolicy !== undefined) {
      errs.push(fieldErrors.forbidden(`${p}.restartPolicy`, 'may not be set for non-init containers'));
    }
  }
  addHostPortConflicts(errs, containers, path);
  return errs;
}

const INIT_ONLY_WITHOUT_ALWAYS = 'may not be set for init containers without restartPolicy=Always';

/** kube's `validateInitContainers`: names unique among all containers; sidecars (`Always`) may probe. */
export function validateInitContainers(
  containers: readonly Container[] | undefined,
  regular: readonly Container[] | undefined,
  ctx: ContainerContext,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set((regular ?? []).map((c) => c.name ?? ''));
  (containers ?? []).forEach((c, i) => {
    const p = `${path}[${i}]`;
    addContainerCommonErrors(errs, c, ctx, p);
    let sidecar = false;
    if (c.restartPolicy !== undefined) {
      if (c.restartPolicy !== 'Always')
        errs.push(fieldErrors.notSupported(`${p}.restartPolicy`, c.restartPolicy, ['Always']));
      sidecar = c.restartPolicy === 'Always';
    }
    if (names.has(c.name ?? '')) errs.push(fieldErrors.duplicate(`${p}.name`, c.name ?? ''));
    else if (c.name) names.add(c.name);
    // Each init container's host ports are checked on their own, as kube does.
    addHostPortConflicts(errs, [c], path);
    if (sidecar) {
      addProbeAndHookErrors(errs, c, ctx, p);
    } else {
      for (const field of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
        if (c[field] !== undefined) errs.push(fieldErrors.forbidden(`${p}.${field}`, INIT_ONLY_WITHOUT_ALWAYS));
      }
    }
    if ((c.resizePolicy ?? []).length > 0) {
      errs.push(fieldErrors.invalid(`${p}.resizePolicy`, c.resizePolicy, 'must not be set for init containers'));
    }
  });
  return errs;
}

/** Fields an ephemeral container may not set (kube's allow-list, inverted). */
const EPHEMERAL_FORBIDDEN = [
  'ports',
  'resources',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'resizePolicy',
  'restartPolicy',
] as const;

/** kube's `validateEphemeralContainers`: common rules, unique names, a real target, limited fields. */
export function validateEphemeralContainers(
  containers: readonly Container[] | undefined,
  others: readonly Container[],
  ctx: ContainerContext,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const otherNames = new Set(others.map((c) => c.name ?? ''));
  const names = new Set(otherNames);
  (containers ?? []).forEach((c, i) => {
    const p = `${path}[${i}]`;
    addContainerCommonErrors(errs, c, ctx, p);
    errs.push(...validateContainerOnlyForPod(c, p));
    if (names.has(c.name ?? '')) errs.push(fieldErrors.duplicate(`${p}.name`, c.name ?? ''));
    else names.add(c.name ?? '');
    if (c.targetContainerName && !otherNames.has(c.targetContainerName)) {
      errs.push(fieldErrors.notFound(`${p}.targetContainerName`, c.targetContainerName));
    }
    for (const field of EPHEMERAL_FORBIDDEN) {
      const v = c[field];
      const empty = v === undefined || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);
      if (!empty) errs.push(fieldErrors.forbidden(`${p}.${field}`, 'cannot be set for an Ephemeral Container'));
    }
    (c.volumeMounts ?? []).forEach((m, j) => {
      for (const field of ['subPath', 'subPathExpr'] as const) {
        if (m[field])
          errs.push(
            fieldErrors.forbidden(`${p}.volumeMounts[${j}].${field}`, 'cannot be set for an Ephemeral Container'),
          );
      }
    });
  });
  return errs;
}

/** kube's `validateContainerOnlyForPod`: a pod's images have no surrounding whitespace. */
export function validateContainerOnlyForPod(c: Container, path: string): FieldError[] {
  const image = c.image ?? '';
  return image !== image.trim()
    ? [fieldErrors.invalid(`${path}.image`, image, 'must not have leading or trailing whitespace')]
    : [];
}
