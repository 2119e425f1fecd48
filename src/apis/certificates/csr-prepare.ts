import type { UserInfo } from '../request/user-info.js';
import type { CertificateSigningRequest, CsrCondition } from './csr-validation.js';

/**
 * kube's CertificateSigningRequest strategies: who asked is recorded from the request, never from
 * the body; the main resource changes neither spec nor status; `status` changes the status but
 * not the Approved/Denied conditions; `approval` changes only the conditions. Each mutates `csr`.
 */

/** Create: the requesting user's name, uid, groups and extra replace whatever was sent; no status. */
export function prepareCsrForCreate(csr: CertificateSigningRequest, user: UserInfo | undefined): void {
  const spec = { ...(csr.spec ?? {}) };
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  if (user) {
    if (user.name) spec.username = user.name;
    if (user.uid) spec.uid = user.uid;
    if (user.groups.length > 0) spec.groups = [...user.groups];
    const extra = user.extra ?? {};
    if (Object.keys(extra).length > 0) {
      spec.extra = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, [...v]]));
    }
  }
  csr.spec = spec;
  csr.status = {};
}

/** Update of the main resource: spec and status stay as stored (only metadata changes). */
export function prepareCsrForUpdate(csr: CertificateSigningRequest, old: CertificateSigningRequest): void {
  restore(csr, 'spec', old);
  restore(csr, 'status', old);
}

/** `status`: the spec stays; existing Approved/Denied conditions keep their stored values. */
export function prepareCsrStatusUpdate(
  csr: CertificateSigningRequest,
  old: CertificateSigningRequest,
  now: string,
): void {
  restore(csr, 'spec', old);
  for (const type of ['Approved', 'Denied']) preserveConditionInstances(csr, old, type);
  populateConditionTimestamps(csr, old, now);
}

/** `approval`: only the conditions change; spec and the rest of the status stay as stored. */
export function prepareCsrApprovalUpdate(
  csr: CertificateSigningRequest,
  old: CertificateSigningRequest,
  now: string,
): void {
  const conditions = csr.status?.conditions;
  restore(csr, 'spec', old);
  const status = { ...(old.status ?? {}) };
  if (conditions === undefined) delete status.conditions;
  else status.conditions = conditions;
  csr.status = status;
  populateConditionTimestamps(csr, old, now);
}

function restore(csr: CertificateSigningRequest, field: 'spec' | 'status', old: CertificateSigningRequest): void {
  if (old[field] === undefined) delete csr[field];
  else csr[field] = structuredClone(old[field]);
}

/** kube's `preserveConditionInstances`: when the count of `type` is unchanged, the stored ones stay. */
function preserveConditionInstances(
  csr: CertificateSigningRequest,
  old: CertificateSigningRequest,
  type: string,
): void {
  const conditions = csr.status?.conditions ?? [];
  const oldConditions = old.status?.conditions ?? [];
  const newIdx = conditions.flatMap((c, i) => (c.type === type ? [i] : []));
  const oldIdx = oldConditions.flatMap((c, i) => (c.type === type ? [i] : []));
  if (newIdx.length !== oldIdx.length) return;
  newIdx.forEach((n, k) => {
    conditions[n] = structuredClone(oldConditions[oldIdx[k]]);
  });
}

/**
 * kube's `populateConditionTimestamps`: a condition without `lastUpdateTime` gets now; one without
 * `lastTransitionTime` keeps the stored one of a condition with the same type and status, else now.
 */
function populateConditionTimestamps(
  csr: CertificateSigningRequest,
  old: CertificateSigningRequest,
  now: string,
): void {
  for (const c of csr.status?.conditions ?? []) {
    if (!c.lastUpdateTime) c.lastUpdateTime = now;
    if (!c.lastTransitionTime) {
      const same = (old.status?.conditions ?? []).find(
        (o: CsrCondition) => o.type === c.type && o.status === c.status && !!o.lastTransitionTime,
      );
      c.lastTransitionTime = same?.lastTransitionTime ?? now;
    }
  }
}
