import { goQuote } from '../../util/go-strconv.js';
import type { FieldLabelSupport } from '../selectors/field-labels.js';
import { declarativeFieldLabels } from '../selectors/selectable-fields.js';

/**
 * batch/v1 Job field selectors: `metadata.name`, `metadata.namespace` and `status.successful`
 * (the number of succeeded pods); other labels answer kube's batch/v1 conversion message.
 * CronJobs have kube's default (name and namespace).
 */
export const jobFieldLabels: FieldLabelSupport = declarativeFieldLabels({
  namespaced: true,
  fields: [{ label: 'status.successful', jsonPath: '.status.succeeded', zero: '0' }],
  unsupportedMessage: (label: string) => `field label ${goQuote(label)} not supported for batchv1.Job`,
});
