/**
 * kube's validation of a pod spec's containers (`validateContainers`, `validateInitContainers`,
 * `validateEphemeralContainers` and the `validateContainerCommon` they share): names, images,
 * ports, environment, mounts and devices against the pod's volumes, pull and restart policies,
 * resources, probes and lifecycle hooks, security context, host-port conflicts.
 */
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Label } from '../meta/name-validation.js';
import { validateEnv, validateEnvFrom } from './env-validation.js';
import type { Container, ContainerPort, SecurityContext, Volume, VolumeDevice, VolumeMount } from './pod-types.js';
import { validateLifecycle, validateProbeOfKind } from './probe-validation.js';
import { validateContainerResources } from './resource-validation.js';
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

function validatePorts(ports: readonly ContainerPort[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (ports ?? []).forEach((port, i) => {
    const p = `${path}[${i}]`;
    if (port.name) {
      const msgs = isValidPortName(port.name);
      if (msgs.length > 0) errs.push(...msgs.map((m) => fieldErrors.invalid(`${p}.name`, port.name, m)));
      else if (names.has(port.name)) errs.push(fieldErrors.duplicate(`${p}.name`, port.name));
      else names.add(port.name);
    }
    if (!port.containerPort) errs.push(fieldErrors.required(`${p}.containerPort`));
    else
      errs.push(
        ...isValidPortNum(port.containerPort).map((m) =>
          fieldErrors.invalid(`${p}.containerPort`, port.containerPort, m),
        ),
      );
    if (port.hostPort)
      errs.push(...isValidPortNum(port.hostPort).map((m) => fieldErrors.invalid(`${p}.hostPort`, port.hostPort, m)));
    if (!port.protocol) errs.push(fieldErrors.required(`${p}.protocol`));
    else if (!PROTOCOLS.includes(port.protocol))
      errs.push(fieldErrors.notSupported(`${p}.protocol`, port.protocol, PROTOCOLS));
  });
  return errs;
}

/** A list with at least one item (an absent or empty one has nothing to check). */
function hasItems<T>(list: readonly T[] | null | undefined): list is readonly T[] {
  return (list?.length ?? 0) > 0;
}

/** The devices of a container without any. */
const NO_DEVICES: ReadonlyMap<string, string> = new Map();

function validateMounts(c: Container, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!hasItems(c.volumeMounts)) return errs;
  const devices = hasItems(c.volumeDevices)
    ? new Map(c.volumeDevices.map((d) => [d.name ?? '', d.devicePath ?? '']))
    : NO_DEVICES;
  const devicePaths = new Set(devices.values());
  const mountPoints = new Set<string>();
  (c.volumeMounts ?? []).forEach((m: VolumeMount, i) => {
    const p = `${path}[${i}]`;
    const name = m.name ?? '';
    const mountPath = m.mountPath ?? '';
    if (!name) errs.push(fieldErrors.required(`${p}.name`));
    if (!ctx.volumes.has(name)) errs.push(fieldErrors.notFound(`${p}.name`, name));
    if (!mountPath) errs.push(fieldErrors.required(`${p}.mountPath`));
    if (mountPoints.has(mountPath)) errs.push(fieldErrors.invalid(`${p}.mountPath`, mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (devices.has(name)) errs.push(fieldErrors.invalid(`${p}.name`, name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(mountPath)) {
      errs.push(fieldErrors.invalid(`${p}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
    }
    // kube reports sub-path problems under the list's path, not the mount's.
    if (m.subPath) errs.push(...validateLocalDescendingPath(m.subPath, `${path}.subPath`));
    if (m.subPathExpr) {
      if (m.subPath) {
        errs.push(
          fieldErrors.invalid(`${p}.subPathExpr`, m.subPathExpr, 'subPathExpr and subPath are mutually exclusive'),
        );
      }
      errs.push(...validateLocalDescendingPath(m.subPathExpr, `${path}.subPathExpr`));
    }
    if (m.mountPropagation !== undefined) {
      const supported = ['Bidirectional', 'HostToContainer', 'None'];
      if (!supported.includes(m.mountPropagation)) {
        errs.push(fieldErrors.notSupported(`${path}.mountPropagation`, m.mountPropagation, supported));
      } else if (m.mountPropagation === 'Bidirectional' && c.securityContext?.privileged !== true) {
        errs.push(
          fieldErrors.forbidden(
            `${path}.mountPropagation`,
            'Bidirectional mount propagation is available only to privileged containers',
          ),
        );
      }
    }
  });
  return errs;
}

function validateDevices(c: Container, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!hasItems(c.volumeDevices)) return errs;
  const mounts = new Map((c.volumeMounts ?? []).map((m) => [m.name ?? '', m.mountPath ?? '']));
  const mountPaths = new Set(mounts.values());
  const names = new Set<string>();
  const paths = new Set<string>();
  (c.volumeDevices ?? []).forEach((d: VolumeDevice, i) => {
    const p = `${path}[${i}]`;
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
  return errs;
}

function validateSecurityContext(sc: SecurityContext | undefined, path: string): FieldError[] {
  if (!sc) return [];
  const errs: FieldError[] = [];
  if (typeof sc.runAsUser === 'number') {
    errs.push(...isValidUserID(sc.runAsUser).map((m) => fieldErrors.invalid(`${path}.runAsUser`, sc.runAsUser, m)));
  }
  if (typeof sc.runAsGroup === 'number') {
    errs.push(...isValidGroupID(sc.runAsGroup).map((m) => fieldErrors.invalid(`${path}.runAsGroup`, sc.runAsGroup, m)));
  }
  if (sc.allowPrivilegeEscalation === false && sc.privileged === true) {
    errs.push(fieldErrors.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
  }
  return errs;
}

function validateResizePolicy(c: Container, path: string, restartPolicy: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (c.resizePolicy ?? []).forEach((policy, i) => {
    const resource = policy.resourceName ?? '';
    if (seen.has(resource)) errs.push(fieldErrors.duplicate(`${path}[${i}]`, resource));
    seen.add(resource);
    if (!resource) errs.push(fieldErrors.required(path));
    else if (resource !== 'cpu' && resource !== 'memory')
      errs.push(fieldErrors.notSupported(path, resource, ['cpu', 'memory']));
    const rp = policy.restartPolicy ?? '';
    if (!rp) errs.push(fieldErrors.required(path));
    else if (rp !== 'NotRequired' && rp !== 'RestartContainer') {
      errs.push(fieldErrors.notSupported(path, rp, ['NotRequired', 'RestartContainer']));
    }
    if (restartPolicy === 'Never' && rp !== 'NotRequired') {
      errs.push(fieldErrors.invalid(path, rp, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
    }
  });
  return errs;
}

/** kube's `validateContainerCommon`: what every kind of container must satisfy. */
export function validateContainerCommon(c: Container, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push(fieldErrors.required(`${path}.name`));
  else errs.push(...isDNS1123Label(c.name).map((m) => fieldErrors.invalid(`${path}.name`, c.name, m)));
  if (!c.image) errs.push(fieldErrors.required(`${path}.image`));
  const tmp = c.terminationMessagePolicy ?? '';
  if (!tmp) errs.push(fieldErrors.required(`${path}.terminationMessagePolicy`));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(tmp)) {
    errs.push(fieldErrors.notSupported(`${path}.terminationMessagePolicy`, tmp, TERMINATION_MESSAGE_POLICIES));
  }
  errs.push(...validatePorts(c.ports, `${path}.ports`));
  errs.push(...validateEnv(c.env, `${path}.env`));
  errs.push(...validateEnvFrom(c.envFrom, `${path}.envFrom`));
  errs.push(...validateMounts(c, ctx, `${path}.volumeMounts`));
  errs.push(...validateDevices(c, ctx, `${path}.volumeDevices`));
  const pull = c.imagePullPolicy ?? '';
  if (!pull) errs.push(fieldErrors.required(`${path}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(pull))
    errs.push(fieldErrors.notSupported(`${path}.imagePullPolicy`, pull, PULL_POLICIES));
  errs.push(...validateContainerResources(c.resources, `${path}.resources`, ctx.podClaimNames));
  errs.push(...validateResizePolicy(c, `${path}.resizePolicy`, ctx.restartPolicy));
  errs.push(...validateSecurityContext(c.securityContext, `${path}.securityContext`));
  return errs;
}

/** kube's `AccumulateUniqueHostPorts`: a `protocol/hostIP/hostPort` is bound once. */
function checkHostPortConflicts(
  containers: readonly Container[],
  path: string,
  seen = new Set<string>(),
): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((port, pi) => {
      if (!port.hostPort) return;
      const key = `${port.protocol ?? ''}/${port.hostIP ?? ''}/${port.hostPort}`;
      if (seen.has(key)) errs.push(fieldErrors.duplicate(`${path}[${ci}].ports[${pi}].hostPort`, key));
      else seen.add(key);
    });
  });
  return errs;
}

function validateProbesAndHooks(c: Container, ctx: ContainerContext, path: string): FieldError[] {
  return [
    ...(c.lifecycle ? validateLifecycle(c.lifecycle, `${path}.lifecycle`, ctx.gracePeriod) : []),
    ...validateProbeOfKind('liveness', c.livenessProbe, `${path}.livenessProbe`),
    ...validateProbeOfKind('readiness', c.readinessProbe, `${path}.readinessProbe`),
    ...validateProbeOfKind('startup', c.startupProbe, `${path}.startupProbe`),
  ];
}

/** kube's `validateContainers` (the regular containers; at least one). */
export function validateContainers(
  containers: readonly Container[] | undefined,
  ctx: ContainerContext,
  path: string,
): FieldError[] {
  if (!containers || containers.length === 0) return [fieldErrors.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, ctx, p));
    if (names.has(c.name ?? '')) errs.push(fieldErrors.duplicate(`${p}.name`, c.name ?? ''));
    else names.add(c.name ?? '');
    errs.push(...validateProbesAndHooks(c, ctx, p));
    if (c.restartPolicy !== undefined)
      errs.push(fieldErrors.forbidden(`${p}.restartPolicy`, 'may not be set for non-init containers'));
  });
  return [...errs, ...checkHostPortConflicts(containers, path)];
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
    errs.push(...validateContainerCommon(c, ctx, p));
    let sidecar = false;
    if (c.restartPolicy !== undefined) {
      if (c.restartPolicy !== 'Always')
        errs.push(fieldErrors.notSupported(`${p}.restartPolicy`, c.restartPolicy, ['Always']));
      sidecar = c.restartPolicy === 'Always';
    }
    if (names.has(c.name ?? '')) errs.push(fieldErrors.duplicate(`${p}.name`, c.name ?? ''));
    else if (c.name) names.add(c.name);
    errs.push(...checkHostPortConflicts([c], path));
    if (sidecar) {
      errs.push(...validateProbesAndHooks(c, ctx, p));
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
    errs.push(...validateContainerCommon(c, ctx, p), ...validateContainerOnlyForPod(c, p));
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
