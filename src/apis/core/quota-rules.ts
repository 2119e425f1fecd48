/**
 * kube's core/v1 LimitRange and ResourceQuota rules: the defaults of container limit items, and
 * `ValidateLimitRange`, `ValidateResourceQuota` (spec, scopes, scope selector, status) and their
 * update checks.
 */
import type { Quantity } from '../../util/go-quantity.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isQualifiedName } from '../meta/name-validation.js';
import { FIELD_IMMUTABLE } from '../meta/object-meta-validation.js';
import type { ApiObject } from '../object.js';
import { keyPath } from '../schema/field-path.js';
import { isPlainObject } from '../schema/json-value.js';
import {
  isOvercommitAllowed,
  isQuotaScopeValidForResource,
  isStandardQuotaResourceName,
  STANDARD_LIMIT_RANGE_TYPES,
  STANDARD_QUOTA_SCOPES,
} from './resource-names.js';
import {
  quantityOf,
  validateContainerResourceName,
  validateQuotaResourceName,
  validateResourceName,
  validateResourceQuantityValue,
} from './resource-validation.js';

type ResourceMap = Record<string, string>;

export interface LimitRangeItem {
  type?: string;
  max?: ResourceMap;
  min?: ResourceMap;
  default?: ResourceMap;
  defaultRequest?: ResourceMap;
  maxLimitRequestRatio?: ResourceMap;
}

export interface LimitRange extends ApiObject {
  spec?: { limits?: LimitRangeItem[] };
}

export interface ResourceQuota extends ApiObject {
  spec?: {
    hard?: ResourceMap;
    scopes?: string[];
    scopeSelector?: { matchExpressions?: { scopeName?: string; operator?: string; values?: string[] }[] };
  };
  status?: { hard?: ResourceMap; used?: ResourceMap };
}

/** kube's `SetDefaults_LimitRangeItem`: container items default their limit to max, request to limit or min. */
export function defaultLimitRange(lr: LimitRange): void {
  for (const item of Array.isArray(lr.spec?.limits) ? lr.spec.limits : []) {
    if (!isPlainObject(item) || item.type !== 'Container') continue;
    const defaults: ResourceMap = { ...(item.default ?? {}) };
    const requests: ResourceMap = { ...(item.defaultRequest ?? {}) };
    for (const [k, v] of Object.entries(item.max ?? {})) if (!Object.hasOwn(defaults, k)) defaults[k] = v;
    for (const [k, v] of Object.entries(defaults)) if (!Object.hasOwn(requests, k)) requests[k] = v;
    for (const [k, v] of Object.entries(item.min ?? {})) if (!Object.hasOwn(requests, k)) requests[k] = v;
    if (Object.keys(defaults).length > 0) item.default = defaults;
    if (Object.keys(requests).length > 0) item.defaultRequest = requests;
  }
}

function validateLimitType(type: string, path: string): FieldError[] {
  const errs = isQualifiedName(type).map((m) => fieldErrors.invalid(path, type, m));
  if (errs.length === 0 && !type.includes('/') && !STANDARD_LIMIT_RANGE_TYPES.has(type)) {
    errs.push(fieldErrors.invalid(path, type, 'must be a standard limit type or fully qualified'));
  }
  return errs;
}

function limitResourceName(type: string, name: string, path: string): FieldError[] {
  return type === 'Pod' || type === 'Container'
    ? validateContainerResourceName(name, path)
    : validateResourceName(name, path);
}

function quantities(list: ResourceMap | undefined): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [k, v] of Object.entries(list ?? {})) {
    const q = quantityOf(v);
    if (q) out.set(k, q);
  }
  return out;
}

function itemPairRules(item: LimitRangeItem, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const min = quantities(item.min);
  const max = quantities(item.max);
  const def = item.type === 'Pod' ? new Map<string, Quantity>() : quantities(item.default);
  const defReq = item.type === 'Pod' ? new Map<string, Quantity>() : quantities(item.defaultRequest);
  const ratio = quantities(item.maxLimitRequestRatio);
  const keys = [...new Set([...min.keys(), ...max.keys(), ...def.keys(), ...defReq.keys(), ...ratio.keys()])].sort();
  for (const k of keys) {
    const [mn, mx, d, dr, r] = [min.get(k), max.get(k), def.get(k), defReq.get(k), ratio.get(k)];
    const s = (q: Quantity) => q.toString();
    if (mn && mx && mn.cmp(mx) > 0) {
      errs.push(
        fieldErrors.invalid(keyPath(`${p}.min`, k), s(mn), `min value ${s(mn)} is greater than max value ${s(mx)}`),
      );
    }
    if (dr && mn && mn.cmp(dr) > 0) {
      errs.push(
        fieldErrors.invalid(
          keyPath(`${p}.defaultRequest`, k),
          s(dr),
          `min value ${s(mn)} is greater than default request value ${s(dr)}`,
        ),
      );
    }
    if (dr && mx && dr.cmp(mx) > 0) {
      errs.push(
        fieldErrors.invalid(
          keyPath(`${p}.defaultRequest`, k),
          s(dr),
          `default request value ${s(dr)} is greater than max value ${s(mx)}`,
        ),
      );
    }
    if (dr && d && dr.cmp(d) > 0) {
      errs.push(
        fieldErrors.invalid(
          keyPath(`${p}.defaultRequest`, k),
          s(dr),
          `default request value ${s(dr)} is greater than default limit value ${s(d)}`,
        ),
      );
    }
    if (d && mn && mn.cmp(d) > 0) {
      errs.push(
        fieldErrors.invalid(
          keyPath(`${p}.default`, k),
          s(mn),
          `min value ${s(mn)} is greater than default value ${s(d)}`,
        ),
      );
    }
    if (d && mx && d.cmp(mx) > 0) {
      errs.push(
        fieldErrors.invalid(
          keyPath(`${p}.default`, k),
          s(mx),
          `default value ${s(d)} is greater than max value ${s(mx)}`,
        ),
      );
    }
    if (r && r.milliValue() < 1000n) {
      errs.push(fieldErrors.invalid(keyPath(`${p}.maxLimitRequestRatio`, k), s(r), `ratio ${s(r)} is less than 1`));
    }
    if (r && mn && mx && mn.sign() > 0) {
      const limit = Number(mx.milliValue()) / Number(mn.milliValue());
      if (Number(r.milliValue()) / 1000 > limit) {
        errs.push(
          fieldErrors.invalid(
            keyPath(`${p}.maxLimitRequestRatio`, k),
            s(r),
            `ratio ${s(r)} is greater than max/min = ${limit.toFixed(6)}`,
          ),
        );
      }
    }
    if (!isOvercommitAllowed(k) && d && dr && d.cmp(dr) !== 0) {
      errs.push(
        fieldErrors.invalid(
          keyPath(`${p}.defaultRequest`, k),
          s(dr),
          `default value ${s(d)} must equal to defaultRequest value ${s(dr)} in ${k}`,
        ),
      );
    }
  }
  return errs;
}

/** kube's `ValidateLimitRange` beyond metadata. */
export function validateLimitRange(lr: LimitRange): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  (lr.spec?.limits ?? []).forEach((item, i) => {
    const p = `spec.limits[${i}]`;
    const type = item.type ?? '';
    errs.push(...validateLimitType(type, `${p}.type`));
    if (types.has(type)) errs.push(fieldErrors.duplicate(`${p}.type`, type));
    types.add(type);
    const fields: (keyof LimitRangeItem)[] =
      type === 'Pod' ? ['max', 'min'] : ['max', 'min', 'default', 'defaultRequest'];
    for (const f of fields) {
      for (const k of Object.keys((item[f] as ResourceMap | undefined) ?? {}).sort()) {
        errs.push(...limitResourceName(type, k, keyPath(`${p}.${f}`, k)));
      }
    }
    if (type === 'Pod') {
      if (Object.keys(item.default ?? {}).length > 0)
        errs.push(fieldErrors.forbidden(`${p}.default`, "may not be specified when `type` is 'Pod'"));
      if (Object.keys(item.defaultRequest ?? {}).length > 0) {
        errs.push(fieldErrors.forbidden(`${p}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
      }
    }
    if (type === 'PersistentVolumeClaim' && item.min?.storage === undefined && item.max?.storage === undefined) {
      errs.push(
        fieldErrors.required(
          `${p}.limits`,
          'either minimum or maximum storage value is required, but neither was provided',
        ),
      );
    }
    for (const k of Object.keys(item.maxLimitRequestRatio ?? {}).sort()) {
      errs.push(...limitResourceName(type, k, keyPath(`${p}.maxLimitRequestRatio`, k)));
    }
    errs.push(...itemPairRules(item, p));
  });
  return errs;
}

function validateQuotaList(list: ResourceMap | undefined, path: string): FieldError[] {
  return Object.keys(list ?? {})
    .sort()
    .flatMap((k) => {
      const p = keyPath(path, k);
      return [...validateQuotaResourceName(k, p), ...validateResourceQuantityValue(k, list?.[k], p)];
    });
}

function validateScopes(spec: NonNullable<ResourceQuota['spec']>): FieldError[] {
  const errs: FieldError[] = [];
  const hard = Object.keys(spec.hard ?? {}).sort();
  const scopes = spec.scopes ?? [];
  const checkPairs = (set: Set<string>, path: string, value: unknown) => {
    for (const [a, b] of [
      ['BestEffort', 'NotBestEffort'],
      ['Terminating', 'NotTerminating'],
    ]) {
      if (set.has(a) && set.has(b)) errs.push(fieldErrors.invalid(path, value, 'conflicting scopes'));
    }
  };
  for (const scope of scopes) {
    if (!STANDARD_QUOTA_SCOPES.has(scope)) errs.push(fieldErrors.invalid('spec.scopes', scopes, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !isQuotaScopeValidForResource(scope, k)) {
        errs.push(fieldErrors.invalid('spec.scopes', scopes, 'unsupported scope applied to resource'));
      }
    }
  }
  checkPairs(new Set(scopes), 'spec.scopes', scopes);
  const exprs = spec.scopeSelector?.matchExpressions ?? [];
  const path = 'spec.scopeSelector.matchExpressions';
  const named = new Set<string>();
  for (const req of exprs) {
    const scope = req.scopeName ?? '';
    if (!STANDARD_QUOTA_SCOPES.has(scope))
      errs.push(fieldErrors.invalid(`${path}.scopeName`, scope, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !isQuotaScopeValidForResource(scope, k)) {
        errs.push(fieldErrors.invalid(path, spec.scopeSelector, 'unsupported scope applied to resource'));
      }
    }
    if (scope !== 'PriorityClass' && STANDARD_QUOTA_SCOPES.has(scope) && req.operator !== 'Exists') {
      errs.push(
        fieldErrors.invalid(
          `${path}.operator`,
          req.operator ?? '',
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push(
            fieldErrors.required(
              `${path}.values`,
              "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            ),
          );
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push(
            fieldErrors.invalid(
              `${path}.values`,
              values,
              "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            ),
          );
        }
        break;
      default:
        errs.push(fieldErrors.invalid(`${path}.operator`, req.operator ?? '', 'not a valid selector operator'));
    }
    named.add(scope);
  }
  checkPairs(named, path, scopes);
  return errs;
}

/** kube's `ValidateResourceQuotaSpec`. */
export function validateResourceQuotaSpec(rq: ResourceQuota): FieldError[] {
  const spec = rq.spec ?? {};
  return [...validateQuotaList(spec.hard, 'spec.hard'), ...validateScopes(spec)];
}

/** kube's `ValidateResourceQuotaStatus`. */
export function validateResourceQuotaStatus(rq: ResourceQuota): FieldError[] {
  return [...validateQuotaList(rq.status?.hard, 'status.hard'), ...validateQuotaList(rq.status?.used, 'status.used')];
}

/** kube's `ValidateResourceQuotaUpdate` beyond metadata: scopes may not change. */
export function validateResourceQuotaUpdate(rq: ResourceQuota, old: ResourceQuota): FieldError[] {
  const errs = validateResourceQuotaSpec(rq);
  const a = new Set(rq.spec?.scopes ?? []);
  const b = new Set(old.spec?.scopes ?? []);
  if (a.size !== b.size || [...a].some((s) => !b.has(s))) {
    errs.push(fieldErrors.invalid('spec.scopes', rq.spec?.scopes ?? null, FIELD_IMMUTABLE));
  }
  return errs;
}

/** kube's `ValidateResourceQuotaStatusUpdate` beyond metadata. */
export function validateResourceQuotaStatusUpdate(rq: ResourceQuota): FieldError[] {
  const errs = rq.metadata.resourceVersion ? [] : [fieldErrors.required('resourceVersion')];
  return [...errs, ...validateResourceQuotaStatus(rq)];
}
