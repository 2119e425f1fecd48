import { StatusError } from '../apis/meta/status.js';
import type { ResourceStore } from '../registry/types.js';

/** Namespaces that exist on every server. */
export const SYSTEM_NAMESPACES = ['default', 'orch-system', 'orch-public', 'orch-node-lease'] as const;

/** Creates the system namespaces that are missing; existing ones are left as they are. */
export async function ensureSystemNamespaces(namespaces: ResourceStore, signal: AbortSignal): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) {
    try {
      await namespaces.create(
        { namespace: '', signal },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
        { dryRun: false },
      );
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
    }
  }
}
