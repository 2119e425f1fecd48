import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import { encodeYaml } from '../../encoding/index.js';
import { PRIVATE_FILE_MODE, writeFileAtomic } from './pem-files.js';

export interface AdminKubeconfigOptions {
  /** Destination; parent directories are created. Written atomically with mode 0600 (it holds a private key). */
  readonly path: string;
  /** `https://host:port` of the secure server. */
  readonly serverUrl: string;
  /** CA that signed the serving certificate (inlined as `certificate-authority-data`). */
  readonly caPem: string;
  readonly clientCertPem: string;
  readonly clientKeyPem: string;
  /** Names of the cluster, user and context entries; defaults `orch`, `orch-admin`, `orch` (the `orch.io` profile's). */
  readonly clusterName?: string;
  readonly userName?: string;
  readonly contextName?: string;
}

const b64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');

/** Builds the kubeconfig document (kind Config, v1) with all credentials inlined as base64 data fields. */
export function buildAdminKubeconfig(options: Omit<AdminKubeconfigOptions, 'path'>): Record<string, unknown> {
  const cluster = options.clusterName ?? ORCH_DOMAIN.kubeconfigName;
  const user = options.userName ?? 'orch-admin';
  const context = options.contextName ?? ORCH_DOMAIN.kubeconfigName;
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: cluster, cluster: { server: options.serverUrl, 'certificate-authority-data': b64(options.caPem) } },
    ],
    users: [
      {
        name: user,
        user: { 'client-certificate-data': b64(options.clientCertPem), 'client-key-data': b64(options.clientKeyPem) },
      },
    ],
    contexts: [{ name: context, context: { cluster, user } }],
    'current-context': context,
    preferences: {},
  };
}

/** Writes an admin kubeconfig that `kubectl --kubeconfig <path>` uses as is (current context set). */
export async function writeAdminKubeconfig(options: AdminKubeconfigOptions): Promise<void> {
  await mkdir(dirname(options.path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(options.path, encodeYaml(buildAdminKubeconfig(options)), PRIVATE_FILE_MODE);
}
