import { bootstrapSignerController } from './bootstrap/bootstrap-signer.js';
import { tokenCleanerController } from './bootstrap/token-cleaner.js';
import {
  cloudNodeController,
  cloudNodeLifecycleController,
  nodeRouteController,
  serviceLbController,
} from './cloud/cloud-controllers.js';
import { clusterRoleAggregationController } from './clusterrole-aggregation/clusterrole-aggregation-controller.js';
import type { ControllerDescriptor } from './controller-descriptor.js';
import { cronJobController } from './cronjob/cronjob-controller.js';
import { deploymentController } from './deployment/deployment-controller.js';
import { endpointSliceController } from './endpointslice/endpointslice-controller.js';
import { garbageCollectorController } from './garbage-collector/garbage-collector.js';
import { jobController } from './job/job-controller.js';
import { legacyServiceAccountTokenCleaner } from './legacy-token-cleaner/legacy-token-cleaner.js';
import { namespaceController } from './namespace/namespace-controller.js';
import { podGCController } from './podgc/podgc-controller.js';
import { replicaSetController, replicationControllerController } from './replicaset/replicaset-controller.js';
import { rootCaCertificatePublisher } from './root-ca-publisher/root-ca-publisher.js';
import { serviceAccountController } from './serviceaccount/service-account-controller.js';
import { serviceAccountTokenController } from './serviceaccount-token/serviceaccount-token-controller.js';
import { ttlAfterFinishedController } from './ttl-after-finished/ttl-after-finished-controller.js';

/**
 * Every controller orch-controller-manager knows, in start order (the token controller first, as
 * kube starts it before the others so their service accounts get tokens). The three cloud
 * controllers kube-controller-manager also lists are here for leader migration.
 */
export function controllerManagerControllers(): readonly ControllerDescriptor[] {
  return [
    serviceAccountTokenController,
    namespaceController,
    serviceAccountController,
    garbageCollectorController,
    clusterRoleAggregationController,
    rootCaCertificatePublisher,
    legacyServiceAccountTokenCleaner,
    bootstrapSignerController,
    tokenCleanerController,
    deploymentController,
    replicaSetController,
    replicationControllerController,
    jobController,
    cronJobController,
    ttlAfterFinishedController,
    endpointSliceController,
    podGCController,
    cloudNodeLifecycleController,
    serviceLbController,
    nodeRouteController,
  ];
}

/** Every controller orch-cloud-controller-manager knows. */
export function cloudControllerManagerControllers(): readonly ControllerDescriptor[] {
  return [cloudNodeController, cloudNodeLifecycleController, serviceLbController, nodeRouteController];
}
