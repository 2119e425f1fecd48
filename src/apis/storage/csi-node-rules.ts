import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isQualifiedName } from '../meta/name-validation.js';
import { validateImmutableField } from '../meta/object-meta-validation.js';
import type { ApiObject } from '../object.js';
import { indexPath } from '../schema/field-path.js';
import { validateCSIDriverName } from './csi-driver-rules.js';

/** One driver entry of a CSINode. */
export interface CSINodeDriver {
  name?: string;
  nodeID?: string;
  topologyKeys?: string[];
  allocatable?: { count?: number };
}

/** A CSINode (`storage.<domain>/v1`) as the rules read it. */
export interface CSINode extends ApiObject {
  spec?: { drivers?: CSINodeDriver[] };
}

/** kube allows node IDs up to 256 characters (its `AllowLongNodeID`). */
const NODE_ID_MAX_LENGTH = 256;

/** kube's `ValidateCSINode` beyond metadata: each driver's name, node ID, allocatable count and topology keys. */
export function validateCSINode(node: CSINode): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (node.spec?.drivers ?? []).forEach((d, i) => {
    const at = indexPath('spec.drivers', i);
    const name = d.name ?? '';
    errs.push(...validateCSIDriverName(name, `${at}.name`));
    const nodeID = d.nodeID ?? '';
    if (!nodeID) errs.push(fieldErrors.required(`${at}.nodeID`));
    if (nodeID.length > NODE_ID_MAX_LENGTH) {
      errs.push(fieldErrors.invalid(`${at}.nodeID`, nodeID, `must be ${NODE_ID_MAX_LENGTH} characters or less`));
    }
    const count = d.allocatable?.count;
    if (typeof count === 'number' && count < 0) {
      errs.push(fieldErrors.invalid(`${at}.allocatable.count`, count, 'must be greater than or equal to 0'));
    }
    if (names.has(name)) errs.push(fieldErrors.duplicate(`${at}.name`, name));
    names.add(name);
    const keys = new Set<string>();
    for (const key of d.topologyKeys ?? []) {
      if (!key) errs.push(fieldErrors.required(at));
      if (keys.has(key)) errs.push(fieldErrors.duplicate(at, key));
      keys.add(key);
      for (const msg of isQualifiedName(key)) errs.push(fieldErrors.invalid(at, key, msg));
    }
  });
  return errs;
}

/** kube's `ValidateCSINodeUpdate`: the create rules, and an existing driver entry never changes. */
export function validateCSINodeUpdate(node: CSINode, old: CSINode): FieldError[] {
  const errs = validateCSINode(node);
  for (const oldDriver of old.spec?.drivers ?? []) {
    for (const newDriver of node.spec?.drivers ?? []) {
      if (oldDriver.name === newDriver.name) errs.push(...validateImmutableField(newDriver, oldDriver, 'spec.drivers'));
    }
  }
  return errs;
}
