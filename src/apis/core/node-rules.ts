/**
 * kube's core/v1 Node rules: defaults (`allocatable` from `capacity`, the Go zero values kube
 * always serializes, `podCIDR`/`podCIDRs` kept in step as v1 conversion does) and validation
 * (`ValidateNode`, `ValidateNodeUpdate`).
 */
import { deepEqual } from '../../util/deep-equal.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isValidLabelValue } from '../meta/name-validation.js';
import type { ApiObject } from '../object.js';
import { cloneJson, isPlainObject } from '../schema/json-value.js';
import { validateResourceQuantityValue } from './resource-validation.js';
import { validateLabelName, validateTaintEffect } from './scheduling-validation.js';

type Json = Record<string, unknown>;

export interface Taint {
  key?: string;
  value?: string;
  effect?: string;
  timeAdded?: string;
}

export interface Node extends ApiObject {
  spec?: {
    podCIDR?: string;
    podCIDRs?: string[];
    providerID?: string;
    unschedulable?: boolean;
    taints?: Taint[];
    externalID?: string;
    configSource?: unknown;
  };
  status?: {
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
    addresses?: { type?: string; address?: string }[];
    conditions?: Json[];
    nodeInfo?: Json;
    daemonEndpoints?: Json;
    [key: string]: unknown;
  };
}

const NODE_INFO_FIELDS = [
  'machineID',
  'systemUUID',
  'bootID',
  'kernelVersion',
  'osImage',
  'containerRuntimeVersion',
  'kubeletVersion',
  'kubeProxyVersion',
  'operatingSystem',
  'architecture',
];

/** Fills the Go zero values kube serializes for every node: `spec`, `nodeInfo`, `daemonEndpoints`. */
export function fillNodeZeroValues(node: Node): void {
  if (!isPlainObject(node.spec)) node.spec = {};
  if (!isPlainObject(node.status)) node.status = {};
  const status = node.status;
  if (!isPlainObject(status.daemonEndpoints)) status.daemonEndpoints = {};
  const daemon = status.daemonEndpoints;
  if (!isPlainObject(daemon.kubeletEndpoint)) daemon.kubeletEndpoint = {};
  const kubelet = daemon.kubeletEndpoint as Json;
  kubelet.Port ??= 0;
  if (!isPlainObject(status.nodeInfo)) status.nodeInfo = {};
  for (const f of NODE_INFO_FIELDS) status.nodeInfo[f] ??= '';
}

/**
 * kube's Node defaults: `status.allocatable` is `status.capacity` when unset; `spec.podCIDRs`
 * follows `spec.podCIDR` (which wins when both are set and differ) and `podCIDR` is the first
 * of `podCIDRs`.
 */
export function defaultNode(node: Node): void {
  fillNodeZeroValues(node);
  const status = node.status ?? {};
  if (status.allocatable === undefined && isPlainObject(status.capacity))
    status.allocatable = cloneJson(status.capacity);
  const spec = node.spec ?? {};
  const cidrs = Array.isArray(spec.podCIDRs) ? spec.podCIDRs : [];
  if (spec.podCIDR && (cidrs.length === 0 || cidrs[0] !== spec.podCIDR)) spec.podCIDRs = [spec.podCIDR];
  if (Array.isArray(spec.podCIDRs) && spec.podCIDRs.length > 0) spec.podCIDR = spec.podCIDRs[0];
}

/** kube's `validateNodeTaints` (reported under `metadata.taints`, as kube does). */
export function validateNodeTaints(taints: readonly Taint[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, Set<string>>();
  (taints ?? []).forEach((t, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateLabelName(t.key ?? '', `${p}.key`));
    const msgs = isValidLabelValue(t.value ?? '');
    if (msgs.length > 0) errs.push(fieldErrors.invalid(`${p}.value`, t.value ?? '', msgs.join(';')));
    errs.push(...validateTaintEffect(t.effect ?? '', false, `${p}.effect`));
    const keys = seen.get(t.effect ?? '') ?? new Set<string>();
    if (keys.has(t.key ?? '')) {
      errs.push({
        type: 'FieldValueDuplicate',
        field: p,
        message: `Duplicate value: ${JSON.stringify(t)}: taints must be unique by key and effect pair`,
      });
      return;
    }
    keys.add(t.key ?? '');
    seen.set(t.effect ?? '', keys);
  });
  return errs;
}

function validateResources(node: Node): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['capacity', 'allocatable'] as const) {
    for (const [k, v] of Object.entries(node.status?.[field] ?? {})) {
      errs.push(...validateResourceQuantityValue(k, v, `status.${field}.${k}`));
    }
  }
  return errs;
}

/** kube's `ValidateNode` beyond metadata. */
export function validateNode(node: Node): FieldError[] {
  const errs = [...validateNodeTaints(node.spec?.taints, 'metadata.taints'), ...validateResources(node)];
  const cidrs = node.spec?.podCIDRs ?? [];
  cidrs.forEach((c, i) => {
    if (!/^[0-9a-fA-F.:]+\/\d{1,3}$/.test(c)) {
      errs.push(
        fieldErrors.invalid(
          `spec.podCIDRs[${i}]`,
          c,
          'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
        ),
      );
    }
  });
  if (cidrs.length > 1) {
    const families = new Set(cidrs.map((c) => (c.includes(':') ? 6 : 4)));
    if (families.size !== 2 || cidrs.length > 2) {
      errs.push(fieldErrors.invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'));
    }
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errs.push(fieldErrors.duplicate(`spec.podCIDRs[${i}]`, c));
      seen.add(c);
    });
  }
  return errs;
}

const CIDR_IMMUTABLE = 'node updates may not change podCIDR except from "" to valid';

/** kube's `ValidateNodeUpdate` beyond metadata (used for `nodes` and `nodes/status`). */
export function validateNodeUpdate(node: Node, old: Node): FieldError[] {
  const errs = validateResources(node);
  const seen: unknown[] = [];
  (node.status?.addresses ?? []).forEach((a, i) => {
    if (seen.some((s) => deepEqual(s, a))) errs.push(fieldErrors.duplicate(`status.addresses[${i}]`, a));
    seen.push(a);
  });
  const oldCIDRs = old.spec?.podCIDRs ?? [];
  const newCIDRs = node.spec?.podCIDRs ?? [];
  if (oldCIDRs.length > 0) {
    if (oldCIDRs.length !== newCIDRs.length) errs.push(fieldErrors.forbidden('spec.podCIDRs', CIDR_IMMUTABLE));
    else {
      oldCIDRs.forEach((c, i) => {
        if (c !== newCIDRs[i]) errs.push(fieldErrors.forbidden('spec.podCIDRs', CIDR_IMMUTABLE));
      });
    }
  }
  const oldProvider = old.spec?.providerID ?? '';
  if (oldProvider && oldProvider !== (node.spec?.providerID ?? '')) {
    errs.push(
      fieldErrors.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'),
    );
  }
  errs.push(...validateNodeTaints(node.spec?.taints, 'metadata.taints'));
  if ((node.spec?.externalID ?? '') !== (old.spec?.externalID ?? '')) {
    errs.push(fieldErrors.forbidden('spec.externalID', 'may not be updated'));
  }
  return errs;
}
