import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { DNS1123_LABEL_MAX_LENGTH, isDNS1123Subdomain } from '../meta/name-validation.js';
import { validateImmutableField } from '../meta/object-meta-validation.js';
import type { ApiObject } from '../object.js';
import { indexPath } from '../schema/field-path.js';

/** A CSIDriver (`storage.<domain>/v1`) as the rules read it. */
export interface CSIDriver extends ApiObject {
  spec?: {
    attachRequired?: boolean;
    podInfoOnMount?: boolean;
    storageCapacity?: boolean;
    fsGroupPolicy?: string;
    volumeLifecycleModes?: string[];
    tokenRequests?: { audience?: string; expirationSeconds?: number }[];
    requiresRepublish?: boolean;
    seLinuxMount?: boolean;
  };
}

const FS_GROUP_POLICIES: readonly string[] = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES: readonly string[] = ['Persistent', 'Ephemeral'];
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;

/**
 * kube's v1 CSIDriver defaults (SELinuxMountReadWriteOncePod on): `attachRequired: true`,
 * `podInfoOnMount`, `storageCapacity`, `requiresRepublish` and `seLinuxMount` false,
 * `fsGroupPolicy: ReadWriteOnceWithFSType`, `volumeLifecycleModes: [Persistent]`. Mutates.
 */
export function defaultCSIDriver(d: CSIDriver): void {
  d.spec ??= {};
  const s = d.spec;
  s.attachRequired ??= true;
  s.podInfoOnMount ??= false;
  s.storageCapacity ??= false;
  s.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  if (!s.volumeLifecycleModes || s.volumeLifecycleModes.length === 0) s.volumeLifecycleModes = ['Persistent'];
  s.requiresRepublish ??= false;
  s.seLinuxMount ??= false;
}

/** kube's `ValidateCSIDriverName`: required, at most 63 characters, a (lower-cased) DNS subdomain. */
export function validateCSIDriverName(name: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!name) errs.push(fieldErrors.required(path));
  if (name.length > DNS1123_LABEL_MAX_LENGTH) errs.push(fieldErrors.tooLong(path, DNS1123_LABEL_MAX_LENGTH));
  for (const msg of isDNS1123Subdomain(name.toLowerCase())) errs.push(fieldErrors.invalid(path, name, msg));
  return errs;
}

/** kube's `validateCSIDriverSpec`. */
export function validateCSIDriver(d: CSIDriver): FieldError[] {
  const s = d.spec ?? {};
  const errs: FieldError[] = [];
  if (s.attachRequired === undefined) errs.push(fieldErrors.required('spec.attachedRequired'));
  if (s.podInfoOnMount === undefined) errs.push(fieldErrors.required('spec.podInfoOnMount'));
  if (s.storageCapacity === undefined) errs.push(fieldErrors.required('spec.storageCapacity'));
  if (s.fsGroupPolicy !== undefined && !FS_GROUP_POLICIES.includes(s.fsGroupPolicy)) {
    errs.push(fieldErrors.notSupported('spec.fsGroupPolicy', s.fsGroupPolicy, FS_GROUP_POLICIES));
  }
  const audiences = new Set<string>();
  (s.tokenRequests ?? []).forEach((t, i) => {
    const at = indexPath('spec.tokenRequests', i);
    const audience = t.audience ?? '';
    if (audiences.has(audience)) {
      errs.push(fieldErrors.duplicate(`${at}.audience`, audience));
      return;
    }
    audiences.add(audience);
    if (t.expirationSeconds === undefined || t.expirationSeconds === null) return;
    if (t.expirationSeconds < MIN_TOKEN_SECONDS) {
      errs.push(
        fieldErrors.invalid(
          `${at}.expirationSeconds`,
          t.expirationSeconds,
          'may not specify a duration less than 10 minutes',
        ),
      );
    }
    if (t.expirationSeconds > MAX_TOKEN_SECONDS) {
      errs.push(
        fieldErrors.invalid(
          `${at}.expirationSeconds`,
          t.expirationSeconds,
          'may not specify a duration larger than 2^32 seconds',
        ),
      );
    }
  });
  for (const mode of s.volumeLifecycleModes ?? []) {
    if (!LIFECYCLE_MODES.includes(mode))
      errs.push(fieldErrors.notSupported('spec.volumeLifecycleModes', mode, LIFECYCLE_MODES));
  }
  if (s.seLinuxMount === undefined) errs.push(fieldErrors.required('spec.seLinuxMount'));
  return errs;
}

/** kube's `ValidateCSIDriverUpdate`: the spec rules, and `attachRequired` and lifecycle modes never change. */
export function validateCSIDriverUpdate(d: CSIDriver, old: CSIDriver): FieldError[] {
  return [
    ...validateCSIDriver(d),
    ...validateImmutableField(
      d.spec?.attachRequired ?? null,
      old.spec?.attachRequired ?? null,
      'spec.attachedRequired',
    ),
    ...validateImmutableField(
      d.spec?.volumeLifecycleModes ?? null,
      old.spec?.volumeLifecycleModes ?? null,
      'spec.volumeLifecycleModes',
    ),
  ];
}
