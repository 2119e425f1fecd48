import { goQuote } from '../../util/go-strconv.js';
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import { type FieldLabelSupport, objectMetaFieldSet } from '../selectors/field-labels.js';

/**
 * batch/v1 Job field selectors: `metadata.name`, `metadata.namespace` and `status.successful`
 * (the number of succeeded pods); other labels answer kube's batch/v1 conversion message.
 * CronJobs have kube's default (name and namespace).
 */
export const jobFieldLabels: FieldLabelSupport = Object.freeze({
  supported: Object.freeze(['metadata.name', 'metadata.namespace', 'status.successful']),
  unsupportedMessage: (label: string) => `field label ${goQuote(label)} not supported for batchv1.Job`,
  fieldSet: (obj: ApiObject) => {
    const succeeded = isPlainObject(obj.status) ? obj.status.succeeded : undefined;
    return {
      ...objectMetaFieldSet(obj, true),
      'status.successful': String(typeof succeeded === 'number' ? succeeded : 0),
    };
  },
});
