/**
 * Field selectors of core/v1 Pod and Node, as kube's field label conversions and `GetAttrs`
 * define them.
 */
import type { ApiObject } from '../object.js';
import { type FieldLabelSupport, fieldLabelNotSupported, objectMetaFieldSet, str } from '../selectors/field-labels.js';
import { valueAt } from '../table/column-helpers.js';

function field(obj: ApiObject, ...path: string[]): string {
  return str(valueAt(obj, ...path));
}

/**
 * Pod: name, namespace, `spec.nodeName` (and `spec.host`, its old name), `spec.restartPolicy`,
 * `spec.schedulerName`, `spec.serviceAccountName`, `spec.hostNetwork` (`true`/`false`),
 * `status.phase`, `status.podIP` (the first pod IP), `status.nominatedNodeName`. kube accepts
 * `status.podIPs` in selectors but never sets it in a pod's field set, so `status.podIPs=<ip>`
 * matches no pod and `status.podIPs!=<ip>` every pod.
 */
export const podFieldLabels: FieldLabelSupport = Object.freeze({
  supported: Object.freeze([
    'metadata.name',
    'metadata.namespace',
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.podIPs',
    'status.nominatedNodeName',
    'spec.host',
  ]),
  unsupportedMessage: fieldLabelNotSupported,
  fieldSet: (obj: ApiObject) => {
    const nodeName = field(obj, 'spec', 'nodeName');
    const podIPs = valueAt(obj, 'status', 'podIPs');
    const firstIP = Array.isArray(podIPs) && podIPs.length > 0 ? str(valueAt(podIPs[0], 'ip')) : '';
    return {
      'spec.nodeName': nodeName,
      // kube converts `spec.host` to `spec.nodeName` before matching.
      'spec.host': nodeName,
      'spec.restartPolicy': field(obj, 'spec', 'restartPolicy'),
      'spec.schedulerName': field(obj, 'spec', 'schedulerName'),
      'spec.serviceAccountName': field(obj, 'spec', 'serviceAccountName'),
      'spec.hostNetwork': valueAt(obj, 'spec', 'hostNetwork') === true ? 'true' : 'false',
      'status.phase': field(obj, 'status', 'phase'),
      'status.podIP': firstIP || field(obj, 'status', 'podIP'),
      'status.nominatedNodeName': field(obj, 'status', 'nominatedNodeName'),
      ...objectMetaFieldSet(obj, true),
    };
  },
});

/** Node: `metadata.name` and `spec.unschedulable` (`true`/`false`). */
export const nodeFieldLabels: FieldLabelSupport = Object.freeze({
  supported: Object.freeze(['metadata.name', 'spec.unschedulable']),
  unsupportedMessage: fieldLabelNotSupported,
  fieldSet: (obj: ApiObject) => ({
    ...objectMetaFieldSet(obj, false),
    'spec.unschedulable': valueAt(obj, 'spec', 'unschedulable') === true ? 'true' : 'false',
  }),
});
