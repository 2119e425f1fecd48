import type { ApiDomain } from '../apis/api-domain.js';
import { MIRROR_POD_ANNOTATION } from '../apis/core/pod-validation.js';
import type { Authorizer } from '../authz/authorizer.js';
import { type GraphHandlers, graphPopulator, type NodeGraph } from '../authz/node/index.js';
import { ResourceInformer } from '../client/informer/resource-informer.js';
import { ControllerClient, frozenUser } from '../controllers/controller-client.js';
import { inProcessResourceClient } from '../controllers/in-process-api-client.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import type { Logger } from '../util/logger.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';

export interface NodeGraphFeedOptions {
  readonly resources: ResourceSet;
  readonly graph: NodeGraph;
  readonly domain: ApiDomain;
  readonly logger: Logger;
  /** Decides on the feed's lists and watches (made as the API server itself). */
  readonly authorizer: Authorizer;
  /** Stops the watches when it aborts. */
  readonly signal: AbortSignal;
}

/**
 * Keeps the Node authorizer's graph current, as kube-apiserver's graph populator does from its
 * informers: one list and watch each (through the watch caches) of pods, PersistentVolumes,
 * VolumeAttachments and ResourceSlices (each that is served), every change applied to the graph. No
 * request ever lists anything: decisions read the graph. Resolves once each has delivered its
 * first list, so the server starts deciding with every stored object in the graph.
 */
export async function feedNodeGraph(o: NodeGraphFeedOptions): Promise<void> {
  const handlers = graphPopulator(o.graph, { mirrorPodAnnotation: MIRROR_POD_ANNOTATION });
  const client = new ControllerClient(
    { user: frozenUser(API_SERVER_USER), manager: o.domain.apiServerManager },
    o.authorizer,
  );
  const sources: [string, string, string, GraphHandlers, boolean][] = [
    ['', 'v1', 'pods', handlers.pods, true],
    // The others may be turned off (--runtime-config): their objects then relate to no node.
    ['', 'v1', 'persistentvolumes', handlers.persistentVolumes, false],
    [o.domain.group('storage'), 'v1', 'volumeattachments', handlers.volumeAttachments, false],
    [o.domain.group('resource'), 'v1beta1', 'resourceslices', handlers.resourceSlices, false],
  ];
  const informers: ResourceInformer[] = [];
  for (const [group, version, resource, h, required] of sources) {
    const served = o.resources.lookup(group, version, resource);
    if (!served) {
      if (required)
        throw new Error(`the Node authorizer needs ${resource}${group ? `.${group}` : ''}/${version} served`);
      continue;
    }
    const informer = new ResourceInformer({
      client: inProcessResourceClient(served, client),
      logger: o.logger,
      signal: o.signal,
    });
    informer.addHandlers({ onAdd: h.onAdd, ignoresAdd: h.ignoresAdd, onUpdate: h.onUpdate, onDelete: h.onDelete });
    informer.start();
    informers.push(informer);
  }
  await Promise.all(informers.map((i) => i.synced()));
}
