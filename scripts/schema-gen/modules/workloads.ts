import { builtinModule } from '../externals.js';
import type { ModuleConfig } from '../module-config.js';

const APPS = 'io.k8s.api.apps.v1';
const BATCH = 'io.k8s.api.batch.v1';
const AUTOSCALING_V1 = 'io.k8s.api.autoscaling.v1';
const AUTOSCALING_V2 = 'io.k8s.api.autoscaling.v2';
const POLICY = 'io.k8s.api.policy.v1';

/** `apps/v1`. */
export const APPS_MODULE: ModuleConfig = builtinModule({
  name: 'apps',
  facts: 'apps-v1',
  goPackage: 'k8s.io/api/apps/v1',
  output: 'src/apis/apps/apps-v1-schemas.ts',
  types: {
    [`${APPS}.Deployment`]:
      'Declares the desired pods of a stateless application and rolls out changes through replica sets.',
    [`${APPS}.ReplicaSet`]: 'Keeps a number of pods matching a selector running from a pod template.',
    [`${APPS}.StatefulSet`]: 'Runs pods with stable names, ordered rollout and per-pod persistent storage.',
    [`${APPS}.DaemonSet`]: 'Runs one copy of a pod on each eligible node.',
    [`${APPS}.ControllerRevision`]: 'An immutable snapshot of state a controller can roll back to.',
  },
  uses: ['meta', 'core'],
});

/** `batch/v1`. */
export const BATCH_MODULE: ModuleConfig = builtinModule({
  name: 'batch',
  facts: 'batch-v1',
  goPackage: 'k8s.io/api/batch/v1',
  output: 'src/apis/batch/batch-v1-schemas.ts',
  types: {
    [`${BATCH}.Job`]: 'Runs pods until a number of them complete successfully.',
    [`${BATCH}.CronJob`]: 'Creates jobs on a repeating schedule.',
  },
  uses: ['meta', 'core'],
});

/** `autoscaling/v1`: the CPU-only autoscaler and the scale subresource's body. */
export const AUTOSCALING_V1_MODULE: ModuleConfig = builtinModule({
  name: 'autoscaling-v1',
  facts: 'autoscaling-v1',
  goPackage: 'k8s.io/api/autoscaling/v1',
  output: 'src/apis/autoscaling/autoscaling-v1-schemas.ts',
  types: {
    [`${AUTOSCALING_V1}.HorizontalPodAutoscaler`]: 'Scales a workload between bounds to hold a target CPU utilization.',
    [`${AUTOSCALING_V1}.Scale`]: 'The replica count of a scalable resource: desired in spec, observed in status.',
  },
  uses: ['meta', 'core'],
});

/** `autoscaling/v2`. */
export const AUTOSCALING_V2_MODULE: ModuleConfig = builtinModule({
  name: 'autoscaling-v2',
  facts: 'autoscaling-v2',
  goPackage: 'k8s.io/api/autoscaling/v2',
  output: 'src/apis/autoscaling/autoscaling-v2-schemas.ts',
  types: {
    [`${AUTOSCALING_V2}.HorizontalPodAutoscaler`]:
      'Scales a workload between bounds to hold targets of one or more metrics.',
  },
  uses: ['meta', 'core'],
});

/** `policy/v1`. */
export const POLICY_MODULE: ModuleConfig = builtinModule({
  name: 'policy',
  facts: 'policy-v1',
  goPackage: 'k8s.io/api/policy/v1',
  output: 'src/apis/policy/policy-v1-schemas.ts',
  types: {
    [`${POLICY}.PodDisruptionBudget`]: 'Limits how many pods of a set voluntary disruptions may take down at once.',
    [`${POLICY}.Eviction`]:
      'A request to evict a pod, honouring disruption budgets; posted to the eviction subresource.',
  },
  uses: ['meta', 'core'],
});
