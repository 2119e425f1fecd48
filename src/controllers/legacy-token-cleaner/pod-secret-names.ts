import type { ApiObject } from '../../apis/object.js';

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

function arr(v: unknown): Obj[] {
  return Array.isArray(v) ? (v.map(obj).filter(Boolean) as Obj[]) : [];
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Volume sources that name a Secret under `secretRef.name`. */
const SECRET_REF_VOLUMES = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];

/**
 * The names of the Secrets a pod refers to (kube's `VisitPodSecretNames`): image pull secrets,
 * `envFrom[].secretRef` and `env[].valueFrom.secretKeyRef` of every container (init and ephemeral
 * too), and the Secret-backed volumes (secret, projected, csi, azureFile and the `secretRef`s).
 */
export function podSecretNames(pod: ApiObject): Set<string> {
  const names = new Set<string>();
  const add = (n: unknown) => {
    if (str(n) !== '') names.add(str(n));
  };
  const spec = obj(pod.spec) ?? {};
  for (const r of arr(spec.imagePullSecrets)) add(r.name);
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const c of arr(spec[list])) {
      for (const from of arr(c.envFrom)) add(obj(from.secretRef)?.name);
      for (const env of arr(c.env)) add(obj(obj(env.valueFrom)?.secretKeyRef)?.name);
    }
  }
  for (const v of arr(spec.volumes)) {
    add(obj(v.secret)?.secretName);
    add(obj(v.azureFile)?.secretName);
    add(obj(obj(v.csi)?.nodePublishSecretRef)?.name);
    for (const source of arr(obj(v.projected)?.sources)) add(obj(source.secret)?.name);
    for (const kind of SECRET_REF_VOLUMES) add(obj(obj(v[kind])?.secretRef)?.name);
  }
  return names;
}
