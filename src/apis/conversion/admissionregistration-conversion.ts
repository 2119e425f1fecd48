/**
 * Webhook configurations from admissionregistration.<domain>/v1beta1 into v1. v1 defaults
 * differently or requires what v1beta1 defaulted, so each webhook gets v1beta1's defaults
 * explicitly: `failurePolicy: Ignore`, `matchPolicy: Exact`, `timeoutSeconds: 30`,
 * `admissionReviewVersions: [v1beta1]`, `sideEffects: Unknown`. v1 accepts only `None` and
 * `NoneOnDryRun` side effects, so a webhook with `Unknown` or `Some` (set or defaulted) is refused
 * with the server's message rather than written out invalid.
 */
import type { ApiDomain } from '../api-domain.js';
import type { ApiObject } from '../object.js';
import { ConversionRefusedError, type ConvertFn, type KindFamily } from './conversion-types.js';
import { defaultField, obj, retarget } from './json-helpers.js';

/** The side effects v1 accepts. */
export const V1_SIDE_EFFECTS: readonly string[] = ['None', 'NoneOnDryRun'];

function toV1(apiVersion: string): ConvertFn {
  return (o: ApiObject) => {
    const out = retarget(o, apiVersion);
    const problems: string[] = [];
    if (Array.isArray(out.webhooks)) {
      out.webhooks = out.webhooks.map((w, i) => {
        const hook = { ...obj(w) };
        defaultField(hook, 'failurePolicy', 'Ignore');
        defaultField(hook, 'matchPolicy', 'Exact');
        defaultField(hook, 'timeoutSeconds', 30);
        defaultField(hook, 'sideEffects', 'Unknown');
        defaultField(hook, 'admissionReviewVersions', ['v1beta1']);
        if (!V1_SIDE_EFFECTS.includes(hook.sideEffects as string)) {
          problems.push(
            `webhooks[${i}].sideEffects: Unsupported value: "${hook.sideEffects}": supported values: ${V1_SIDE_EFFECTS.map((s) => `"${s}"`).join(', ')}`,
          );
        }
        return hook;
      });
    }
    if (problems.length > 0) throw new ConversionRefusedError(o.kind, o.metadata?.name ?? '', problems);
    return out;
  };
}

/** Mutating and validating webhook configurations of admissionregistration.<domain>/v1 and v1beta1. */
export function admissionregistrationFamilies(domain: ApiDomain): KindFamily[] {
  const group = domain.group('admissionregistration');
  return ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'].map((kind) => ({
    kind,
    internal: `admissionregistration.${kind}`,
    served: [{ group, version: 'v1' }],
    removed: [{ group, version: 'v1beta1', toHub: toV1(`${group}/v1`) }],
  }));
}
