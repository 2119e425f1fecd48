import type { ApiDomain } from '../api-domain.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import {
  DNS1123_LABEL_MAX_LENGTH,
  DNS1123_SUBDOMAIN_MAX_LENGTH,
  isDNS1123Label,
  isDNS1123Subdomain,
} from '../meta/name-validation.js';
import type { ApiObject } from '../object.js';
import { indexPath } from '../schema/field-path.js';
import { jsonEqual } from '../schema/json-value.js';
import { certificateSigningRequestSpecSchema } from './certificates-v1-schemas.js';
import { checkCertificateRequest, checkIssuedCertificate } from './csr-request.js';
import { goBytesLiteral } from './pem-blocks.js';

/** One condition of a CertificateSigningRequest's status. */
export interface CsrCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

/** A CertificateSigningRequest (`certificates.<domain>/v1`) as the rules read it; bytes are base64. */
export interface CertificateSigningRequest extends ApiObject {
  spec?: {
    request?: string;
    signerName?: string;
    expirationSeconds?: number;
    usages?: string[];
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: { conditions?: CsrCondition[]; certificate?: string };
}

/**
 * Key usages a v1 request may ask for (kube's `allValidUsages`): the enum of the generated
 * `spec.usages` items, in the sorted order kube's message lists them.
 */
export const KEY_USAGES: readonly string[] = Object.freeze(
  [...((certificateSigningRequestSpecSchema.properties?.usages?.items?.enum ?? []) as string[])].sort(),
);

/** Condition types that may only be `True`. */
const TRUE_ONLY_TYPES = new Set(['Approved', 'Denied', 'Failed']);
const ALL_STATUSES: readonly string[] = ['False', 'True', 'Unknown'];
const MIN_EXPIRATION_SECONDS = 600;

/** What a write may do or may keep (kube's `certificateValidationOptions`). */
export interface CsrValidationOptions {
  /** Approved/Denied conditions may be added or changed (the `approval` sub-resource). */
  readonly allowSettingApprovalConditions?: boolean;
  /** `status.certificate` may be set (the `status` sub-resource). */
  readonly allowSettingCertificate?: boolean;
  readonly allowBothApprovedAndDenied?: boolean;
  readonly allowLegacySignerName?: boolean;
  readonly allowDuplicateConditionTypes?: boolean;
  readonly allowEmptyConditionType?: boolean;
  readonly allowArbitraryCertificate?: boolean;
  readonly allowUnknownUsages?: boolean;
  readonly allowDuplicateUsages?: boolean;
}

/** The signer name v1 refuses: `<key domain>/legacy-unknown`. */
export function legacyUnknownSignerName(domain: ApiDomain): string {
  return domain.key('', 'legacy-unknown');
}

function bytesOf(b64: string | undefined): Buffer | undefined {
  return b64 === undefined ? undefined : Buffer.from(b64, 'base64');
}

/** kube's `ValidateSignerName`: `<DNS subdomain with a dot>/<DNS subdomains separated by dots>`. */
export function validateSignerName(signerName: string, path: string): FieldError[] {
  if (!signerName) return [fieldErrors.required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [
      fieldErrors.invalid(
        path,
        signerName,
        "must be a fully qualified domain and path of the form 'example.com/signer-name'",
      ),
    ];
  }
  const errs: FieldError[] = [];
  const [domainPart, pathPart] = segments;
  if (domainPart.length > DNS1123_SUBDOMAIN_MAX_LENGTH)
    errs.push(fieldErrors.tooLong(path, DNS1123_SUBDOMAIN_MAX_LENGTH));
  const labels = domainPart.split('.');
  for (const label of labels) {
    const problems = isDNS1123Label(label);
    if (problems.length > 0) {
      for (const p of problems) errs.push(fieldErrors.invalid(path, domainPart, `validating label "${label}": ${p}`));
      break;
    }
  }
  if (labels.length < 2)
    errs.push(fieldErrors.invalid(path, domainPart, 'should be a domain with at least two segments separated by dots'));
  for (const component of pathPart.split('.')) {
    const problems = isDNS1123Subdomain(component);
    if (problems.length > 0) {
      for (const p of problems)
        errs.push(fieldErrors.invalid(path, pathPart, `validating component "${component}": ${p}`));
      break;
    }
  }
  const maxLength = DNS1123_SUBDOMAIN_MAX_LENGTH * 2 + DNS1123_LABEL_MAX_LENGTH + 2;
  if (signerName.length > maxLength) errs.push(fieldErrors.tooLong(path, maxLength));
  return errs;
}

function validateConditions(csr: CertificateSigningRequest, o: CsrValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasApproved = false;
  let hasDenied = false;
  (csr.status?.conditions ?? []).forEach((c, i) => {
    const at = indexPath('status.conditions', i);
    const type = c.type ?? '';
    const status = c.status ?? '';
    if (!o.allowEmptyConditionType && !type) errs.push(fieldErrors.required(`${at}.type`));
    const allowed = TRUE_ONLY_TYPES.has(type) ? ['True'] : ALL_STATUSES;
    if (!status) errs.push(fieldErrors.required(`${at}.status`));
    else if (!allowed.includes(status)) errs.push(fieldErrors.notSupported(`${at}.status`, status, allowed));
    if (!o.allowBothApprovedAndDenied) {
      if (type === 'Approved') {
        hasApproved = true;
        if (hasDenied)
          errs.push(fieldErrors.invalid(`${at}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === 'Denied') {
        hasDenied = true;
        if (hasApproved)
          errs.push(fieldErrors.invalid(`${at}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!o.allowDuplicateConditionTypes) {
      if (seen.has(type)) errs.push(fieldErrors.duplicate(`${at}.type`, type));
      seen.add(type);
    }
  });
  return errs;
}

/** kube's `validateCertificateSigningRequest` beyond metadata, under `options`. */
export function validateCsr(
  csr: CertificateSigningRequest,
  domain: ApiDomain,
  o: CsrValidationOptions = {},
): FieldError[] {
  const errs: FieldError[] = [];
  const spec = csr.spec ?? {};
  const request = bytesOf(spec.request);
  const problem = checkCertificateRequest(request ?? Buffer.alloc(0));
  if (problem) {
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec.request',
      message: `Invalid value: ${goBytesLiteral(request)}: ${problem}`,
    });
  }
  const usages = spec.usages ?? [];
  if (usages.length === 0) errs.push(fieldErrors.required('spec.usages'));
  if (!o.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!KEY_USAGES.includes(u)) errs.push(fieldErrors.notSupported(indexPath('spec.usages', i), u, KEY_USAGES));
    });
  }
  if (!o.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(fieldErrors.duplicate(indexPath('spec.usages', i), u));
      seen.add(u);
    });
  }
  const signerName = spec.signerName ?? '';
  if (!o.allowLegacySignerName && signerName === legacyUnknownSignerName(domain)) {
    errs.push(
      fieldErrors.invalid('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'),
    );
  } else {
    errs.push(...validateSignerName(signerName, 'spec.signerName'));
  }
  const expiration = spec.expirationSeconds;
  if (typeof expiration === 'number' && expiration < MIN_EXPIRATION_SECONDS) {
    errs.push(
      fieldErrors.invalid(
        'spec.expirationSeconds',
        expiration,
        'may not specify a duration less than 600 seconds (10 minutes)',
      ),
    );
  }
  errs.push(...validateConditions(csr, o));
  if (!o.allowArbitraryCertificate) {
    const certProblem = checkIssuedCertificate(bytesOf(csr.status?.certificate) ?? Buffer.alloc(0));
    if (certProblem) errs.push(fieldErrors.invalid('status.certificate', '<certificate data>', certProblem));
  }
  return errs;
}

function conditionsOf(csr: CertificateSigningRequest | undefined, type: string): CsrCondition[] {
  return (csr?.status?.conditions ?? []).filter((c) => c.type === type);
}

/**
 * kube's `getValidationOptions`: what an update may keep because the stored object already has
 * it (nothing on create, `old` undefined).
 */
export function csrValidationOptions(
  csr: CertificateSigningRequest,
  old: CertificateSigningRequest | undefined,
  domain: ApiDomain,
): CsrValidationOptions {
  if (!old) return {};
  const oldConditions = old.status?.conditions ?? [];
  const types = oldConditions.map((c) => c.type ?? '');
  const oldUsages = old.spec?.usages ?? [];
  const oldCert = old.status?.certificate ?? '';
  return {
    allowBothApprovedAndDenied: types.includes('Approved') && types.includes('Denied'),
    allowLegacySignerName: old.spec?.signerName === legacyUnknownSignerName(domain),
    allowDuplicateConditionTypes: new Set(types).size !== types.length,
    allowEmptyConditionType: types.includes(''),
    allowArbitraryCertificate:
      (csr.status?.certificate ?? '') === oldCert ||
      checkIssuedCertificate(Buffer.from(oldCert, 'base64')) !== undefined,
    allowUnknownUsages: oldUsages.some((u) => !KEY_USAGES.includes(u)),
    allowDuplicateUsages: new Set(oldUsages).size !== oldUsages.length,
  };
}

/**
 * kube's `validateCertificateSigningRequestUpdate`: the object rules, no removal of Approved,
 * Denied or Failed conditions, Approved/Denied conditions changed only through `approval`, the
 * certificate set only through `status` and never replaced.
 */
export function validateCsrUpdate(
  csr: CertificateSigningRequest,
  old: CertificateSigningRequest,
  domain: ApiDomain,
  extra: Pick<CsrValidationOptions, 'allowSettingApprovalConditions' | 'allowSettingCertificate'> = {},
): FieldError[] {
  const o = { ...csrValidationOptions(csr, old, domain), ...extra };
  const errs = validateCsr(csr, domain, o);
  for (const type of ['Approved', 'Denied', 'Failed']) {
    if (conditionsOf(csr, type).length < conditionsOf(old, type).length) {
      errs.push(fieldErrors.forbidden('status.conditions', `updates may not remove a condition of type "${type}"`));
    }
  }
  if (!o.allowSettingApprovalConditions) {
    for (const type of ['Approved', 'Denied']) {
      const before = conditionsOf(old, type);
      const after = conditionsOf(csr, type);
      if (after.length > before.length) {
        errs.push(fieldErrors.forbidden('status.conditions', `updates may not add a condition of type "${type}"`));
      } else if (after.length === before.length && !jsonEqual(after, before)) {
        errs.push(fieldErrors.forbidden('status.conditions', `updates may not modify a condition of type "${type}"`));
      }
    }
  }
  const cert = csr.status?.certificate ?? '';
  const oldCert = old.status?.certificate ?? '';
  if (cert !== oldCert) {
    if (!o.allowSettingCertificate) {
      errs.push(fieldErrors.forbidden('status.certificate', 'updates may not set certificate content'));
    } else if (oldCert.length > 0) {
      errs.push(fieldErrors.forbidden('status.certificate', 'updates may not modify existing certificate content'));
    }
  }
  return errs;
}
