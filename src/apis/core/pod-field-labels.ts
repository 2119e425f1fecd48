/**
 * Field selectors of core/v1 Pod and Node, as kube's field label conversions and `GetAttrs`
 * define them.
 */
import { type FieldLabelSupport, str } from '../selectors/field-labels.js';
import { declarativeFieldLabels } from '../selectors/selectable-fields.js';
import { valueAt } from '../table/column-helpers.js';

/**
 * Pod: name, namespace, `spec.nodeName` (and `spec.host`, its old name), `spec.restartPolicy`,
 * `spec.schedulerName`, `spec.serviceAccountName`, `spec.hostNetwork` (`true`/`false`),
 * `status.phase`, `status.podIP` (the first pod IP), `status.nominatedNodeName`. kube accepts
 * `status.podIPs` in selectors but never sets it in a pod's field set, so `status.podIPs=<ip>`
 * matches no pod and `status.podIPs!=<ip>` every pod.
 */
export const podFieldLabels: FieldLabelSupport = declarativeFieldLabels({
  namespaced: true,
  fields: [
    { label: 'spec.nodeName' },
    { label: 'spec.restartPolicy' },
    { label: 'spec.schedulerName' },
    { label: 'spec.serviceAccountName' },
    { label: 'spec.hostNetwork', zero: 'false' },
    { label: 'status.phase' },
    {
      label: 'status.podIP',
      value: (obj) => {
        const podIPs = valueAt(obj, 'status', 'podIPs');
        const first = Array.isArray(podIPs) && podIPs.length > 0 ? str(valueAt(podIPs[0], 'ip')) : '';
        return first || str(valueAt(obj, 'status', 'podIP'));
      },
    },
    { label: 'status.podIPs', value: () => undefined },
    { label: 'status.nominatedNodeName' },
    // kube converts `spec.host` to `spec.nodeName` before matching.
    { label: 'spec.host', jsonPath: '.spec.nodeName' },
  ],
});

/** Node: `metadata.name` and `spec.unschedulable` (`true`/`false`). */
export const nodeFieldLabels: FieldLabelSupport = declarativeFieldLabels({
  namespaced: false,
  fields: [{ label: 'spec.unschedulable', zero: 'false' }],
});
