import type { ApiDomain } from '../../apis/api-domain.js';
import type { ClusterRole } from '../../apis/rbac/rbac-types.js';
import type { ResourceSet, ServedResource } from '../../registry/resource-set/index.js';
import { deepEqual } from '../../util/deep-equal.js';
import type { Logger } from '../../util/logger.js';
import type { InformerSet } from '../informer/informer-set.js';
import type { ResourceInformer } from '../informer/resource-informer.js';
import { type ControllerIdentity, controllerIdentity, updateLive } from '../object-client.js';
import { WorkQueue } from '../queue/work-queue.js';
import { aggregatedRules } from './aggregated-rules.js';

/** kube-controller-manager's name for this controller (its service account and field manager). */
export const CLUSTERROLE_AGGREGATION_CONTROLLER_NAME = 'clusterrole-aggregation-controller';

export interface ClusterRoleAggregationControllerOptions {
  readonly resources: ResourceSet;
  readonly informers: InformerSet;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  /** Names the RBAC group and the controller's identity. */
  readonly domain: ApiDomain;
}

/**
 * kube's clusterrole-aggregation controller, in process: every ClusterRole with an
 * `aggregationRule` gets as `rules` the union of the rules of the ClusterRoles its selectors
 * match (see {@link aggregatedRules}), replacing whatever rules it had. Any ClusterRole added,
 * changed or deleted queues every aggregating one; a role whose rules already match is not
 * written. Writes go through the registry as the controller's service account (which needs
 * `escalate` on clusterroles, granted by its default role). Failures retry with backoff.
 */
export class ClusterRoleAggregationController {
  private readonly queue: WorkQueue<string>;
  private readonly identity: ControllerIdentity;
  private readonly served: ServedResource | undefined;
  private readonly roles: ResourceInformer | undefined;

  constructor(private readonly options: ClusterRoleAggregationControllerOptions) {
    const group = options.domain.group('rbac.authorization');
    this.identity = controllerIdentity(CLUSTERROLE_AGGREGATION_CONTROLLER_NAME, options.domain);
    this.queue = new WorkQueue<string>({ signal: options.signal, maxRetryDelayMs: 30_000 });
    this.served = options.resources.lookup(group, 'v1', 'clusterroles');
    this.roles = options.informers.lookup(group, 'clusterroles');
    const enqueueAggregating = () => {
      for (const role of this.roles?.list() ?? []) {
        if ((role as ClusterRole).aggregationRule && role.metadata.name) this.queue.add(role.metadata.name);
      }
    };
    this.roles?.addHandlers({ onAdd: enqueueAggregating, onUpdate: enqueueAggregating, onDelete: enqueueAggregating });
  }

  /** Processes aggregating ClusterRoles until the signal aborts. */
  async run(): Promise<void> {
    if (!this.served || !this.roles) return;
    await this.queue.run((name) => this.sync(name), {
      workers: 1,
      onError: (name, err) =>
        this.options.logger.warn('clusterrole aggregation: retrying', {
          clusterRole: name,
          error: err instanceof Error ? err.message : String(err),
        }),
    });
  }

  private async sync(name: string): Promise<void> {
    const roles = this.roles!;
    const role = roles.get('', name) as ClusterRole | undefined;
    if (!role?.aggregationRule) return;
    const rules = aggregatedRules(role, roles.list() as ClusterRole[]);
    if (deepEqual(rules, role.rules ?? [])) return;
    await updateLive(
      this.identity,
      { served: this.served!, namespace: '', name, uid: role.metadata.uid },
      (obj) => {
        const live = obj as ClusterRole;
        if (!live.aggregationRule || deepEqual(rules, live.rules ?? [])) return false;
        // Computed from the cache; a newer cache event queues the role again.
        live.rules = rules;
        return true;
      },
      { signal: this.options.signal },
    );
  }
}
