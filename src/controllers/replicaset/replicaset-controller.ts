import { type LabelSelectorObject, labelSelectorFromObject, labelSelectorFromSet } from '../../apis/selectors/index.js';
import { type ControllerDescriptor, configNumber } from '../controller-descriptor.js';
import { ReplicaManager } from './replica-manager.js';
import type { ReplicaOwner } from './replica-status.js';

/**
 * kube-controller-manager's `replicaset-controller` (alias `replicaset`): apps/v1 ReplicaSets
 * keep `spec.replicas` pods (see {@link ReplicaManager}), `ConcurrentRSSyncs` workers
 * (`ReplicaSetController` member, default 5).
 */
export const replicaSetController: ControllerDescriptor = {
  name: 'replicaset-controller',
  aliases: ['replicaset'],
  serviceAccount: 'replicaset-controller',
  enabledByDefault: true,
  configMember: 'ReplicaSetController',
  async run(ctx) {
    const manager = new ReplicaManager(ctx, {
      group: 'apps',
      resource: 'replicasets',
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      selectorOf: (rs) => labelSelectorFromObject(rs.spec?.selector as LabelSelectorObject | undefined),
    });
    await manager.run(configNumber(ctx.config, 'ConcurrentRSSyncs', 5));
  },
};

/** A ReplicationController's selector: a plain label map (defaulted from the template's labels). */
function replicationControllerSelector(rc: ReplicaOwner) {
  const sel = rc.spec?.selector;
  return labelSelectorFromSet(sel && typeof sel === 'object' ? (sel as Record<string, string>) : {});
}

/**
 * kube-controller-manager's `replicationcontroller-controller` (alias `replicationcontroller`):
 * the same logic for core/v1 ReplicationControllers, `ConcurrentRCSyncs` workers
 * (`ReplicationController` member, default 5).
 */
export const replicationControllerController: ControllerDescriptor = {
  name: 'replicationcontroller-controller',
  aliases: ['replicationcontroller'],
  serviceAccount: 'replication-controller',
  enabledByDefault: true,
  configMember: 'ReplicationController',
  async run(ctx) {
    const manager = new ReplicaManager(ctx, {
      group: '',
      resource: 'replicationcontrollers',
      apiVersion: 'v1',
      kind: 'ReplicationController',
      selectorOf: replicationControllerSelector,
    });
    await manager.run(configNumber(ctx.config, 'ConcurrentRCSyncs', 5));
  },
};
