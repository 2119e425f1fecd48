/**
 * kube's `ValidateVolumes` for pod specs: unique DNS-label names, exactly one source per volume,
 * and the rules of the common sources (hostPath, emptyDir, secret, configMap, persistentVolumeClaim,
 * nfs, downwardAPI, projected, csi, ephemeral); the other sources get their required fields
 * checked.
 */
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Label } from '../meta/name-validation.js';
import { isPlainObject } from '../schema/json-value.js';
import { VOLUME_FIELD_PATHS, validateObjectFieldSelector, validateResourceFieldSelector } from './env-validation.js';
import type { KeyToPath, Volume } from './pod-types.js';
import { quantityOf } from './resource-validation.js';

type Json = Record<string, unknown>;

/** The volume sources in kube's checking order, each with the path segment kube reports it under. */
const SOURCES: readonly (readonly [key: string, reportedAs: string])[] = [
  ['emptyDir', 'emptyDir'],
  ['hostPath', 'hostPath'],
  ['gitRepo', 'gitRepo'],
  ['gcePersistentDisk', 'gcePersistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['secret', 'secret'],
  ['nfs', 'nfs'],
  ['iscsi', 'iscsi'],
  ['glusterfs', 'glusterfs'],
  ['flocker', 'flocker'],
  ['persistentVolumeClaim', 'persistentVolumeClaim'],
  ['rbd', 'rbd'],
  ['cinder', 'cinder'],
  ['cephfs', 'cephFS'],
  ['quobyte', 'quobyte'],
  ['downwardAPI', 'downwarAPI'],
  ['fc', 'fc'],
  ['flexVolume', 'flexVolume'],
  ['configMap', 'configMap'],
  ['azureFile', 'azureFile'],
  ['vsphereVolume', 'vsphereVolume'],
  ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'],
  ['azureDisk', 'azureDisk'],
  ['storageos', 'storageos'],
  ['projected', 'projected'],
  ['scaleIO', 'scaleIO'],
  ['csi', 'csi'],
  ['ephemeral', 'ephemeral'],
  ['image', 'image'],
];

/** Fields each remaining source requires (as kube's per-source validators do). */
const REQUIRED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  gitRepo: ['repository'],
  gcePersistentDisk: ['pdName'],
  awsElasticBlockStore: ['volumeID'],
  iscsi: ['targetPortal', 'iqn'],
  glusterfs: ['endpoints', 'path'],
  rbd: ['monitors', 'image'],
  cinder: ['volumeID'],
  cephfs: ['monitors'],
  flexVolume: ['driver'],
  azureFile: ['secretName', 'shareName'],
  azureDisk: ['diskName', 'diskURI'],
  vsphereVolume: ['volumePath'],
  photonPersistentDisk: ['pdID'],
  portworxVolume: ['volumeID'],
  storageos: ['volumeName'],
  image: ['reference'],
};

/** kube reports a few sources' fields under another name. */
const REPORTED_SOURCE_PATH: Readonly<Record<string, string>> = { gcePersistentDisk: 'persistentDisk' };

const FILE_MODE_ERR = 'must be a number between 0 and 0777 (octal), both inclusive';
const HOST_PATH_TYPES = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
];

function validateMode(mode: unknown, path: string): FieldError[] {
  return typeof mode === 'number' && (mode > 0o777 || mode < 0) ? [fieldErrors.invalid(path, mode, FILE_MODE_ERR)] : [];
}

/** kube's `validatePathNoBacksteps`. */
export function validateNoBacksteps(p: string, path: string): FieldError[] {
  return p.split('/').includes('..') ? [fieldErrors.invalid(path, p, "must not contain '..'")] : [];
}

/** kube's `validateLocalDescendingPath`: relative, no `..` element. */
export function validateLocalDescendingPath(p: string, path: string): FieldError[] {
  const errs = p.startsWith('/') ? [fieldErrors.invalid(path, p, 'must be a relative path')] : [];
  return [...errs, ...validateNoBacksteps(p, path)];
}

/** kube's `ValidateLocalNonReservedPath`. */
export function validateLocalNonReservedPath(p: string, path: string): FieldError[] {
  const errs = validateLocalDescendingPath(p, path);
  if (p.startsWith('..') && !p.startsWith('../')) errs.push(fieldErrors.invalid(path, p, "must not start with '..'"));
  return errs;
}

function validateKeyToPath(kp: KeyToPath, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!kp.key) errs.push(fieldErrors.required(`${path}.key`));
  if (!kp.path) errs.push(fieldErrors.required(`${path}.path`));
  errs.push(...validateLocalNonReservedPath(kp.path ?? '', `${path}.path`));
  errs.push(...validateMode(kp.mode, `${path}.mode`));
  return errs;
}

function validateItems(items: unknown, path: string): FieldError[] {
  return (Array.isArray(items) ? (items as KeyToPath[]) : []).flatMap((kp, i) =>
    validateKeyToPath(kp, `${path}[${i}]`),
  );
}

function validateDownwardFile(file: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const filePath = typeof file.path === 'string' ? file.path : '';
  if (!filePath) errs.push(fieldErrors.required(`${path}.path`));
  errs.push(...validateLocalNonReservedPath(filePath, `${path}.path`));
  if (isPlainObject(file.fieldRef)) {
    errs.push(...validateObjectFieldSelector(file.fieldRef, VOLUME_FIELD_PATHS, `${path}.fieldRef`));
    if (isPlainObject(file.resourceFieldRef)) {
      errs.push(
        fieldErrors.invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'),
      );
    }
  } else if (isPlainObject(file.resourceFieldRef)) {
    errs.push(...validateResourceFieldSelector(file.resourceFieldRef, `${path}.resourceFieldRef`, true));
  } else {
    errs.push(fieldErrors.required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  return [...errs, ...validateMode(file.mode, `${path}.mode`)];
}

function validateProjected(src: Json, path: string): FieldError[] {
  const errs = validateMode(src.defaultMode, `${path}.defaultMode`);
  const seenPaths = new Set<string>();
  const claimPath = (p: string, owner: unknown) => {
    if (!p) return;
    if (seenPaths.has(p)) errs.push(fieldErrors.invalid(path, owner, 'conflicting duplicate paths'));
    seenPaths.add(p);
  };
  (Array.isArray(src.sources) ? (src.sources as Json[]) : []).forEach((s, i) => {
    const sp = `${path}.sources[${i}]`;
    let count = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const ref = s[kind];
      if (!isPlainObject(ref)) continue;
      count++;
      if (!ref.name) errs.push(fieldErrors.required(`${sp}.${kind}.name`));
      errs.push(...validateItems(ref.items, `${sp}.${kind}.items`));
      for (const kp of Array.isArray(ref.items) ? (ref.items as KeyToPath[]) : []) claimPath(kp.path ?? '', ref.name);
    }
    if (isPlainObject(s.downwardAPI)) {
      count++;
      for (const file of Array.isArray(s.downwardAPI.items) ? (s.downwardAPI.items as Json[]) : []) {
        errs.push(...validateDownwardFile(file, `${sp}.downwardAPI`));
        if (typeof file.path === 'string') claimPath(file.path, file.path);
      }
    }
    const token = s.serviceAccountToken;
    if (isPlainObject(token)) {
      count++;
      const seconds = typeof token.expirationSeconds === 'number' ? token.expirationSeconds : 0;
      if (seconds < 600) {
        errs.push(
          fieldErrors.invalid(
            `${sp}.serviceAccountToken.expirationSeconds`,
            seconds,
            'may not specify a duration less than 10 minutes',
          ),
        );
      }
      if (seconds > 2 ** 32) {
        errs.push(
          fieldErrors.invalid(
            `${sp}.serviceAccountToken.expirationSeconds`,
            seconds,
            'may not specify a duration larger than 2^32 seconds',
          ),
        );
      }
      if (!token.path) errs.push(fieldErrors.required(`${path}.path`));
      else errs.push(...validateLocalNonReservedPath(String(token.path), `${path}.path`));
    }
    if (isPlainObject(s.clusterTrustBundle)) count++;
    if (count > 1) errs.push(fieldErrors.forbidden(sp, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

/**
 * The PVC spec check of a generic ephemeral volume's claim template; injected so this module does
 * not depend on the PersistentVolumeClaim rules.
 */
export type ClaimSpecValidator = (spec: Json, path: string) => FieldError[];

function validateSource(key: string, src: Json, path: string, claimSpec: ClaimSpecValidator): FieldError[] {
  switch (key) {
    case 'emptyDir': {
      const limit = src.sizeLimit === undefined ? undefined : quantityOf(src.sizeLimit);
      return limit && limit.sign() < 0
        ? [fieldErrors.forbidden(`${path}.sizeLimit`, 'SizeLimit field must be a valid resource quantity')]
        : [];
    }
    case 'hostPath': {
      if (!src.path) return [fieldErrors.required(`${path}.path`)];
      const errs = validateNoBacksteps(String(src.path), `${path}.path`);
      if (typeof src.type === 'string' && !HOST_PATH_TYPES.includes(src.type)) {
        errs.push(fieldErrors.notSupported(`${path}.type`, src.type, HOST_PATH_TYPES));
      }
      return errs;
    }
    case 'secret':
    case 'configMap': {
      const nameField = key === 'secret' ? 'secretName' : 'name';
      const errs = src[nameField] ? [] : [fieldErrors.required(`${path}.${nameField}`)];
      return [
        ...errs,
        ...validateMode(src.defaultMode, `${path}.defaultMode`),
        ...validateItems(src.items, `${path}.items`),
      ];
    }
    case 'persistentVolumeClaim':
      return src.claimName ? [] : [fieldErrors.required(`${path}.claimName`)];
    case 'nfs': {
      const errs: FieldError[] = [];
      if (!src.server) errs.push(fieldErrors.required(`${path}.server`));
      if (!src.path) errs.push(fieldErrors.required(`${path}.path`));
      if (!String(src.path ?? '').startsWith('/')) {
        errs.push(fieldErrors.invalid(`${path}.path`, src.path ?? '', 'must be an absolute path'));
      }
      return errs;
    }
    case 'downwardAPI':
      return [
        ...validateMode(src.defaultMode, `${path}.defaultMode`),
        ...(Array.isArray(src.items) ? (src.items as Json[]) : []).flatMap((f) => validateDownwardFile(f, path)),
      ];
    case 'projected':
      return validateProjected(src, path);
    case 'csi':
      return src.driver ? [] : [fieldErrors.required(`${path}.driver`)];
    case 'ephemeral':
      if (!isPlainObject(src.volumeClaimTemplate)) return [fieldErrors.required(`${path}.volumeClaimTemplate`)];
      return claimSpec(
        isPlainObject(src.volumeClaimTemplate.spec) ? src.volumeClaimTemplate.spec : {},
        `${path}.volumeClaimTemplate.spec`,
      );
    default: {
      const reported = `${path.slice(0, path.lastIndexOf('.'))}.${REPORTED_SOURCE_PATH[key] ?? key}`;
      return (REQUIRED_FIELDS[key] ?? [])
        .filter(
          (f) => src[f] === undefined || src[f] === '' || (Array.isArray(src[f]) && (src[f] as unknown[]).length === 0),
        )
        .map((f) => fieldErrors.required(`${reported}.${f}`));
    }
  }
}

/** Positions in {@link SOURCES} by source key. */
const SOURCE_POSITIONS: ReadonlyMap<string, number> = new Map(SOURCES.map(([key], i) => [key, i]));

/**
 * Positions in {@link SOURCES} of the sources `v` sets, in kube's order. A volume sets one or two
 * of the thirty: its own keys are looked up rather than every source read from it.
 */
function setSources(v: Volume): number[] {
  const positions: number[] = [];
  for (const key in v) {
    const at = SOURCE_POSITIONS.get(key);
    if (at === undefined || v[key] === undefined || v[key] === null) continue;
    let i = positions.length;
    positions.push(at);
    while (i > 0 && positions[i - 1]! > at) {
      positions[i] = positions[i - 1]!;
      i--;
    }
    positions[i] = at;
  }
  return positions;
}

function validateVolumeSource(v: Volume, path: string, claimSpec: ClaimSpecValidator): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const at of setSources(v)) {
    const [key, reportedAs] = SOURCES[at]!;
    const src = v[key];
    if (count > 0) {
      errs.push(fieldErrors.forbidden(`${path}.${reportedAs}`, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...validateSource(key, isPlainObject(src) ? src : {}, `${path}.${key}`, claimSpec));
  }
  if (count === 0) errs.push(fieldErrors.required(path, 'must specify a volume type'));
  return errs;
}

/**
 * kube's `ValidateVolumes`: the errors, and the volumes by name (only those without errors, as
 * kube keeps them for the containers' mount checks).
 */
export function validateVolumes(
  volumes: readonly Volume[] | undefined,
  path: string,
  claimSpec: ClaimSpecValidator,
): { volumes: Map<string, Volume>; errors: FieldError[] } {
  const byName = new Map<string, Volume>();
  const errors: FieldError[] = [];
  (volumes ?? []).forEach((v, i) => {
    const p = `${path}[${i}]`;
    const errs = validateVolumeSource(v, p, claimSpec);
    const name = v.name ?? '';
    if (!name) errs.push(fieldErrors.required(`${p}.name`));
    else errs.push(...isDNS1123Label(name).map((m) => fieldErrors.invalid(`${p}.name`, name, m)));
    if (byName.has(name)) errs.push(fieldErrors.duplicate(`${p}.name`, name));
    if (errs.length === 0) byName.set(name, v);
    else errors.push(...errs);
  });
  return { volumes: byName, errors };
}
