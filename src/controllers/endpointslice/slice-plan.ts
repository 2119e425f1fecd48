import type { Pod } from '../../apis/core/pod-types.js';
import type { Service } from '../../apis/core/service-types.js';
import type {
  EndpointSlice,
  EndpointSliceEndpoint,
  EndpointSlicePort,
} from '../../apis/discovery/endpoint-slice-types.js';
import type { ApiObject } from '../../apis/object.js';
import { newControllerRef } from '../controller-support.js';
import {
  type AddressType,
  addressTypesOf,
  endpointKey,
  endpointPorts,
  endpointsEqual,
  ownedBy,
  podHasEndpoint,
  podToEndpoint,
  portMapKey,
  type SliceNames,
  sliceLabels,
} from './desired-endpoints.js';

/** What a reconcile writes. New slices have no name (`generateName` `<service>-`). */
export interface SlicePlan {
  create: EndpointSlice[];
  update: EndpointSlice[];
  delete: EndpointSlice[];
  /** Pods left out because their node does not exist (the service is synced again later). */
  missingNodes: string[];
}

export interface PlanInput {
  readonly service: Service;
  readonly pods: readonly Pod[];
  /** This controller's slices of the service (not being deleted). */
  readonly slices: readonly EndpointSlice[];
  readonly node: (name: string) => ApiObject | undefined;
  readonly maxEndpointsPerSlice: number;
  readonly names: SliceNames;
  /** `discovery.<domain>/v1`. */
  readonly apiVersion: string;
}

/** kube's `newEndpointSlice`: owned by the service (controller), labelled, no endpoints yet. */
function newSlice(i: PlanInput, addressType: AddressType, ports: EndpointSlicePort[]): EndpointSlice {
  const svc = i.service;
  return {
    apiVersion: i.apiVersion,
    kind: 'EndpointSlice',
    metadata: {
      generateName: `${svc.metadata.name}-`,
      namespace: svc.metadata.namespace,
      labels: sliceLabels(undefined, svc, i.names).labels,
      ownerReferences: [newControllerRef(svc, 'v1', 'Service')],
    },
    addressType,
    endpoints: [],
    ports,
  };
}

/**
 * kube's `reconcileByPortMapping`: (1) existing slices keep the endpoints still desired (updated
 * when changed) and are deleted when none is left; (2) slices being updated are filled up;
 * (3) what remains goes into the unchanged slice it fits best, or into new slices.
 */
function byPortMapping(
  i: PlanInput,
  existing: readonly EndpointSlice[],
  desired: Map<string, EndpointSliceEndpoint>,
  addressType: AddressType,
  ports: EndpointSlicePort[],
): { create: EndpointSlice[]; update: EndpointSlice[]; delete: EndpointSlice[] } {
  const max = i.maxEndpointsPerSlice;
  const update = new Map<string, EndpointSlice>();
  const unchanged = new Map<string, EndpointSlice>();
  const del: EndpointSlice[] = [];
  for (const slice of existing) {
    const kept: EndpointSliceEndpoint[] = [];
    let changed = false;
    for (const ep of slice.endpoints ?? []) {
      const key = endpointKey(ep);
      const want = desired.get(key);
      if (!want) continue;
      kept.push(want);
      if (!endpointsEqual(want, ep)) changed = true;
      desired.delete(key);
    }
    const { labels, changed: labelsChanged } = sliceLabels(slice, i.service, i.names);
    const name = slice.metadata.name ?? '';
    if (changed || kept.length !== (slice.endpoints ?? []).length) {
      if (kept.length === 0) del.push(slice);
      else update.set(name, { ...structuredClone(slice), endpoints: kept, metadata: { ...slice.metadata, labels } });
    } else if (labelsChanged) {
      update.set(name, { ...structuredClone(slice), metadata: { ...slice.metadata, labels } });
    } else unchanged.set(name, slice);
  }
  const pending = [...desired.values()];
  const take = (slice: EndpointSlice) => {
    slice.endpoints ??= [];
    const eps = slice.endpoints;
    while (pending.length > 0 && eps.length < max) eps.push(pending.shift() as EndpointSliceEndpoint);
  };
  // Fullest first.
  for (const slice of [...update.values()].sort((a, b) => (b.endpoints ?? []).length - (a.endpoints ?? []).length)) {
    if (pending.length === 0) break;
    take(slice);
  }
  const create: EndpointSlice[] = [];
  while (pending.length > 0) {
    let fill: EndpointSlice | undefined;
    if (pending.length < max && unchanged.size > 0) {
      let closest = max;
      for (const s of unchanged.values()) {
        const diff = max - (pending.length + (s.endpoints ?? []).length);
        if (diff >= 0 && diff < closest) {
          closest = diff;
          fill = s;
        }
      }
    }
    if (fill) {
      const name = fill.metadata.name ?? '';
      fill = structuredClone(fill);
      unchanged.delete(name);
      take(fill);
      update.set(name, fill);
    } else {
      const slice = newSlice(i, addressType, ports);
      take(slice);
      create.push(slice);
    }
  }
  return { create, update: [...update.values()], delete: del };
}

function placeholderOf(slice: EndpointSlice, i: PlanInput, addressType: AddressType): boolean {
  const want = newSlice(i, addressType, []);
  return (
    slice.metadata.namespace === want.metadata.namespace &&
    JSON.stringify(Object.entries(slice.metadata.labels ?? {}).sort()) ===
      JSON.stringify(Object.entries(want.metadata.labels ?? {}).sort()) &&
    (slice.endpoints ?? []).length === 0 &&
    (slice.ports ?? []).length === 0 &&
    slice.addressType === addressType &&
    ownedBy(slice, i.service)
  );
}

/**
 * kube's `Reconcile` for one service: slices of families the service no longer has are
 * deleted; per family, endpoints are grouped by their resolved ports and placed by
 * {@link byPortMapping}; a service without endpoints keeps one placeholder slice (no ports, no
 * endpoints); a create matched with a delete of the same family becomes an update of that slice.
 */
export function planSlices(i: PlanInput): SlicePlan {
  const plan: SlicePlan = { create: [], update: [], delete: [], missingNodes: [] };
  const types = addressTypesOf(i.service);
  const byType = new Map<AddressType, EndpointSlice[]>();
  for (const s of i.slices) {
    const t = s.addressType as AddressType;
    if (!types.has(t)) plan.delete.push(s);
    else byType.set(t, [...(byType.get(t) ?? []), s]);
  }
  const pods = [...i.pods].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  for (const addressType of [...types].sort()) {
    const existing = byType.get(addressType) ?? [];
    const create: EndpointSlice[] = [];
    const update: EndpointSlice[] = [];
    const del: EndpointSlice[] = [];
    const existingByPorts = new Map<string, EndpointSlice[]>();
    for (const s of existing) {
      if (!ownedBy(s, i.service)) {
        del.push(s);
        continue;
      }
      const k = portMapKey(s.ports);
      existingByPorts.set(k, [...(existingByPorts.get(k) ?? []), s]);
    }
    const desired = new Map<string, { ports: EndpointSlicePort[]; endpoints: Map<string, EndpointSliceEndpoint> }>();
    for (const pod of pods) {
      if (!podHasEndpoint(pod)) continue;
      const ports = endpointPorts(i.service, pod);
      const k = portMapKey(ports);
      if (!desired.has(k)) desired.set(k, { ports, endpoints: new Map() });
      const nodeName = pod.spec?.nodeName;
      const node = nodeName ? i.node(nodeName) : undefined;
      if (nodeName && !node && !i.service.spec?.publishNotReadyAddresses) {
        plan.missingNodes.push(nodeName);
        continue;
      }
      const ep = podToEndpoint(pod, node, i.service, addressType, i.names);
      if ((ep.addresses ?? []).length > 0) desired.get(k)?.endpoints.set(endpointKey(ep), ep);
    }
    for (const [k, want] of desired) {
      const r = byPortMapping(i, existingByPorts.get(k) ?? [], want.endpoints, addressType, want.ports);
      create.push(...r.create);
      update.push(...r.update);
      del.push(...r.delete);
    }
    for (const [k, slices] of existingByPorts) if (!desired.has(k)) del.push(...slices);
    if (existing.length === del.length && create.length === 0) {
      if (del.length === 1 && placeholderOf(del[0], i, addressType)) del.length = 0;
      else create.push(newSlice(i, addressType, []));
    }
    // Reuse slices about to be deleted for slices about to be created.
    for (let d = 0; d < del.length && create.length > 0; ) {
      const victim = del[d];
      const next = create[create.length - 1];
      if (victim.addressType === next.addressType && ownedBy(victim, i.service)) {
        create.pop();
        const { generateName: _, ...meta } = next.metadata;
        update.push({
          ...next,
          metadata: { ...meta, name: victim.metadata.name, resourceVersion: victim.metadata.resourceVersion },
        });
        del.splice(d, 1);
      } else d++;
    }
    plan.create.push(...create);
    plan.update.push(...update);
    plan.delete.push(...del);
  }
  return plan;
}
