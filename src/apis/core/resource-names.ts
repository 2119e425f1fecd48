/**
 * kube's classification of resource names (`pkg/apis/core/helper`): native versus extended
 * resources, huge pages, which names are standard for containers, quotas and limit ranges, which
 * must be integers and which may be overcommitted.
 */
import { isQualifiedName } from '../meta/name-validation.js';

const HUGE_PAGES_PREFIX = 'hugepages-';
const REQUESTS_HUGE_PAGES_PREFIX = 'requests.hugepages-';
const DEFAULT_NAMESPACE_PREFIX = 'kubernetes.io/';
const REQUESTS_PREFIX = 'requests.';

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

const COUNTED_OBJECTS = [
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
];

const STANDARD_QUOTA_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  ...COUNTED_OBJECTS,
]);

const STANDARD_RESOURCES = new Set([...STANDARD_QUOTA_RESOURCES, 'storage']);

const INTEGER_RESOURCES = new Set(COUNTED_OBJECTS);

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith(HUGE_PAGES_PREFIX);
}

/** Unprefixed names and names under `kubernetes.io/`. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes(DEFAULT_NAMESPACE_PREFIX);
}

/** A domain-prefixed name outside `kubernetes.io/` that is a valid quota name once `requests.` prefixed. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(REQUESTS_PREFIX)) return false;
  return isQualifiedName(`${REQUESTS_PREFIX}${name}`).length === 0;
}

export function isStandardContainerResourceName(name: string): boolean {
  return STANDARD_CONTAINER_RESOURCES.has(name) || isHugePageResourceName(name);
}

function isQuotaHugePageResourceName(name: string): boolean {
  return name.startsWith(HUGE_PAGES_PREFIX) || name.startsWith(REQUESTS_HUGE_PAGES_PREFIX);
}

export function isStandardResourceName(name: string): boolean {
  return STANDARD_RESOURCES.has(name) || isQuotaHugePageResourceName(name);
}

export function isStandardQuotaResourceName(name: string): boolean {
  return STANDARD_QUOTA_RESOURCES.has(name) || isQuotaHugePageResourceName(name);
}

/** Object counts and extended resources: whole numbers only. */
export function isIntegerResourceName(name: string): boolean {
  return INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);
}

/** Native, not huge pages: a request may be below the limit. */
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResourceName(name);
}

export const STANDARD_LIMIT_RANGE_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);

/** The scopes a ResourceQuota may name. */
export const STANDARD_QUOTA_SCOPES = new Set([
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'CrossNamespacePodAffinity',
]);

const POD_COMPUTE_QUOTA = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);

/** kube's `IsResourceQuotaScopeValidForResource`. */
export function isQuotaScopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return resource === 'pods' || POD_COMPUTE_QUOTA.has(resource);
    case 'BestEffort':
      return resource === 'pods';
    default:
      return true;
  }
}
