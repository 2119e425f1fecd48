import type { Pod } from '../../apis/core/pod-types.js';
import type { ApiObject } from '../../apis/object.js';
import { labelSelectorFromObject, matchesLabels } from '../../apis/selectors/index.js';
import type { ResourceClient } from '../../client/api/api-client.js';
import type { Informer } from '../../client/informer/informer.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import { type ControllerContext, type ControllerDescriptor, configNumber } from '../controller-descriptor.js';
import {
  controllerRefOf,
  errorText,
  objectKey,
  splitKey,
  startResync,
  waitForInformers,
} from '../controller-support.js';
import { DeploymentSync } from './deployment-sync.js';
import type { Deployment, ReplicaSet } from './deployment-types.js';
import { deploymentNames } from './deployment-util.js';

/** The Deployment's controller of a ReplicaSet or pod owner reference, if cached. */
function deploymentOf(deployments: Informer, rs: ApiObject): Deployment | undefined {
  const ref = controllerRefOf(rs);
  if (ref?.kind !== 'Deployment') return undefined;
  const d = deployments.get(rs.metadata.namespace ?? '', ref.name);
  return d && d.metadata.uid === ref.uid ? (d as Deployment) : undefined;
}

/** Deployments of the namespace whose selector matches the labels (for orphans). */
function matchingDeployments(deployments: Informer, obj: ApiObject): Deployment[] {
  return (deployments.list(obj.metadata.namespace ?? '') as Deployment[]).filter((d) => {
    try {
      const sel = labelSelectorFromObject(d.spec?.selector);
      return !sel.empty && matchesLabels(sel, obj.metadata.labels ?? {});
    } catch {
      return false;
    }
  });
}

async function runDeploymentController(ctx: ControllerContext): Promise<void> {
  const deployments = ctx.informers.lookup('apps', 'deployments');
  const replicaSets = ctx.informers.lookup('apps', 'replicasets');
  const pods = ctx.informers.lookup('', 'pods');
  const dClient = ctx.client.preferred('apps', 'deployments');
  const rsClient = ctx.client.preferred('apps', 'replicasets');
  if (!deployments || !replicaSets || !pods || !dClient || !rsClient) return;
  const queue = new WorkQueue<string>({ signal: ctx.signal, maxRetryDelayMs: 60_000 });
  const enqueue = (d: ApiObject | undefined) => {
    if (d) queue.add(objectKey(d));
  };
  deployments.addHandlers({ onAdd: enqueue, onUpdate: (_o, d) => enqueue(d), onDelete: enqueue });
  const rsChanged = (rs: ApiObject) => {
    const owner = deploymentOf(deployments, rs);
    if (owner) enqueue(owner);
    else if (!controllerRefOf(rs)) for (const d of matchingDeployments(deployments, rs)) enqueue(d);
  };
  replicaSets.addHandlers({
    onAdd: rsChanged,
    onUpdate: (old, rs) => {
      if (controllerRefOf(old)?.uid !== controllerRefOf(rs)?.uid) rsChanged(old);
      rsChanged(rs);
    },
    onDelete: rsChanged,
  });
  // Recreate waits for the old pods to go.
  pods.addHandlers({
    onDelete: (p) => {
      const rs = controllerRefOf(p);
      if (rs?.kind !== 'ReplicaSet') return;
      const owner = replicaSets.get(p.metadata.namespace ?? '', rs.name);
      const d = owner && deploymentOf(deployments, owner);
      if (d?.spec.strategy?.type === 'Recreate') enqueue(d);
    },
  });
  if (!(await waitForInformers([deployments, replicaSets, pods], ctx.signal))) return;
  startResync(ctx.minResyncPeriodMs, ctx.signal, () => {
    for (const d of deployments.list()) enqueue(d);
  });
  const names = deploymentNames(ctx.domain);
  const deps = {
    ctx,
    names,
    deployments: dClient as ResourceClient,
    replicaSets: rsClient as ResourceClient,
    listReplicaSets: (ns: string) => replicaSets.list(ns) as ReplicaSet[],
    listPods: (ns: string) => pods.list(ns) as Pod[],
    requeueAfter: (d: Deployment, ms: number) => queue.addAfter(objectKey(d), ms),
  };
  await queue.run(
    async (key) => {
      const { namespace: ns, name } = splitKey(key);
      const d = deployments.get(ns, name) as Deployment | undefined;
      if (!d) return;
      await new DeploymentSync(deps, structuredClone(d)).run();
    },
    {
      workers: configNumber(ctx.config, 'ConcurrentDeploymentSyncs', 5),
      onError: (key, err) => ctx.logger.warn('deployment: sync failed; retrying', { key, error: errorText(err) }),
    },
  );
}

/**
 * kube-controller-manager's `deployment-controller` (alias `deployment`): rolls Deployments out
 * through ReplicaSets — RollingUpdate within maxSurge/maxUnavailable, Recreate — with revision
 * annotations, history cleanup, pause, the progress deadline and the Available/Progressing
 * conditions; `ConcurrentDeploymentSyncs` workers (`DeploymentController` member, default 5).
 */
export const deploymentController: ControllerDescriptor = {
  name: 'deployment-controller',
  aliases: ['deployment'],
  serviceAccount: 'deployment-controller',
  enabledByDefault: true,
  configMember: 'DeploymentController',
  run: runDeploymentController,
};
