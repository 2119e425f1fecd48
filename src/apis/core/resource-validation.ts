/**
 * kube's validation of resource names and quantities (`validateResourceName`,
 * `ValidateResourceQuantityValue`, `ValidateContainerResourceRequirements`): names must be
 * qualified and standard unless domain-prefixed, quantities non-negative (whole for object counts
 * and extended resources), requests at most the limit (equal for resources that cannot be
 * overcommitted).
 */
import { Quantity, QuantityError } from '../../util/go-quantity.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isQualifiedName } from '../meta/name-validation.js';
import { keyPath } from '../schema/field-path.js';
import type { ResourceList, ResourceRequirements } from './pod-types.js';
import {
  isExtendedResourceName,
  isHugePageResourceName,
  isIntegerResourceName,
  isNativeResource,
  isOvercommitAllowed,
  isStandardContainerResourceName,
  isStandardQuotaResourceName,
  isStandardResourceName,
} from './resource-names.js';

/** The quantity of a JSON value (kube accepts numbers and strings), undefined when it is not one. */
export function quantityOf(value: unknown): Quantity | undefined {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') return undefined;
  try {
    return Quantity.parse(String(value).trim());
  } catch (e) {
    if (e instanceof QuantityError) return undefined;
    throw e;
  }
}

/** The canonical string of a quantity value (kube's `Quantity.String()`), or the raw text. */
export function quantityString(value: unknown): string {
  return quantityOf(value)?.toString() ?? String(value);
}

/** kube's `validateResourceName`: qualified, and standard unless domain-prefixed. */
export function validateResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => fieldErrors.invalid(path, name, msg));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !isStandardResourceName(name)) {
    return [fieldErrors.invalid(path, name, 'must be a standard resource type or fully qualified')];
  }
  return [];
}

/** kube's `validateContainerResourceName`. */
export function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!isStandardContainerResourceName(name)) {
      return [...errs, fieldErrors.invalid(path, name, 'must be a standard resource for containers')];
    }
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    return [...errs, fieldErrors.invalid(path, name, "doesn't follow extended resource name standard")];
  }
  return errs;
}

/** kube's `ValidateResourceQuotaResourceName`. */
export function validateQuotaResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) {
    return [...errs, fieldErrors.invalid(path, name, 'must be a standard resource for quota')];
  }
  return errs;
}

/** kube's `ValidateResourceQuantityValue`: not negative; a whole number for integer resources. */
export function validateResourceQuantityValue(resource: string, value: unknown, path: string): FieldError[] {
  const q = quantityOf(value);
  return q ? quantityValueErrors(resource, q, path) : [];
}

/** {@link validateResourceQuantityValue} of a quantity already parsed. */
function quantityValueErrors(resource: string, q: Quantity, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (q.sign() < 0) errs.push(fieldErrors.invalid(path, q.toString(), 'must be greater than or equal to 0'));
  if (isIntegerResourceName(resource) && q.milliValue() % 1000n !== 0n) {
    errs.push(fieldErrors.invalid(path, q.toString(), 'must be an integer'));
  }
  return errs;
}

/** kube's `ValidatePositiveQuantityValue`. */
export function validatePositiveQuantity(value: unknown, path: string): FieldError[] {
  const q = quantityOf(value);
  return q && q.sign() <= 0 ? [fieldErrors.invalid(path, q.toString(), 'must be greater than zero')] : [];
}

/**
 * The names of a resource list in ascending order of UTF-16 code units, as `sort()` orders strings
 * (kube's order is Go's random map order). A list has a handful of names: sorted by insertion,
 * which costs less than `sort()`'s conversions for so few.
 */
function sortedNames(list: ResourceList | undefined): string[] {
  if (!list) return [];
  const names = Object.keys(list);
  for (let i = 1; i < names.length; i++) {
    const name = names[i]!;
    let j = i;
    while (j > 0 && names[j - 1]! > name) {
      names[j] = names[j - 1]!;
      j--;
    }
    names[j] = name;
  }
  return names;
}

const QOS_COMPUTE = new Set(['cpu', 'memory']);

/**
 * Whether a limit or request name has nothing `validateContainerResourceName` would report: the
 * usual `cpu` and `memory` are settled without writing the entry's path.
 */
function isPlainContainerResourceName(name: string): boolean {
  return (
    !name.includes('/') &&
    isStandardContainerResourceName(name) &&
    isStandardResourceName(name) &&
    isQualifiedName(name).length === 0
  );
}

/**
 * kube's `ValidateContainerResourceRequirements` of a container's `resources` (`container` is the
 * container's path), added to `errs`: names and quantities of limits and requests, each request at
 * most its limit (equal for huge pages and extended resources, whose limit is then required), huge
 * pages only together with cpu or memory, claims named in the pod's `resourceClaims`. Map entries
 * are checked in key order (kube's is Go's random map order). Paths are written only for errors.
 */
export function addContainerResourceErrors(
  errs: FieldError[],
  res: ResourceRequirements,
  container: string,
  podClaimNames: ReadonlySet<string>,
): void {
  let cpuOrMemory = false;
  let hugePages = false;
  const limits = res.limits;
  for (const name of sortedNames(limits)) {
    const limit = quantityOf(limits![name]);
    addResourceEntryErrors(errs, name, limit, container, 'limits');
    if (isHugePageResourceName(name)) hugePages = true;
    if (QOS_COMPUTE.has(name)) cpuOrMemory = true;
  }
  const requests = res.requests;
  for (const name of sortedNames(requests)) {
    const request = quantityOf(requests![name]);
    addResourceEntryErrors(errs, name, request, container, 'requests');
    const limitValue = limits?.[name];
    // Quantities are parsed once: a limit's second parse is a lookup.
    const limit = limitValue === undefined ? undefined : quantityOf(limitValue);
    if (request && limit) {
      const order = request.cmp(limit);
      if (order !== 0 && !isOvercommitAllowed(name)) {
        errs.push(
          fieldErrors.invalid(
            resourcesPath(container, 'requests'),
            request.toString(),
            `must be equal to ${name} limit of ${limit.toString()}`,
          ),
        );
      } else if (order > 0) {
        errs.push(
          fieldErrors.invalid(
            resourcesPath(container, 'requests'),
            request.toString(),
            `must be less than or equal to ${name} limit of ${limit.toString()}`,
          ),
        );
      }
    } else if (limitValue === undefined && !isOvercommitAllowed(name)) {
      errs.push(
        fieldErrors.required(resourcesPath(container, 'limits'), 'Limit must be set for non overcommitable resources'),
      );
    }
    if (isHugePageResourceName(name)) hugePages = true;
    if (QOS_COMPUTE.has(name)) cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory)
    errs.push(fieldErrors.forbidden(resourcesPath(container), 'HugePages require cpu or memory'));
  if (res.claims !== undefined) {
    errs.push(...validateClaimReferences(res.claims, `${resourcesPath(container)}.claims`, podClaimNames));
  }
}

/** A container's `resources` path, or one of its lists' (a function, not a closure per call). */
function resourcesPath(container: string, list?: 'limits' | 'requests'): string {
  return list ? `${container}.resources.${list}` : `${container}.resources`;
}

/** The errors of one entry of limits or requests: its name, then its quantity (when it is one). */
function addResourceEntryErrors(
  errs: FieldError[],
  name: string,
  q: Quantity | undefined,
  container: string,
  list: 'limits' | 'requests',
): void {
  const nameOk = isPlainContainerResourceName(name);
  const quantityOk = !q || (q.sign() >= 0 && !isIntegerResourceName(name));
  if (nameOk && quantityOk) return;
  const path = keyPath(`${container}.resources.${list}`, name);
  if (!nameOk) for (const e of validateContainerResourceName(name, path)) errs.push(e);
  if (q) for (const e of quantityValueErrors(name, q, path)) errs.push(e);
}

function validateClaimReferences(
  claims: ResourceRequirements['claims'],
  path: string,
  podClaimNames: ReadonlySet<string>,
): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (claims ?? []).forEach((claim, i) => {
    const name = claim.name ?? '';
    if (!name) {
      errs.push(fieldErrors.required(`${path}[${i}]`));
      return;
    }
    const key = claim.request ? `${name}/${claim.request}` : name;
    if (seen.has(name) || seen.has(key)) errs.push(fieldErrors.duplicate(`${path}[${i}]`, seen.has(name) ? name : key));
    seen.add(key);
    if (!podClaimNames.has(name)) {
      const names = [...podClaimNames].sort();
      const detail = names.length === 0 ? ' which is empty' : `: ${names.join(', ')}`;
      errs.push({
        type: 'FieldValueNotFound',
        field: `${path}[${i}]`,
        message: `Not found: ${JSON.stringify(name)}: must be one of the names in pod.spec.resourceClaims${detail}`,
      });
    }
  });
  return errs;
}
