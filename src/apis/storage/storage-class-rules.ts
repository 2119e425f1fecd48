import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isQualifiedName } from '../meta/name-validation.js';
import { validateImmutableField } from '../meta/object-meta-validation.js';
import type { ApiObject } from '../object.js';
import { indexPath } from '../schema/field-path.js';
import { jsonEqual } from '../schema/json-value.js';

/** A StorageClass (`storage.<domain>/v1`) as the rules read it. */
export interface StorageClass extends ApiObject {
  provisioner?: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: string;
  volumeBindingMode?: string;
  allowVolumeExpansion?: boolean;
  mountOptions?: string[];
  allowedTopologies?: { matchLabelExpressions?: { key?: string; values?: string[] }[] }[];
}

const RECLAIM_POLICIES: readonly string[] = ['Delete', 'Retain'];
const VOLUME_BINDING_MODES: readonly string[] = ['Immediate', 'WaitForFirstConsumer'];
const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;

/** kube's v1 defaults: `reclaimPolicy: Delete`, `volumeBindingMode: Immediate`. Mutates. */
export function defaultStorageClass(sc: StorageClass): void {
  if (sc.reclaimPolicy === undefined || sc.reclaimPolicy === null) sc.reclaimPolicy = 'Delete';
  if (sc.volumeBindingMode === undefined || sc.volumeBindingMode === null) sc.volumeBindingMode = 'Immediate';
}

/** kube's `validateProvisioner`: required, and (lower-cased) a qualified name. */
export function validateProvisioner(provisioner: string, path: string): FieldError[] {
  if (!provisioner) return [fieldErrors.required(path)];
  const lower = provisioner.toLowerCase();
  return isQualifiedName(lower).map((msg) => fieldErrors.invalid(path, lower, msg));
}

/** kube's `validateParameters`: at most 512 entries of at most 256 KiB together; no empty key. */
export function validateParameters(params: Record<string, string> | undefined, path: string): FieldError[] {
  const entries = Object.entries(params ?? {});
  if (entries.length > MAX_PARAMETERS) return [fieldErrors.tooLong(path, MAX_PARAMETERS)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(fieldErrors.invalid(path, k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(v ?? '');
  }
  if (size > MAX_PARAMETERS_SIZE) errs.push(fieldErrors.tooLong(path, MAX_PARAMETERS_SIZE));
  return errs;
}

/** kube's `ValidateTopologySelectorTerm` over `allowedTopologies`, with its duplicate-term check. */
function validateAllowedTopologies(terms: StorageClass['allowedTopologies'], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seenTerms: string[] = [];
  (terms ?? []).forEach((term, i) => {
    const termPath = indexPath(path, i);
    const exprMap: Record<string, string[]> = {};
    (term.matchLabelExpressions ?? []).forEach((req, j) => {
      const at = indexPath(`${termPath}.matchLabelExpressions`, j);
      const values = req.values ?? [];
      if (values.length === 0) errs.push(fieldErrors.required(`${at}.values`));
      const valueSet = new Set<string>();
      values.forEach((v, k) => {
        if (valueSet.has(v)) errs.push(fieldErrors.duplicate(indexPath(`${at}.values`, k), v));
        valueSet.add(v);
      });
      const key = req.key ?? '';
      for (const msg of isQualifiedName(key)) errs.push(fieldErrors.invalid(`${at}.key`, key, msg));
      if (key in exprMap) errs.push(fieldErrors.duplicate(`${at}.key`, key));
      exprMap[key] = [...valueSet].sort();
    });
    const canonical = JSON.stringify(
      Object.keys(exprMap)
        .sort()
        .map((k) => [k, exprMap[k]]),
    );
    if (seenTerms.includes(canonical)) errs.push(fieldErrors.duplicate(`${termPath}.matchLabelExpressions`, ''));
    seenTerms.push(canonical);
  });
  return errs;
}

/** kube's `ValidateStorageClass` beyond metadata. */
export function validateStorageClass(sc: StorageClass): FieldError[] {
  const errs = [
    ...validateProvisioner(sc.provisioner ?? '', 'provisioner'),
    ...validateParameters(sc.parameters, 'parameters'),
  ];
  if (sc.reclaimPolicy && !RECLAIM_POLICIES.includes(sc.reclaimPolicy)) {
    errs.push(fieldErrors.notSupported('reclaimPolicy', sc.reclaimPolicy, RECLAIM_POLICIES));
  }
  if (sc.volumeBindingMode === undefined) errs.push(fieldErrors.required('volumeBindingMode'));
  else if (!VOLUME_BINDING_MODES.includes(sc.volumeBindingMode)) {
    errs.push(fieldErrors.notSupported('volumeBindingMode', sc.volumeBindingMode, VOLUME_BINDING_MODES));
  }
  errs.push(...validateAllowedTopologies(sc.allowedTopologies, 'allowedTopologies'));
  return errs;
}

/** kube's `ValidateStorageClassUpdate`: parameters, provisioner, reclaim policy and binding mode never change. */
export function validateStorageClassUpdate(sc: StorageClass, old: StorageClass): FieldError[] {
  const errs: FieldError[] = [];
  if (!jsonEqual(sc.parameters ?? {}, old.parameters ?? {})) {
    errs.push(fieldErrors.forbidden('parameters', 'updates to parameters are forbidden.'));
  }
  if ((sc.provisioner ?? '') !== (old.provisioner ?? '')) {
    errs.push(fieldErrors.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  }
  if ((sc.reclaimPolicy ?? '') !== (old.reclaimPolicy ?? '')) {
    errs.push(fieldErrors.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  }
  errs.push(
    ...validateImmutableField(sc.volumeBindingMode ?? null, old.volumeBindingMode ?? null, 'volumeBindingMode'),
  );
  return errs;
}
