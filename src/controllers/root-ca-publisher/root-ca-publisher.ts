import { readFile } from 'node:fs/promises';
import type { ApiDomain } from '../../apis/api-domain.js';
import type { ApiObject } from '../../apis/object.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import { type ControllerDescriptor, configString } from '../controller-descriptor.js';
import { errorText, isNamespaceTerminating, isStatus, startResync, waitForInformers } from '../controller-support.js';

/** The ConfigMap every namespace gets: `orch-root-ca.crt` | `kube-root-ca.crt`. */
export function rootCaConfigMapName(domain: ApiDomain): string {
  return domain.componentName('root-ca.crt');
}

/** The annotation kube's publisher sets on it (`<domain>/description`) and its text. */
export function rootCaDescription(domain: ApiDomain): { readonly key: string; readonly value: string } {
  return {
    key: domain.key('', 'description'),
    value: `Contains a CA bundle that can be used to verify the ${domain.apiServerManager} when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.`,
  };
}

function sameData(a: unknown, want: Record<string, string>): boolean {
  if (typeof a !== 'object' || a === null) return false;
  const keys = Object.keys(a);
  return keys.length === 1 && (a as Record<string, unknown>)['ca.crt'] === want['ca.crt'];
}

/**
 * kube-controller-manager's root CA certificate publisher (`root-ca-certificate-publisher-controller`):
 * every namespace gets the ConfigMap `orch-root-ca.crt` (kube: `kube-root-ca.crt`) whose only key
 * `ca.crt` is the root CA bundle (`SAController.RootCAFile`), with the description annotation. It
 * is created in namespaces added or becoming active, and written back when its data is changed
 * or the annotation removed, and created again when deleted. A namespace that is terminating is
 * left alone. Reads come from the informers only (its role has `create` and `update`).
 */
export const rootCaCertificatePublisher: ControllerDescriptor = {
  name: 'root-ca-certificate-publisher-controller',
  aliases: ['root-ca-cert-publisher'],
  serviceAccount: 'root-ca-cert-publisher',
  enabledByDefault: true,
  configMember: 'SAController',
  async run(ctx) {
    const caFile = configString(ctx.config, 'RootCAFile');
    if (caFile === '') {
      ctx.logger.warn('root-ca-cert-publisher: not started, SAController.RootCAFile is not set');
      return;
    }
    let rootCA: string;
    try {
      rootCA = await readFile(caFile, 'utf8');
    } catch (e) {
      throw new Error(`SAController.RootCAFile: cannot read ${caFile} (${(e as NodeJS.ErrnoException).code})`);
    }
    const namespaces = ctx.informers.lookup('', 'namespaces');
    const configMaps = ctx.informers.lookup('', 'configmaps');
    const client = ctx.client.resource('', 'v1', 'configmaps');
    if (!namespaces || !configMaps || !client) return;
    const name = rootCaConfigMapName(ctx.domain);
    const description = rootCaDescription(ctx.domain);
    const data = { 'ca.crt': rootCA };
    const queue = new WorkQueue<string>({ signal: ctx.signal, maxRetryDelayMs: 30_000 });
    const queueNs = (ns: ApiObject) => {
      if (ns.metadata.name) queue.add(ns.metadata.name);
    };
    namespaces.addHandlers({
      onAdd: queueNs,
      onUpdate: (_o, ns) => {
        if ((ns as { status?: { phase?: string } }).status?.phase === 'Active') queueNs(ns);
      },
    });
    const queueCm = (cm: ApiObject) => {
      if (cm.metadata.name === name && cm.metadata.namespace) queue.add(cm.metadata.namespace);
    };
    configMaps.addHandlers({ onUpdate: (_o, cm) => queueCm(cm), onDelete: queueCm });

    const sync = async (namespace: string) => {
      const ns = namespaces.get('', namespace);
      if (!ns || ns.metadata.deletionTimestamp) return;
      const cm = configMaps.get(namespace, name);
      if (!cm) {
        try {
          await client.create(
            namespace,
            {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name, namespace, annotations: { [description.key]: description.value } },
              data,
            },
            ctx.signal,
          );
        } catch (e) {
          // Already there (the cache lags: an event follows), or the namespace is going away.
          if (isStatus(e, 409) || isStatus(e, 404) || isNamespaceTerminating(e)) return;
          throw e;
        }
        return;
      }
      const annotations = cm.metadata.annotations ?? {};
      if (sameData(cm.data, data) && (annotations[description.key] ?? '') !== '') return;
      const updated = structuredClone(cm);
      updated.data = { ...data };
      if ((annotations[description.key] ?? '') === '') {
        updated.metadata.annotations = { ...annotations, [description.key]: description.value };
      }
      try {
        await client.update(updated, ctx.signal);
      } catch (e) {
        if (isStatus(e, 409) || isStatus(e, 404)) return; // an event for the newer state follows
        throw e;
      }
    };

    if (!(await waitForInformers([namespaces, configMaps], ctx.signal))) return;
    // Every namespace cached now (handlers added late do not hear of those already listed), then
    // again every resync period.
    const all = () => {
      for (const ns of namespaces.list()) queueNs(ns);
    };
    all();
    startResync(ctx.minResyncPeriodMs, ctx.signal, all);
    await queue.run(sync, {
      workers: 1,
      onError: (namespace, err) =>
        ctx.logger.warn('root-ca-cert-publisher: retrying', {
          namespace,
          error: errorText(err),
        }),
    });
  },
};
