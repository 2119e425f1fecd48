import type { ClusterRole } from '../../apis/rbac/rbac-types.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import { deepEqual } from '../../util/deep-equal.js';
import type { ControllerContext, ControllerDescriptor } from '../controller-descriptor.js';
import { errorText, startResync, waitForInformers } from '../controller-support.js';
import { applyLive } from '../object-client.js';
import { aggregatedRules } from './aggregated-rules.js';

/** kube-controller-manager's service account (and field manager) of this controller. */
export const CLUSTERROLE_AGGREGATION_CONTROLLER_NAME = 'clusterrole-aggregation-controller';

/** kube runs the aggregation controller with 5 workers. */
const WORKERS = 5;

/**
 * kube's clusterrole-aggregation controller: every ClusterRole with an `aggregationRule` gets as
 * `rules` the union of the rules of the ClusterRoles its selectors match (see
 * {@link aggregatedRules}), replacing whatever rules it had. Any ClusterRole added, changed or
 * deleted queues every aggregating one; a role whose rules already match is not written. As
 * kube's, it writes with server-side apply (forced: it owns `rules`) as its field manager
 * (which needs `patch` and `escalate` on clusterroles, granted by its default role); a role
 * deleted or no longer aggregating meanwhile is left alone. Failures retry with backoff.
 */
async function runClusterRoleAggregation(ctx: ControllerContext): Promise<void> {
  const { signal, logger } = ctx;
  const group = ctx.domain.group('rbac.authorization');
  const apiVersion = `${group}/v1`;
  const client = ctx.client.resource(group, 'v1', 'clusterroles');
  const roles = ctx.informers.lookup(group, 'clusterroles');
  if (!client || !roles) {
    logger.warn('clusterrole aggregation: clusterroles are not served; not running');
    return;
  }
  const queue = new WorkQueue<string>({ signal, maxRetryDelayMs: 30_000 });
  const enqueueAggregating = () => {
    for (const role of roles.list()) {
      if ((role as ClusterRole).aggregationRule && role.metadata.name) queue.add(role.metadata.name);
    }
  };
  roles.addHandlers({ onAdd: enqueueAggregating, onUpdate: enqueueAggregating, onDelete: enqueueAggregating });
  if (!(await waitForInformers([roles], signal))) return;
  enqueueAggregating();

  const sync = async (name: string): Promise<void> => {
    const role = roles.get('', name) as ClusterRole | undefined;
    if (!role?.aggregationRule) return;
    const rules = aggregatedRules(role, roles.list() as ClusterRole[]);
    if (deepEqual(rules, role.rules ?? [])) return;
    // kube's apply configuration: the name and the rules (none: the field is left out).
    const config: ClusterRole = { apiVersion, kind: 'ClusterRole', metadata: { name } };
    if (rules.length > 0) config.rules = rules;
    await applyLive({ client, namespace: '', name, uid: role.metadata.uid }, config, {
      signal,
      // Computed from the cache; a newer cache event queues the role again.
      still: (live) => !!(live as ClusterRole).aggregationRule,
    });
  };
  startResync(ctx.minResyncPeriodMs, signal, enqueueAggregating);
  await queue.run(sync, {
    workers: WORKERS,
    onError: (name, err) =>
      logger.warn('clusterrole aggregation: retrying', {
        clusterRole: name,
        error: errorText(err),
      }),
  });
}

/**
 * The clusterrole-aggregation controller (`clusterrole-aggregation-controller`, alias
 * `clusterrole-aggregation`), as the service account `clusterrole-aggregation-controller`.
 */
export const clusterRoleAggregationController: ControllerDescriptor = {
  name: 'clusterrole-aggregation-controller',
  aliases: ['clusterrole-aggregation'],
  serviceAccount: CLUSTERROLE_AGGREGATION_CONTROLLER_NAME,
  enabledByDefault: true,
  run: runClusterRoleAggregation,
};
