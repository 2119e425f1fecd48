import type { IntOrString, PodTemplateSpec } from '../../apis/core/pod-types.js';
import type { ApiObject } from '../../apis/object.js';
import type { LabelSelectorObject } from '../../apis/selectors/index.js';
import type { ReplicaOwner } from '../replicaset/replica-status.js';

/** apps/v1 Deployment as the controller reads it (defaulted by the server). */
export interface Deployment extends ApiObject {
  spec: {
    replicas?: number;
    selector?: LabelSelectorObject;
    template?: PodTemplateSpec;
    strategy?: { type?: string; rollingUpdate?: { maxSurge?: IntOrString; maxUnavailable?: IntOrString } };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    paused?: boolean;
    progressDeadlineSeconds?: number;
  };
  status?: DeploymentStatus;
}

export interface DeploymentCondition {
  type: string;
  status: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `DeploymentStatus`; zero counts omitted as kube's JSON omits them. */
export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

/** apps/v1 ReplicaSet with the fields the Deployment controller reads. */
export interface ReplicaSet extends ReplicaOwner {
  spec: NonNullable<ReplicaOwner['spec']> & { selector?: LabelSelectorObject };
}

/** Annotation and label names, from the API domain (kube's under `k8s.io`). */
export interface DeploymentNames {
  /** `deployment.kubernetes.io/revision`. */
  readonly revision: string;
  /** `deployment.kubernetes.io/revision-history`. */
  readonly revisionHistory: string;
  /** `deployment.kubernetes.io/desired-replicas`. */
  readonly desiredReplicas: string;
  /** `deployment.kubernetes.io/max-replicas`. */
  readonly maxReplicas: string;
  /** Annotations never copied between a Deployment and its ReplicaSets. */
  readonly skipCopy: ReadonlySet<string>;
}

/** The label a Deployment adds to its ReplicaSets' selector and template (no domain). */
export const POD_TEMPLATE_HASH = 'pod-template-hash';

/** apps/v1's annotation for the deprecated `spec.rollbackTo.revision` (no domain). */
export const ROLLBACK_TO = 'deprecated.deployment.rollback.to';
