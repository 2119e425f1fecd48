import { servedVersionDefinitions } from '../apiextensions/served-versions.js';
import { type WebhookConverter, webhookConverter } from '../apiextensions/webhook-converter.js';
import type { ApiDomain } from '../apis/api-domain.js';
import { CRD_CONDITIONS, type CustomResourceDefinition, isCrdConditionTrue } from '../apis/apiextensions/crd-types.js';
import type { Schema } from '../apis/schema/schema.js';
import type { Authorizer } from '../authz/index.js';
import { ResourceInformer } from '../client/informer/resource-informer.js';
import { WorkQueue } from '../client/queue/work-queue.js';
import { CrdController } from '../controllers/apiextensions/crd-controller.js';
import { ControllerClient, frozenUser } from '../controllers/controller-client.js';
import { inProcessResourceClient } from '../controllers/in-process-api-client.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';

/** Options of {@link serveCustomResources}. */
export interface CustomResourcesOptions {
  readonly resources: ResourceSet;
  readonly domain: ApiDomain;
  readonly authorizer: Authorizer;
  readonly logger: Logger;
  /** Stops watching and serving when it aborts (served definitions stay until removed). */
  readonly signal: AbortSignal;
  readonly clock?: Clock;
  /** `autoscaling/v1` Scale's schema, for `scale` sub-resources. */
  readonly scaleSchema: Schema;
}

/** The custom resources being served. */
export interface CustomResources {
  /** Resolves once every CRD stored when serving started is served (when it is established). */
  readonly ready: Promise<void>;
  /** Resolves when the controllers and the serving loop have ended (after the signal aborted). */
  stopped(): Promise<void>;
}

interface Serving {
  /** What the definitions were built from; another value rebuilds them. */
  readonly key: string;
  readonly paths: readonly { readonly group: string; readonly version: string; readonly resource: string }[];
  /** The conversion webhook's client of a `Webhook` CRD, closed when the versions go. */
  readonly converter?: WebhookConverter;
}

/**
 * Serves CustomResourceDefinitions: runs the CRD controllers (names, establishing, the cleanup
 * finalizer) and keeps the resource set in step with the established CRDs, so custom resources
 * are served, discovered and published in OpenAPI as built-in kinds are. A CRD's versions are
 * rebuilt when its spec or accepted names change and removed when it is deleted; a CRD whose
 * conversion is `Webhook` is served in every served version through its webhook. Everything
 * runs as the API server (`system:apiserver`); its status writes are recorded under the API
 * server's field manager.
 */
export function serveCustomResources(o: CustomResourcesOptions): CustomResources {
  const crdGroup = o.domain.group('apiextensions');
  const crds = o.resources.lookup(crdGroup, 'v1', 'customresourcedefinitions');
  if (!crds) return { ready: Promise.resolve(), stopped: () => Promise.resolve() };
  const client = new ControllerClient(
    { user: frozenUser(API_SERVER_USER), manager: o.domain.apiServerManager },
    o.authorizer,
  );
  const informer = new ResourceInformer({
    client: inProcessResourceClient(crds, client),
    logger: o.logger,
    signal: o.signal,
  });
  const serving = new Map<string, Serving>();
  const fromCrds = new Set<string>();
  const builtinNames = (group: string) => {
    const resources = new Set<string>();
    const kinds = new Set<string>();
    for (const { def } of o.resources.all()) {
      if (def.group !== group || fromCrds.has(`${def.group}/${def.resource}`)) continue;
      for (const r of [def.resource, def.singular, ...def.shortNames]) if (r) resources.add(r);
      kinds.add(def.kind);
      kinds.add(def.listKind);
    }
    return { resources, kinds };
  };
  const controller = new CrdController({
    informer,
    client,
    resources: o.resources,
    builtinNames,
    domain: o.domain,
    logger: o.logger,
    signal: o.signal,
    clock: o.clock,
  });
  const current = (name: string) => informer.get('', name) as CustomResourceDefinition | undefined;
  const reconcile = async (name: string): Promise<void> => {
    const crd = current(name);
    const servable = crd !== undefined && isCrdConditionTrue(crd, CRD_CONDITIONS.established);
    const key = servable ? JSON.stringify([crd.metadata.uid, crd.spec, crd.status?.acceptedNames]) : '';
    const was = serving.get(name);
    if ((was?.key ?? '') === key) return;
    for (const p of was?.paths ?? []) {
      o.resources.remove(p.group, p.version, p.resource);
      fromCrds.delete(`${p.group}/${p.resource}`);
    }
    was?.converter?.close();
    serving.delete(name);
    if (!servable) return;
    const converter =
      crd.spec?.conversion?.strategy === 'Webhook' ? webhookConverter({ crd, reviewGroup: crdGroup }) : undefined;
    const defs = servedVersionDefinitions(crd, {
      webhook: converter,
      scaleSchema: o.scaleSchema,
      terminating: () => {
        const now = current(name);
        return now !== undefined && isCrdConditionTrue(now, CRD_CONDITIONS.terminating);
      },
    });
    const paths: Serving['paths'][number][] = [];
    for (const def of defs) {
      try {
        await o.resources.add(def);
        paths.push({ group: def.group, version: def.version, resource: def.resource });
        fromCrds.add(`${def.group}/${def.resource}`);
      } catch (e) {
        o.logger.warn('custom resource version not served', {
          crd: name,
          version: def.version,
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
    serving.set(name, { key, paths, converter });
  };
  // One reconcile at a time per CRD: the start-up pass and the queue may ask for the same one.
  const chains = new Map<string, Promise<void>>();
  const serialized = (name: string): Promise<void> => {
    const next = (chains.get(name) ?? Promise.resolve()).then(() => reconcile(name));
    const settled = next.catch(() => {});
    chains.set(name, settled);
    void settled.then(() => {
      if (chains.get(name) === settled) chains.delete(name);
    });
    return next;
  };
  const queue = new WorkQueue<string>({ signal: o.signal });
  informer.addHandlers({
    onAdd: (obj) => queue.add(obj.metadata.name ?? ''),
    onUpdate: (_old, obj) => queue.add(obj.metadata.name ?? ''),
    onDelete: (obj) => queue.add(obj.metadata.name ?? ''),
  });
  informer.start();
  // Conversion webhook clients keep idle connections; they go when serving stops.
  o.signal.addEventListener('abort', () => {
    for (const s of serving.values()) s.converter?.close();
  });
  const report = (what: string) => (e: unknown) => {
    if (!o.signal.aborted) o.logger.error(`${what} stopped unexpectedly`, { error: String(e) });
  };
  const loops = Promise.all([
    controller.run().catch(report('custom resource definition controller')),
    queue
      .run(serialized, {
        onError: (name, e) => o.logger.warn('custom resource serving failed', { crd: name, error: String(e) }),
      })
      .catch(report('custom resource serving')),
  ]);
  const ready = (async () => {
    await informer.synced();
    for (const crd of informer.list()) await serialized(crd.metadata.name ?? '');
  })();
  return {
    ready,
    async stopped() {
      await loops;
      await informer.stopped();
    },
  };
}
