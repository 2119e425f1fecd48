import type { Pod } from '../../../apis/core/pod-types.js';
import { apiErrors, StatusError } from '../../../apis/meta/status.js';
import type { ApiObject } from '../../../apis/object.js';
import type { RequestContext } from '../../types.js';
import { innerContext, type ServedResources, servedOrUnavailable } from './inner-requests.js';

const NODES = { group: '', version: 'v1', resource: 'nodes' };

/** Sub-resources that name one container (`?container=`), as kube's `validateContainer` checks them. */
const CONTAINER_SUBRESOURCES = new Set(['log', 'exec', 'attach']);

/**
 * kube's `validateContainer`: a named container must exist; with none named, a pod with exactly
 * one container uses it, otherwise the client must choose (400).
 */
function validateContainer(pod: Pod, container: string | null): void {
  const name = pod.metadata.name ?? '';
  const spec = pod.spec ?? {};
  if (container) {
    const all = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
    if (!all.some((c) => c.name === container)) {
      throw apiErrors.badRequest(`container ${container} is not valid for pod ${name}`);
    }
    return;
  }
  const containers = spec.containers ?? [];
  if (containers.length === 1) return;
  if (containers.length === 0) throw apiErrors.badRequest(`a container name must be specified for pod ${name}`);
  const names = [...(spec.initContainers ?? []), ...containers, ...(spec.ephemeralContainers ?? [])].map((c) => c.name);
  throw apiErrors.badRequest(`a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`);
}

function noNodeAgent(nodeName: string, what: string): StatusError {
  return new StatusError(
    503,
    'ServiceUnavailable',
    `no node agent (kubelet) serves node "${nodeName}": ${what} is not available`,
  );
}

async function requireNode(ctx: RequestContext, resources: ServedResources, nodeName: string): Promise<void> {
  const nodes = servedOrUnavailable(resources, NODES);
  await nodes.store.get(innerContext(ctx, nodes, { verb: 'get', namespace: '', name: nodeName }), nodeName, {});
}

/**
 * `pods/<name>/{log,exec,attach,portforward,proxy}`: kube streams these from the pod's node
 * agent (kubelet), which nothing runs here. The pod was found (404 otherwise); a named container
 * must be one of its containers (400), the pod must be bound (400 `pod <name> does not have a
 * host assigned`) to an existing node (404); then the answer is 503 ServiceUnavailable naming the
 * node and the sub-resource.
 */
export function podConnect(resources: ServedResources, subresource: string) {
  return async (ctx: RequestContext, parent: ApiObject, _path: string, query: URLSearchParams): Promise<never> => {
    const pod = parent as Pod;
    if (CONTAINER_SUBRESOURCES.has(subresource)) validateContainer(pod, query.get('container'));
    const nodeName = pod.spec?.nodeName ?? '';
    if (!nodeName) throw apiErrors.badRequest(`pod ${pod.metadata.name ?? ''} does not have a host assigned`);
    await requireNode(ctx, resources, nodeName);
    throw noNodeAgent(nodeName, `pods/${subresource}`);
  };
}

/** `nodes/<name>/proxy`: the node was found (404 otherwise); no node agent answers (503). */
export function nodeProxyConnect() {
  return async (_ctx: RequestContext, parent: ApiObject): Promise<never> => {
    throw noNodeAgent(parent.metadata.name ?? '', 'nodes/proxy');
  };
}
