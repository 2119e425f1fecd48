import type { ApiDomain } from '../../apis/api-domain.js';
import type { ClusterRole } from '../../apis/rbac/rbac-types.js';
import type { Authorizer } from '../../authz/index.js';
import { WorkQueue } from '../../client/queue/work-queue.js';
import type { ResourceSet, ServedResource } from '../../registry/resource-set/index.js';
import { deepEqual } from '../../util/deep-equal.js';
import type { Logger } from '../../util/logger.js';
import { ControllerClient, controllerIdentity } from '../controller-client.js';
import type { InformerSet } from '../informer/informer-set.js';
import type { ResourceInformer } from '../informer/resource-informer.js';
import { applyLive } from '../object-client.js';
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
  /**
   * Decides on every request of the controller (its role:
   * `system:controller:clusterrole-aggregation-controller`).
   */
  readonly authorizer: Authorizer;
}

/**
 * kube's clusterrole-aggregation controller, in process: every ClusterRole with an
 * `aggregationRule` gets as `rules` the union of the rules of the ClusterRoles its selectors
 * match (see {@link aggregatedRules}), replacing whatever rules it had. Any ClusterRole added,
 * changed or deleted queues every aggregating one; a role whose rules already match is not
 * written. As kube's, it writes with server-side apply (field manager
 * `clusterrole-aggregation-controller`, forced: it owns `rules`), through the registry as the
 * controller's service account (which needs `patch` and `escalate` on clusterroles, granted by
 * its default role); a role deleted or no longer aggregating meanwhile is left alone. Failures
 * retry with backoff.
 */
export class ClusterRoleAggregationController {
  private readonly queue: WorkQueue<string>;
  private readonly client: ControllerClient;
  private readonly apiVersion: string;
  private readonly served: ServedResource | undefined;
  private readonly roles: ResourceInformer | undefined;

  constructor(private readonly options: ClusterRoleAggregationControllerOptions) {
    const group = options.domain.group('rbac.authorization');
    this.client = new ControllerClient(
      controllerIdentity(CLUSTERROLE_AGGREGATION_CONTROLLER_NAME, options.domain),
      options.authorizer,
    );
    this.apiVersion = `${group}/v1`;
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
    // kube's apply configuration: the name and the rules (none: the field is left out).
    const config: ClusterRole = { apiVersion: this.apiVersion, kind: 'ClusterRole', metadata: { name } };
    if (rules.length > 0) config.rules = rules;
    await applyLive(this.client, { served: this.served!, namespace: '', name, uid: role.metadata.uid }, config, {
      signal: this.options.signal,
      // Computed from the cache; a newer cache event queues the role again.
      still: (live) => !!(live as ClusterRole).aggregationRule,
    });
  }
}
