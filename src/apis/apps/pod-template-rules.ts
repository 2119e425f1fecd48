/**
 * The one seam between the workload kinds and the pod rules: how a workload's pod template is
 * defaulted and validated. The pod module supplies kube's full pod template defaults and
 * `ValidatePodTemplateSpec`; `BASIC_POD_TEMPLATE_RULES` stands in where those are not wired.
 */
import type { FieldError } from '../meta/field-error.js';
import { validateAnnotations, validateLabels } from '../meta/object-meta-validation.js';
import { isPlainObject } from '../schema/json-value.js';

export interface PodTemplateRules {
  /** kube's defaults of a `PodTemplateSpec` (its pod spec, containers, volumes ...), in place. */
  defaultTemplate(template: Record<string, unknown>): void;
  /**
   * kube's `ValidatePodTemplateSpec` of `template` at `path` (labels, annotations, pod spec);
   * `old` is the template before an update, when there is one.
   */
  validateTemplate(template: Record<string, unknown>, path: string, old?: Record<string, unknown>): FieldError[];
}

function metadataOf(template: Record<string, unknown>): Record<string, unknown> {
  return isPlainObject(template.metadata) ? template.metadata : {};
}

/**
 * The part of the pod rules every workload needs: `restartPolicy` defaults to `Always`, and the
 * template's labels and annotations are valid. The pod module's rules replace it.
 */
export const BASIC_POD_TEMPLATE_RULES: PodTemplateRules = Object.freeze({
  defaultTemplate(template: Record<string, unknown>) {
    if (isPlainObject(template.spec) && !template.spec.restartPolicy) template.spec.restartPolicy = 'Always';
  },
  validateTemplate(template: Record<string, unknown>, path: string) {
    const meta = metadataOf(template);
    return [
      ...validateLabels(meta.labels as Record<string, string> | undefined, `${path}.labels`),
      ...validateAnnotations(meta.annotations as Record<string, string> | undefined, `${path}.annotations`),
    ];
  },
});

/** `template.spec` as an object (absent: empty). */
export function podSpecOf(template: unknown): Record<string, unknown> {
  return isPlainObject(template) && isPlainObject(template.spec) ? template.spec : {};
}

/** `template.metadata.labels` (absent: undefined). */
export function templateLabels(template: unknown): Record<string, string> | undefined {
  if (!isPlainObject(template) || !isPlainObject(template.metadata)) return undefined;
  const labels = template.metadata.labels;
  return isPlainObject(labels) ? (labels as Record<string, string>) : undefined;
}
