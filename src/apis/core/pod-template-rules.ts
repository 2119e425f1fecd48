import type { PodTemplateRules } from '../apps/pod-template-rules.js';
import type { FieldError } from '../meta/field-error.js';
import { podTemplateSpecSchema } from './core-v1-schemas.js';
import { defaultPodTemplateSpec } from './pod-defaults.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';
import type { PodTemplateSpec } from './pod-types.js';
import { canonicalizeEmbeddedQuantities } from './quantity-fields.js';

/**
 * kube's pod template rules for the workload kinds: quantities canonical (400 for a malformed
 * one), the pod spec defaults of `SetDefaults_PodSpec` and its containers, volumes and probes,
 * and `ValidatePodTemplateSpec` (labels, annotations, the pod spec, no ephemeral containers).
 * What a workload adds (its restart policies, `activeDeadlineSeconds`, selectors) stays with it.
 */
export const POD_TEMPLATE_RULES: PodTemplateRules = Object.freeze({
  defaultTemplate(template: Record<string, unknown>): void {
    canonicalizeEmbeddedQuantities(podTemplateSpecSchema, template);
    defaultPodTemplateSpec(template as PodTemplateSpec);
  },
  validateTemplate(template: Record<string, unknown>, path: string): FieldError[] {
    return validatePodTemplateSpec(template as PodTemplateSpec, path);
  },
});
