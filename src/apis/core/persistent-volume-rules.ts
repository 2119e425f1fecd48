/**
 * kube's core/v1 PersistentVolume and PersistentVolumeClaim rules (v1.32): defaults, the data
 * source normalization of claims, validation of specs, updates and status updates.
 */
import { deepEqual } from '../../util/deep-equal.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain, nameIsDNSSubdomain } from '../meta/name-validation.js';
import { FIELD_IMMUTABLE } from '../meta/object-meta-validation.js';
import type { ApiObject } from '../object.js';
import { validateLabelSelector } from '../rbac/label-selector-validation.js';
import { keyPath } from '../schema/field-path.js';
import { cloneJson, isPlainObject } from '../schema/json-value.js';
import { BETA_STORAGE_CLASS_ANNOTATION } from './cluster-columns.js';
import {
  quantityOf,
  quantityString,
  validatePositiveQuantity,
  validateResourceQuantityValue,
} from './resource-validation.js';
import { validateNodeSelector } from './scheduling-validation.js';
import { validateVolumes } from './volume-validation.js';

type Json = Record<string, unknown>;

export interface PersistentVolume extends ApiObject {
  spec?: Json & {
    capacity?: Record<string, string>;
    accessModes?: string[];
    persistentVolumeReclaimPolicy?: string;
    storageClassName?: string;
    volumeMode?: string;
    nodeAffinity?: { required?: { nodeSelectorTerms?: Json[] } };
    volumeAttributesClassName?: string;
  };
  status?: Json & { phase?: string; lastPhaseTransitionTime?: string };
}

export interface ClaimSpec extends Json {
  accessModes?: string[];
  selector?: Json;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  volumeName?: string;
  storageClassName?: string;
  volumeMode?: string;
  dataSource?: { apiGroup?: string; kind?: string; name?: string };
  dataSourceRef?: { apiGroup?: string; kind?: string; name?: string; namespace?: string };
  volumeAttributesClassName?: string;
}

export interface PersistentVolumeClaim extends ApiObject {
  spec?: ClaimSpec;
  status?: Json & { phase?: string; capacity?: Record<string, string> };
}

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const VOLUME_MODES = ['Block', 'Filesystem'];

/** PV sources, in kube's checking order (the volume sources a PersistentVolume may name). */
const PV_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'flocker',
  'nfs',
  'rbd',
  'quobyte',
  'cephfs',
  'iscsi',
  'cinder',
  'fc',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'scaleIO',
  'local',
  'storageos',
  'csi',
];

/** kube's PV defaults: `Retain`, `Filesystem`. */
export function defaultPersistentVolume(pv: PersistentVolume): void {
  if (!isPlainObject(pv.spec)) pv.spec = {};
  pv.spec.persistentVolumeReclaimPolicy ||= 'Retain';
  pv.spec.volumeMode ??= 'Filesystem';
}

/** kube's PVC spec defaults: `Filesystem`, and `resources` always present (a Go struct). */
export function defaultClaimSpec(spec: ClaimSpec): void {
  spec.volumeMode ??= 'Filesystem';
  if (!isPlainObject(spec.resources)) spec.resources = {};
}

/**
 * kube's `NormalizeDataSources`: `dataSource` and `dataSourceRef` mirror each other when only one
 * is set (a namespaced `dataSourceRef` stays alone).
 */
export function normalizeDataSources(spec: ClaimSpec): void {
  if (spec.dataSource && !spec.dataSourceRef) {
    spec.dataSourceRef = cloneJson(spec.dataSource);
  } else if (spec.dataSourceRef && !spec.dataSource && !spec.dataSourceRef.namespace) {
    const { namespace: _ns, ...ref } = spec.dataSourceRef;
    spec.dataSource = cloneJson(ref);
  }
}

function validateAccessModes(modes: readonly string[] | undefined, path: string, requiredDetail = ''): FieldError[] {
  const errs: FieldError[] = [];
  const list = modes ?? [];
  if (list.length === 0) errs.push(fieldErrors.required(path, requiredDetail));
  let rwop = false;
  let other = false;
  for (const m of list) {
    if (!ACCESS_MODES.includes(m)) errs.push(fieldErrors.notSupported(path, m, ACCESS_MODES));
    if (m === 'ReadWriteOncePod') rwop = true;
    else if (ACCESS_MODES.includes(m)) other = true;
  }
  if (rwop && other) errs.push(fieldErrors.forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

function validateClassName(name: string | undefined, path: string): FieldError[] {
  return name ? nameIsDNSSubdomain(name, false).map((m) => fieldErrors.invalid(path, name, m)) : [];
}

/** kube's `ValidatePersistentVolumeSpec` (not inline). */
export function validatePersistentVolumeSpec(spec: NonNullable<PersistentVolume['spec']>, path = 'spec'): FieldError[] {
  const errs = validateAccessModes(spec.accessModes, `${path}.accessModes`);
  const capacity = spec.capacity ?? {};
  const capPath = `${path}.capacity`;
  if (Object.keys(capacity).length === 0) errs.push(fieldErrors.required(capPath));
  if (!Object.hasOwn(capacity, 'storage') || Object.keys(capacity).length > 1) {
    errs.push(fieldErrors.notSupported(capPath, capacity, ['storage']));
  }
  for (const [r, q] of Object.entries(capacity)) {
    const qty = quantityOf(q);
    if (qty && qty.sign() < 0)
      errs.push(fieldErrors.invalid(keyPath(capPath, r), qty.toString(), 'must be a valid resource quantity'));
    errs.push(...validatePositiveQuantity(q, keyPath(capPath, r)));
  }
  const policy = spec.persistentVolumeReclaimPolicy;
  if (policy && !RECLAIM_POLICIES.includes(policy)) {
    errs.push(fieldErrors.notSupported(`${path}.persistentVolumeReclaimPolicy`, policy, RECLAIM_POLICIES));
  }
  const required = spec.nodeAffinity?.required;
  let nodeAffinity = false;
  if (spec.nodeAffinity) {
    if (required) {
      nodeAffinity = true;
      errs.push(...validateNodeSelector(required.nodeSelectorTerms, `${path}.nodeAffinity.required`));
    } else {
      errs.push(fieldErrors.required(`${path}.nodeAffinity.required`, 'must specify required node constraints'));
    }
  }
  const present = PV_SOURCES.filter((k) => spec[k] !== undefined && spec[k] !== null);
  if (present.length === 0) errs.push(fieldErrors.required(path, 'must specify a volume type'));
  for (const k of present.slice(1))
    errs.push(fieldErrors.forbidden(`${path}.${k}`, 'may not specify more than 1 volume type'));
  if (present[0] === 'local') {
    const local = spec.local as Json;
    if (!local.path) errs.push(fieldErrors.required(`${path}.local.path`));
    if (!nodeAffinity) errs.push(fieldErrors.required(`${path}.nodeAffinity`, 'Local volume requires node affinity'));
  } else if (present[0] === 'hostPath' || present[0] === 'nfs') {
    // Same rules as the pod volume sources of the same name.
    const v = validateVolumes([{ name: 'pv', [present[0]]: spec[present[0]] }], path, () => []);
    errs.push(...v.errors.map((e) => ({ ...e, field: e.field.replace(`${path}[0].`, `${path}.`) })));
  } else if (present[0] === 'csi') {
    const csi = spec.csi as Json;
    if (!csi.driver) errs.push(fieldErrors.required(`${path}.csi.driver`));
    if (!csi.volumeHandle) errs.push(fieldErrors.required(`${path}.csi.volumeHandle`));
  }
  const hostPath = spec.hostPath as Json | undefined;
  if (hostPath && String(hostPath.path ?? '').replace(/\/+$/, '') === '' && policy === 'Recycle') {
    errs.push(
      fieldErrors.forbidden(
        `${path}.persistentVolumeReclaimPolicy`,
        "may not be 'recycle' for a hostPath mount of '/'",
      ),
    );
  }
  errs.push(...validateClassName(spec.storageClassName, `${path}.storageClassName`));
  if (spec.volumeMode !== undefined && !VOLUME_MODES.includes(spec.volumeMode)) {
    errs.push(fieldErrors.notSupported(`${path}.volumeMode`, spec.volumeMode, VOLUME_MODES));
  }
  return errs;
}

/** kube's `ValidatePersistentVolumeUpdate` beyond the new object's own validity. */
export function validatePersistentVolumeUpdate(pv: PersistentVolume, old: PersistentVolume): FieldError[] {
  const errs: FieldError[] = [];
  const source = (s: PersistentVolume['spec']) =>
    Object.fromEntries(PV_SOURCES.filter((k) => s?.[k] !== undefined).map((k) => [k, s?.[k]]));
  if (!deepEqual(source(pv.spec), source(old.spec))) {
    errs.push(
      fieldErrors.forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'),
    );
  }
  if ((pv.spec?.volumeMode ?? null) !== (old.spec?.volumeMode ?? null)) {
    errs.push(fieldErrors.invalid('volumeMode', pv.spec?.volumeMode ?? null, FIELD_IMMUTABLE));
  }
  if (old.spec?.nodeAffinity && !deepEqual(pv.spec?.nodeAffinity, old.spec.nodeAffinity)) {
    errs.push(fieldErrors.invalid('nodeAffinity', pv.spec?.nodeAffinity ?? null, FIELD_IMMUTABLE));
  }
  return errs;
}

/** kube's `ValidatePersistentVolumeClaimSpec`. */
export function validateClaimSpec(spec: ClaimSpec, path: string): FieldError[] {
  const errs = validateAccessModes(spec.accessModes, `${path}.accessModes`, 'at least 1 access mode is required');
  if (spec.selector) errs.push(...validateLabelSelector(spec.selector, `${path}.selector`));
  const storagePath = keyPath(`${path}.resources`, 'storage');
  const storage = spec.resources?.requests?.storage;
  if (storage === undefined) errs.push(fieldErrors.required(storagePath));
  else {
    const positive = validatePositiveQuantity(storage, storagePath);
    errs.push(...(positive.length > 0 ? positive : validateResourceQuantityValue('storage', storage, storagePath)));
  }
  errs.push(...validateClassName(spec.storageClassName, `${path}.storageClassName`));
  if (spec.volumeMode !== undefined && !VOLUME_MODES.includes(spec.volumeMode)) {
    errs.push(fieldErrors.notSupported(`${path}.volumeMode`, spec.volumeMode, VOLUME_MODES));
  }
  for (const field of ['dataSource', 'dataSourceRef'] as const) {
    const ds = spec[field];
    if (!ds) continue;
    const p = `${path}.${field}`;
    if (!ds.name) errs.push(fieldErrors.required(`${p}.name`));
    if (!ds.kind) errs.push(fieldErrors.required(`${p}.kind`));
    if (!ds.apiGroup && ds.kind !== 'PersistentVolumeClaim') {
      errs.push(
        fieldErrors.invalid(p, ds.kind ?? '', "must be 'PersistentVolumeClaim' when referencing the default apiGroup"),
      );
    }
    if (ds.apiGroup)
      errs.push(...isDNS1123Subdomain(ds.apiGroup).map((m) => fieldErrors.invalid(`${p}.apiGroup`, ds.apiGroup, m)));
    const ns = field === 'dataSourceRef' ? spec.dataSourceRef?.namespace : undefined;
    if (ns) errs.push(...isDNS1123Label(ns).map((m) => fieldErrors.invalid(`${p}.namespace`, ns, m)));
  }
  if (spec.dataSourceRef?.namespace) {
    if (spec.dataSource) {
      errs.push(
        fieldErrors.invalid(
          path,
          `${path}.dataSource`,
          'may not be specified when dataSourceRef.namespace is specified',
        ),
      );
    }
  } else if (spec.dataSource && spec.dataSourceRef) {
    const a = spec.dataSource;
    const b = spec.dataSourceRef;
    if (a.apiGroup !== b.apiGroup || a.kind !== b.kind || a.name !== b.name) {
      errs.push(fieldErrors.invalid(path, `${path}.dataSource`, 'must match dataSourceRef'));
    }
  }
  return errs;
}

/** kube's `ValidatePersistentVolumeClaimUpdate` beyond metadata and the new object's validity. */
export function validateClaimUpdate(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const errs: FieldError[] = [];
  const next = cloneJson(pvc.spec ?? {});
  const prev = cloneJson(old.spec ?? {});
  // The volume name may be set once (the binder does it).
  if (!prev.volumeName) {
    if (next.volumeName === undefined) delete prev.volumeName;
    else prev.volumeName = next.volumeName;
  }
  const oldAnnotation = old.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  const newAnnotation = pvc.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  if (
    oldAnnotation !== undefined &&
    prev.storageClassName === undefined &&
    next.storageClassName === oldAnnotation &&
    (newAnnotation === undefined || newAnnotation === oldAnnotation)
  ) {
    delete next.storageClassName;
  } else {
    if ((newAnnotation ?? '') !== (oldAnnotation ?? '')) {
      errs.push(
        fieldErrors.invalid(
          `metadata.annotations.${BETA_STORAGE_CLASS_ANNOTATION}`,
          newAnnotation ?? '',
          FIELD_IMMUTABLE,
        ),
      );
    }
    if (
      next.storageClassName !== undefined &&
      prev.storageClassName === undefined &&
      (oldAnnotation === undefined || next.storageClassName === oldAnnotation)
    ) {
      delete next.storageClassName;
    }
  }
  const bound = pvc.status?.phase === 'Bound';
  if (bound && next.resources?.requests) {
    if (prev.resources?.requests?.storage === undefined) delete next.resources.requests.storage;
    else next.resources.requests.storage = prev.resources.requests.storage;
  }
  if (bound && next.volumeAttributesClassName !== undefined)
    next.volumeAttributesClassName = prev.volumeAttributesClassName;
  if (!deepEqual(next, prev)) {
    errs.push(
      fieldErrors.forbidden(
        'spec',
        'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      ),
    );
  }
  const oldSize = quantityOf(old.spec?.resources?.requests?.storage ?? '0');
  const newSize = quantityOf(pvc.spec?.resources?.requests?.storage ?? '0');
  if (oldSize && newSize && newSize.cmp(oldSize) < 0) {
    const status = quantityOf(old.status?.capacity?.storage ?? '0');
    // v1.32 lets a claim shrink back towards its status capacity (RecoverVolumeExpansionFailure).
    if (status && newSize.cmp(status) <= 0) {
      errs.push(fieldErrors.forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
    }
  }
  if ((pvc.spec?.volumeMode ?? null) !== (old.spec?.volumeMode ?? null)) {
    errs.push(fieldErrors.invalid('volumeMode', pvc.spec?.volumeMode ?? null, FIELD_IMMUTABLE));
  }
  return errs;
}

/** kube's `ValidatePersistentVolumeClaimStatusUpdate` beyond metadata. */
export function validateClaimStatusUpdate(pvc: PersistentVolumeClaim): FieldError[] {
  const errs: FieldError[] = [];
  if (!pvc.metadata.resourceVersion) errs.push(fieldErrors.required('resourceVersion'));
  if ((pvc.spec?.accessModes ?? []).length === 0) errs.push(fieldErrors.required('Spec.accessModes'));
  for (const [r, q] of Object.entries(pvc.status?.capacity ?? {})) {
    const qty = quantityOf(q);
    if (qty && qty.sign() < 0) {
      errs.push(
        fieldErrors.invalid(keyPath('status.capacity', r), quantityString(q), 'must be a valid resource quantity'),
      );
    }
  }
  return errs;
}
