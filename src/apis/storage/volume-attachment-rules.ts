import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import type { ApiObject } from '../object.js';
import { jsonEqual } from '../schema/json-value.js';
import { validateCSIDriverName } from './csi-driver-rules.js';

interface VolumeError {
  time?: string;
  message?: string;
}

/** A VolumeAttachment (`storage.<domain>/v1`) as the rules read it. */
export interface VolumeAttachment extends ApiObject {
  spec?: {
    attacher?: string;
    source?: { persistentVolumeName?: string; inlineVolumeSpec?: Record<string, unknown> };
    nodeName?: string;
  };
  status?: {
    attached?: boolean;
    attachmentMetadata?: Record<string, string>;
    attachError?: VolumeError;
    detachError?: VolumeError;
  };
}

const MAX_METADATA_SIZE = 256 * 1024;
const MAX_ERROR_MESSAGE_SIZE = 1024;

/**
 * kube's `ValidateVolumeAttachment` and `ValidateVolumeAttachmentV1` beyond metadata: the
 * attacher is a CSI driver name, exactly one source (a valid persistent volume name, or an inline
 * spec), a valid node name, and a status within its limits.
 */
export function validateVolumeAttachment(va: VolumeAttachment): FieldError[] {
  const errs: FieldError[] = [];
  const spec = va.spec ?? {};
  const attacher = spec.attacher ?? '';
  if (!attacher) errs.push(fieldErrors.required('spec.attacher'));
  const source = spec.source ?? {};
  const pvName = source.persistentVolumeName;
  const hasPv = pvName !== undefined && pvName !== null;
  const hasInline = source.inlineVolumeSpec !== undefined && source.inlineVolumeSpec !== null;
  const exactlyOne = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
  if (!hasPv && !hasInline) errs.push(fieldErrors.required('spec.source', exactlyOne));
  else if (hasPv && hasInline) errs.push(fieldErrors.forbidden('spec.source', exactlyOne));
  else if (hasPv && pvName === '') {
    errs.push(fieldErrors.required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName'));
  }
  const nodeName = spec.nodeName ?? '';
  for (const msg of nameIsDNSSubdomain(nodeName, false)) errs.push(fieldErrors.invalid('spec.nodeName', nodeName, msg));
  errs.push(...validateStatus(va.status ?? {}));
  errs.push(...validateCSIDriverName(attacher, 'spec.attacher'));
  if (hasPv && pvName) {
    for (const msg of nameIsDNSSubdomain(pvName, false)) {
      errs.push(fieldErrors.invalid('spec.source.persistentVolumeName', pvName, msg));
    }
  }
  return errs;
}

function validateStatus(status: NonNullable<VolumeAttachment['status']>): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(status.attachmentMetadata ?? {}))
    size += Buffer.byteLength(k) + Buffer.byteLength(v ?? '');
  if (size > MAX_METADATA_SIZE) errs.push(fieldErrors.tooLong('status.attachmentMetadata', MAX_METADATA_SIZE));
  for (const which of ['attachError', 'detachError'] as const) {
    const e = status[which];
    if (!e) continue;
    if ((e.message ?? '').length > MAX_ERROR_MESSAGE_SIZE) {
      errs.push(fieldErrors.tooLong(`status.${which}.message`, MAX_METADATA_SIZE));
    }
  }
  return errs;
}

/** kube's `ValidateVolumeAttachmentUpdate`: the create rules, and the spec never changes. */
export function validateVolumeAttachmentUpdate(va: VolumeAttachment, old: VolumeAttachment): FieldError[] {
  const errs = validateVolumeAttachment(va);
  if (!jsonEqual(va.spec ?? {}, old.spec ?? {}))
    errs.push(fieldErrors.invalid('spec', va.spec ?? {}, 'field is immutable'));
  return errs;
}
