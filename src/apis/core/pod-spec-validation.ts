/**
 * kube's `ValidatePodSpec` and `ValidatePodTemplateSpec` (v1.32): every rule a pod spec must
 * satisfy wherever it appears, with kube's messages and field paths, all errors at once.
 * Workload kinds validate their templates with {@link validatePodTemplateSpec}.
 */
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from '../meta/name-validation.js';
import { validateAnnotations, validateLabels } from '../meta/object-meta-validation.js';
import {
  hasItems,
  validateContainers,
  validateEphemeralContainers,
  validateInitContainers,
} from './container-validation.js';
import { type ClaimSpec, validateClaimSpec } from './persistent-volume-rules.js';
import type { PodSpec, PodTemplateSpec } from './pod-types.js';
import { validateResourceName, validateResourceQuantityValue } from './resource-validation.js';
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './scheduling-validation.js';
import { inclusiveRangeError, isValidGroupID, isValidIP, isValidUserID } from './value-formats.js';
import { validateVolumes } from './volume-validation.js';

/** How a pod spec is validated. */
export interface PodSpecValidationOptions {
  /** The spec is a Pod's own (not a template's): with `hostNetwork`, host ports must equal container ports. */
  readonly resourceIsPod?: boolean;
}

/** Generic ephemeral volumes' claim templates follow the PersistentVolumeClaim spec rules. */
const claimSpec = (spec: Record<string, unknown>, path: string) => validateClaimSpec(spec as ClaimSpec, path);

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const MAX_INT32 = 2147483647;

function validateEnum(value: string | undefined, supported: readonly string[], path: string): FieldError[] {
  if (!value) return [fieldErrors.required(path)];
  return supported.includes(value) ? [] : [fieldErrors.notSupported(path, value, supported)];
}

function validateDNSConfig(spec: PodSpec, path: string): FieldError[] {
  const cfg = spec.dnsConfig;
  if (spec.dnsPolicy === 'None') {
    if (!cfg) return [fieldErrors.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if ((cfg.nameservers ?? []).length === 0) {
      return [
        fieldErrors.required(
          `${path}.nameservers`,
          'must provide at least one DNS nameserver when `dnsPolicy` is None',
        ),
      ];
    }
  }
  if (!cfg) return [];
  const errs: FieldError[] = [];
  const nameservers = cfg.nameservers ?? [];
  if (nameservers.length > 3)
    errs.push(fieldErrors.invalid(`${path}.nameservers`, nameservers, 'must not have more than 3 nameservers'));
  nameservers.forEach((ns, i) => {
    errs.push(...isValidIP(ns).map((m) => fieldErrors.invalid(`${path}.nameservers[${i}]`, ns, m)));
  });
  const searches = cfg.searches ?? [];
  if (searches.length > 32)
    errs.push(fieldErrors.invalid(`${path}.searches`, searches, 'must not have more than 32 search paths'));
  if (searches.join(' ').length > 2048) {
    errs.push(
      fieldErrors.invalid(
        `${path}.searches`,
        searches,
        'must not have more than 2048 characters (including spaces) in the search list',
      ),
    );
  }
  searches.forEach((s, i) => {
    const trimmed = s.endsWith('.') ? s.slice(0, -1) : s;
    errs.push(...isDNS1123Subdomain(trimmed).map((m) => fieldErrors.invalid(`${path}.searches[${i}]`, trimmed, m)));
  });
  (cfg.options ?? []).forEach((o, i) => {
    if (!o.name) errs.push(fieldErrors.required(`${path}.options[${i}]`, 'must not be empty'));
  });
  return errs;
}

function validatePodSecurityContext(spec: PodSpec, path: string): FieldError[] {
  const sc = spec.securityContext;
  if (!sc) return [];
  const errs: FieldError[] = [];
  addIdErrors(errs, sc.fsGroup, isValidGroupID, path, 'fsGroup');
  addIdErrors(errs, sc.runAsUser, isValidUserID, path, 'runAsUser');
  addIdErrors(errs, sc.runAsGroup, isValidGroupID, path, 'runAsGroup');
  (sc.supplementalGroups ?? []).forEach((g, i) => {
    errs.push(...isValidGroupID(g).map((m) => fieldErrors.invalid(`${path}.supplementalGroups[${i}]`, g, m)));
  });
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(
      fieldErrors.invalid(
        `${path}.shareProcessNamespace`,
        true,
        'ShareProcessNamespace and HostPID cannot both be enabled',
      ),
    );
  }
  const policy = sc.fsGroupChangePolicy;
  if (policy !== undefined && policy !== 'OnRootMismatch' && policy !== 'Always') {
    errs.push(fieldErrors.notSupported(`${path}.fsGroupChangePolicy`, policy, ['Always', 'OnRootMismatch']));
  }
  return errs;
}

/** The errors of a user or group id at `path.field`, when it is set. */
function addIdErrors(
  errs: FieldError[],
  value: unknown,
  check: (id: number) => readonly string[],
  path: string,
  field: string,
): void {
  if (typeof value !== 'number') return;
  for (const m of check(value)) errs.push(fieldErrors.invalid(`${path}.${field}`, value, m));
}

function validateHostNetworkPorts(spec: PodSpec, path: string, resourceIsPod: boolean): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  (spec.containers ?? []).forEach((c, i) => {
    (c.ports ?? []).forEach((port, j) => {
      const hp = port.hostPort ?? 0;
      if ((resourceIsPod || hp !== 0) && hp !== (port.containerPort ?? 0)) {
        errs.push(
          fieldErrors.invalid(
            `${path}.containers[${i}].ports[${j}].hostPort`,
            hp,
            'must match `containerPort` when `hostNetwork` is true',
          ),
        );
      }
    });
  });
  return errs;
}

function validateNames(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  addSubdomainNameErrors(errs, spec.serviceAccountName, path, 'serviceAccountName');
  addSubdomainNameErrors(errs, spec.nodeName, path, 'nodeName');
  addSubdomainNameErrors(errs, spec.priorityClassName, path, 'priorityClassName');
  // An empty runtime class name is checked too: only an unset one is not.
  if (spec.runtimeClassName !== undefined) {
    const value = spec.runtimeClassName;
    for (const m of nameIsDNSSubdomain(value ?? '', false)) {
      errs.push(fieldErrors.invalid(`${path}.runtimeClassName`, value, m));
    }
  }
  for (const field of ['hostname', 'subdomain'] as const) {
    const value = spec[field];
    if (value) for (const m of isDNS1123Label(value)) errs.push(fieldErrors.invalid(`${path}.${field}`, value, m));
  }
  return errs;
}

/** The errors of a name that must be a DNS subdomain, at `path.field`, when it is set and not empty. */
function addSubdomainNameErrors(errs: FieldError[], value: string | undefined, path: string, field: string): void {
  if (!value) return;
  for (const m of nameIsDNSSubdomain(value, false)) errs.push(fieldErrors.invalid(`${path}.${field}`, value, m));
}

function validateMisc(spec: PodSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (spec.imagePullSecrets ?? []).forEach((ref, i) => {
    if (Object.keys(ref).some((k) => k !== 'name')) {
      errs.push(fieldErrors.invalid(`${path}.imagePullSecrets[${i}]`, ref, 'only name may be set'));
    }
  });
  (spec.readinessGates ?? []).forEach((g, i) => {
    const p = `${path}.readinessGates[${i}].conditionType`;
    errs.push(...isQualifiedName(g.conditionType ?? '').map((m) => fieldErrors.invalid(p, g.conditionType ?? '', m)));
  });
  const gates = new Set<string>();
  spec.schedulingGates?.forEach((g, i) => {
    const name = g.name ?? '';
    errs.push(...isQualifiedName(name).map((m) => fieldErrors.invalid(`${path}.schedulingGates[${i}]`, name, m)));
    if (gates.has(name)) errs.push(fieldErrors.duplicate(`${path}.schedulingGates[${i}]`, name));
    gates.add(name);
  });
  if (spec.activeDeadlineSeconds !== undefined) {
    const v = spec.activeDeadlineSeconds;
    if (v < 1 || v > MAX_INT32)
      errs.push(fieldErrors.invalid(`${path}.activeDeadlineSeconds`, v, inclusiveRangeError(1, MAX_INT32)));
  }
  (spec.hostAliases ?? []).forEach((alias, i) => {
    const p = `${path}.hostAliases[${i}]`;
    errs.push(...isValidIP(alias.ip ?? '').map((m) => fieldErrors.invalid(`${p}.ip`, alias.ip ?? '', m)));
    (alias.hostnames ?? []).forEach((h, j) => {
      errs.push(...isDNS1123Subdomain(h).map((m) => fieldErrors.invalid(`${p}.hostnames[${j}]`, h, m)));
    });
  });
  if (spec.preemptionPolicy !== undefined) {
    errs.push(...validateEnum(spec.preemptionPolicy, ['PreemptLowerPriority', 'Never'], `${path}.preemptionPolicy`));
  }
  for (const [name, value] of spec.overhead ? Object.entries(spec.overhead) : []) {
    const p = `${path}.overhead.limits[${name}]`;
    errs.push(...validateResourceName(name, p), ...validateResourceQuantityValue(name, value, p));
  }
  if (spec.os) {
    const os = spec.os.name ?? '';
    if (os !== 'linux' && os !== 'windows')
      errs.push(fieldErrors.notSupported(`${path}.os.name`, os, ['linux', 'windows']));
  }
  if (spec.hostUsers === false) {
    for (const [field, label] of [
      ['hostNetwork', 'hostNetwork'],
      ['hostPID', 'HostPID'],
      ['hostIPC', 'HostIPC'],
    ] as const) {
      if (spec[field] === true)
        errs.push(fieldErrors.forbidden(`${path}.${label}`, 'when `pod.Spec.HostUsers` is false'));
    }
  }
  return errs;
}

/**
 * kube's `ValidatePodSpec` at `path` (e.g. `spec`, `spec.template.spec`). Expects a defaulted
 * spec: `terminationGracePeriodSeconds`, `restartPolicy`, `dnsPolicy`, the containers'
 * `imagePullPolicy` and `terminationMessagePolicy` and the ports' `protocol` are required.
 */
export function validatePodSpec(spec: PodSpec, path: string, options: PodSpecValidationOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.terminationGracePeriodSeconds === undefined)
    errs.push(fieldErrors.required(`${path}.terminationGracePeriodSeconds`));
  const vols = validateVolumes(spec.volumes, `${path}.volumes`, claimSpec);
  errs.push(...vols.errors);
  const claimNames = hasItems(spec.resourceClaims) ? new Set<string>() : NO_CLAIMS;
  spec.resourceClaims?.forEach((claim, i) => {
    const p = `${path}.resourceClaims[${i}]`;
    const name = claim.name ?? '';
    if (!name) errs.push(fieldErrors.required(`${p}.name`));
    else if (claimNames.has(name)) errs.push(fieldErrors.duplicate(`${p}.name`, name));
    else errs.push(...isDNS1123Label(name).map((m) => fieldErrors.invalid(`${p}.name`, name, m)));
    if (name) (claimNames as Set<string>).add(name);
  });
  const ctx = {
    volumes: vols.volumes,
    podClaimNames: claimNames,
    restartPolicy: spec.restartPolicy ?? '',
    gracePeriod: spec.terminationGracePeriodSeconds,
  };
  errs.push(...validateContainers(spec.containers, ctx, `${path}.containers`));
  // Most pods have neither init nor ephemeral containers: nothing to check, no name sets to build.
  if (hasItems(spec.initContainers)) {
    errs.push(...validateInitContainers(spec.initContainers, spec.containers, ctx, `${path}.initContainers`));
  }
  if (hasItems(spec.ephemeralContainers)) {
    errs.push(
      ...validateEphemeralContainers(
        spec.ephemeralContainers,
        [...(spec.containers ?? []), ...(spec.initContainers ?? [])],
        ctx,
        `${path}.ephemeralContainers`,
      ),
    );
  }
  // The parts a pod often leaves out are checked only when set; their paths are written only then.
  if (spec.hostNetwork === true) errs.push(...validateHostNetworkPorts(spec, path, options.resourceIsPod === true));
  addEnumErrors(errs, spec.restartPolicy, RESTART_POLICIES, path, 'restartPolicy');
  addEnumErrors(errs, spec.dnsPolicy, DNS_POLICIES, path, 'dnsPolicy');
  if (spec.nodeSelector !== undefined) errs.push(...validateLabels(spec.nodeSelector, `${path}.nodeSelector`));
  if (spec.securityContext) errs.push(...validatePodSecurityContext(spec, `${path}.securityContext`));
  if (spec.affinity) errs.push(...validateAffinity(spec.affinity, `${path}.affinity`));
  if (spec.dnsConfig || spec.dnsPolicy === 'None') errs.push(...validateDNSConfig(spec, `${path}.dnsConfig`));
  if (spec.topologySpreadConstraints) {
    errs.push(
      ...validateTopologySpreadConstraints(spec.topologySpreadConstraints, `${path}.topologySpreadConstraints`),
    );
  }
  errs.push(...validateNames(spec, path));
  if (spec.tolerations) errs.push(...validateTolerations(spec.tolerations, `${path}.tolerations`));
  errs.push(...validateMisc(spec, path));
  return errs;
}

/** The claim names of a pod spec without `resourceClaims`. */
const NO_CLAIMS: ReadonlySet<string> = new Set();

/** {@link validateEnum} of `path.field`, its path written only for an error. */
function addEnumErrors(
  errs: FieldError[],
  value: string | undefined,
  supported: readonly string[],
  path: string,
  field: string,
): void {
  if (value && supported.includes(value)) return;
  errs.push(...validateEnum(value, supported, `${path}.${field}`));
}

/**
 * kube's `ValidatePodTemplateSpec` at `path` (e.g. `spec.template`): the template's labels and
 * annotations, its pod spec (as a template's: host ports may be left 0 with `hostNetwork`), and
 * no ephemeral containers.
 */
export function validatePodTemplateSpec(template: PodTemplateSpec, path: string): FieldError[] {
  const meta = template.metadata ?? {};
  const spec = template.spec ?? {};
  const errs = [
    ...validateLabels(meta.labels, `${path}.labels`),
    ...validateAnnotations(meta.annotations, `${path}.annotations`),
    ...validatePodSpec(spec, `${path}.spec`, { resourceIsPod: false }),
  ];
  if ((spec.ephemeralContainers ?? []).length > 0) {
    errs.push(
      fieldErrors.forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'),
    );
  }
  return errs;
}
