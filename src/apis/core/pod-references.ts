/**
 * The Secrets and ConfigMaps a pod names directly (kube's `VisitPodSecretNames` and
 * `VisitPodConfigmapNames` over every container kind): what a node may read for the pod, and what
 * a mirror pod may not name. Transitive references (pod → PVC → PV → Secret) are not followed.
 * Read defensively: a missing or oddly typed field never throws.
 */
import type { Container, PodSpec } from './pod-types.js';

type Json = Record<string, unknown>;

function asObject(v: unknown): Json | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function nameAt(v: unknown, field: string): string {
  const s = asObject(v)?.[field];
  return typeof s === 'string' ? s : '';
}

function containersOf(spec: PodSpec): Container[] {
  return [
    ...asArray(spec.initContainers),
    ...asArray(spec.containers),
    ...asArray(spec.ephemeralContainers),
  ] as Container[];
}

/**
 * Volume sources naming a Secret, in kube's order: one volume has one source, and the first
 * present one is the one read. `[source, field of the name, object holding it]`.
 */
const SECRET_VOLUME_SOURCES: readonly (readonly [string, string, string | undefined])[] = [
  ['azureFile', 'secretName', undefined],
  ['cephfs', 'name', 'secretRef'],
  ['cinder', 'name', 'secretRef'],
  ['flexVolume', 'name', 'secretRef'],
  ['projected', '', undefined],
  ['rbd', 'name', 'secretRef'],
  ['secret', 'secretName', undefined],
  ['scaleIO', 'name', 'secretRef'],
  ['iscsi', 'name', 'secretRef'],
  ['storageos', 'name', 'secretRef'],
  ['csi', 'name', 'nodePublishSecretRef'],
];

function volumeSecretNames(volume: unknown): string[] {
  const v = asObject(volume);
  if (!v) return [];
  for (const [source, field, holder] of SECRET_VOLUME_SOURCES) {
    const s = asObject(v[source]);
    if (!s) continue;
    if (source === 'projected') return asArray(s.sources).map((p) => nameAt(asObject(p)?.secret, 'name'));
    return [nameAt(holder ? s[holder] : s, field)];
  }
  return [];
}

function volumeConfigMapNames(volume: unknown): string[] {
  const v = asObject(volume);
  if (!v) return [];
  const projected = asObject(v.projected);
  if (projected) return asArray(projected.sources).map((p) => nameAt(asObject(p)?.configMap, 'name'));
  const cm = asObject(v.configMap);
  return cm ? [nameAt(cm, 'name')] : [];
}

/** Every Secret name the pod spec references (image pull secrets, env, envFrom, volumes); no empty names. */
export function podSecretNames(spec: PodSpec | undefined): string[] {
  if (!spec) return [];
  const names: string[] = asArray(spec.imagePullSecrets).map((r) => nameAt(r, 'name'));
  for (const c of containersOf(spec)) {
    if (!asObject(c)) continue;
    for (const e of asArray(c.envFrom)) names.push(nameAt(asObject(e)?.secretRef, 'name'));
    for (const e of asArray(c.env)) names.push(nameAt(asObject(asObject(e)?.valueFrom)?.secretKeyRef, 'name'));
  }
  for (const v of asArray(spec.volumes)) names.push(...volumeSecretNames(v));
  return names.filter((n) => n !== '');
}

/** Every ConfigMap name the pod spec references (env, envFrom, volumes); no empty names. */
export function podConfigMapNames(spec: PodSpec | undefined): string[] {
  if (!spec) return [];
  const names: string[] = [];
  for (const c of containersOf(spec)) {
    if (!asObject(c)) continue;
    for (const e of asArray(c.envFrom)) names.push(nameAt(asObject(e)?.configMapRef, 'name'));
    for (const e of asArray(c.env)) names.push(nameAt(asObject(asObject(e)?.valueFrom)?.configMapKeyRef, 'name'));
  }
  for (const v of asArray(spec.volumes)) names.push(...volumeConfigMapNames(v));
  return names.filter((n) => n !== '');
}
