/**
 * kube's `ValidateEnv` and `ValidateEnvFrom`: variable names, exactly one `valueFrom` source (and
 * none with a literal value), downward-API field paths and resources, key selectors.
 */
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isConfigMapKey, isQualifiedName, nameIsDNSSubdomain } from '../meta/name-validation.js';
import type { EnvFromSource, EnvVar } from './pod-types.js';
import { quantityOf } from './resource-validation.js';
import { isEnvVarName } from './value-formats.js';

const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];

/** Downward-API paths of volume files. */
export const VOLUME_FIELD_PATHS = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
];

const RESOURCE_FIELD_PATHS = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];

/** kube's `validateObjectFieldSelector`: a v1 field path among `allowed`, or a label/annotation subscript. */
export function validateObjectFieldSelector(
  fs: { apiVersion?: string; fieldPath?: string },
  allowed: readonly string[],
  path: string,
): FieldError[] {
  if (!fs.apiVersion) return [fieldErrors.required(`${path}.apiVersion`)];
  if (!fs.fieldPath) return [fieldErrors.required(`${path}.fieldPath`)];
  if (fs.apiVersion !== 'v1') {
    return [
      fieldErrors.invalid(
        `${path}.fieldPath`,
        fs.fieldPath,
        `error converting fieldPath: field label not supported: ${fs.fieldPath}`,
      ),
    ];
  }
  const subscript = /^(metadata\.(?:labels|annotations))\['(.*)'\]$/.exec(fs.fieldPath);
  if (subscript) {
    const key = subscript[1] === 'metadata.annotations' ? subscript[2].toLowerCase() : subscript[2];
    return isQualifiedName(key).map((m) => fieldErrors.invalid(path, key, m));
  }
  if (/^[^[]+\[.*\]$/.test(fs.fieldPath)) {
    return [fieldErrors.invalid(path, fs.fieldPath.slice(0, fs.fieldPath.indexOf('[')), 'does not support subscript')];
  }
  if (!allowed.includes(fs.fieldPath)) {
    return [fieldErrors.notSupported(`${path}.fieldPath`, fs.fieldPath, [...allowed].sort())];
  }
  return [];
}

const DIVISORS: Record<string, readonly string[]> = {
  cpu: ['1m', '1'],
  memory: ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'],
};

/** kube's `validateContainerResourceFieldSelector` (`volume`: the container name is required). */
export function validateResourceFieldSelector(
  fs: { containerName?: string; resource?: string; divisor?: string },
  path: string,
  volume: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const resource = fs.resource ?? '';
  if (volume && !fs.containerName) errs.push(fieldErrors.required(`${path}.containerName`));
  else if (!resource) errs.push(fieldErrors.required(`${path}.resource`));
  else if (
    !RESOURCE_FIELD_PATHS.includes(resource) &&
    !resource.startsWith('requests.hugepages-') &&
    !resource.startsWith('limits.hugepages-')
  ) {
    errs.push(fieldErrors.notSupported(`${path}.resource`, resource, RESOURCE_FIELD_PATHS));
  }
  const divisor = fs.divisor === undefined ? undefined : quantityOf(fs.divisor);
  if (divisor && divisor.sign() !== 0) {
    const kind = resource.endsWith('.cpu') ? 'cpu' : resource.endsWith('.memory') ? 'memory' : undefined;
    if (kind && !DIVISORS[kind].includes(divisor.toString())) {
      const list = kind === 'cpu' ? '1m and 1' : DIVISORS.memory.join(', ');
      errs.push(
        fieldErrors.invalid(
          `${path}.divisor`,
          resource,
          `only divisor's values ${list} are supported with the ${kind} resource`,
        ),
      );
    }
  }
  return errs;
}

function validateKeySelector(s: { name?: string; key?: string }, path: string): FieldError[] {
  const errs = nameIsDNSSubdomain(s.name ?? '', false).map((m) => fieldErrors.invalid(`${path}.name`, s.name ?? '', m));
  if (!s.key) errs.push(fieldErrors.required(`${path}.key`));
  else errs.push(...isConfigMapKey(s.key).map((m) => fieldErrors.invalid(`${path}.key`, s.key, m)));
  return errs;
}

function validateValueFrom(ev: EnvVar, path: string): FieldError[] {
  const from = ev.valueFrom;
  if (!from) return [];
  const errs: FieldError[] = [];
  let sources = 0;
  if (from.fieldRef) {
    sources++;
    errs.push(...validateObjectFieldSelector(from.fieldRef, ENV_FIELD_PATHS, `${path}.fieldRef`));
  }
  if (from.resourceFieldRef) {
    sources++;
    errs.push(...validateResourceFieldSelector(from.resourceFieldRef, `${path}.resourceFieldRef`, false));
  }
  if (from.configMapKeyRef) {
    sources++;
    errs.push(...validateKeySelector(from.configMapKeyRef, `${path}.configMapKeyRef`));
  }
  if (from.secretKeyRef) {
    sources++;
    errs.push(...validateKeySelector(from.secretKeyRef, `${path}.secretKeyRef`));
  }
  if (sources === 0) {
    errs.push(
      fieldErrors.invalid(
        path,
        '',
        'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ),
    );
  } else if (ev.value) {
    errs.push(fieldErrors.invalid(path, '', 'may not be specified when `value` is not empty'));
  } else if (sources > 1) {
    errs.push(fieldErrors.invalid(path, '', 'may not have more than one field specified at a time'));
  }
  return errs;
}

/**
 * kube's `ValidateEnv` of a container's `env` (`path` is the container's), added to `errs`; paths
 * are written only for errors.
 */
export function addEnvErrors(errs: FieldError[], vars: readonly EnvVar[] | undefined, path: string): void {
  if (!vars) return;
  for (let i = 0; i < vars.length; i++) {
    const ev = vars[i]!;
    if (!ev.name) errs.push(fieldErrors.required(`${path}.env[${i}].name`));
    else for (const m of isEnvVarName(ev.name)) errs.push(fieldErrors.invalid(`${path}.env[${i}].name`, ev.name, m));
    if (ev.valueFrom) errs.push(...validateValueFrom(ev, `${path}.env[${i}].valueFrom`));
  }
}

function validateRefName(ref: { name?: string }, path: string): FieldError[] {
  if (!ref.name) return [fieldErrors.required(`${path}.name`)];
  return nameIsDNSSubdomain(ref.name, true).map((m) => fieldErrors.invalid(`${path}.name`, ref.name, m));
}

/** kube's `ValidateEnvFrom` of a container's `envFrom` (`container` is its path), added to `errs`. */
export function addEnvFromErrors(
  errs: FieldError[],
  sources: readonly EnvFromSource[] | undefined,
  container: string,
): void {
  if (!sources || sources.length === 0) return;
  const path = `${container}.envFrom`;
  sources.forEach((ev, i) => {
    const p = `${path}[${i}]`;
    if (ev.prefix) errs.push(...isEnvVarName(ev.prefix).map((m) => fieldErrors.invalid(`${p}.prefix`, ev.prefix, m)));
    let count = 0;
    if (ev.configMapRef) {
      count++;
      errs.push(...validateRefName(ev.configMapRef, `${p}.configMapRef`));
    }
    if (ev.secretRef) {
      count++;
      errs.push(...validateRefName(ev.secretRef, `${p}.secretRef`));
    }
    if (count === 0) errs.push(fieldErrors.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1)
      errs.push(fieldErrors.invalid(path, '', 'may not have more than one field specified at a time'));
  });
}
