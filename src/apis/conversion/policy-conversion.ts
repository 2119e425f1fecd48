/**
 * PodDisruptionBudget from policy/v1beta1 into policy/v1. The two differ in what an empty
 * selector means: in v1beta1 `{}` selects no pod, in v1 every pod of the namespace. As kube, a
 * v1beta1 `{}` becomes a v1 selector that matches nothing (`pdb.<domain>/deprecated-v1beta1-empty-selector-match`
 * Exists), and v1beta1's spelling of "all pods" (that key DoesNotExist) becomes v1's `{}`.
 * An unset selector selects none in both and stays unset.
 */
import type { ApiDomain } from '../api-domain.js';
import { jsonEqual } from '../schema/json-value.js';
import type { KindFamily } from './conversion-types.js';
import { isSet, withSpec } from './json-helpers.js';

/** The label key kube uses to spell v1beta1's selector meanings in v1. */
export function pdbV1beta1SelectorKey(domain: ApiDomain): string {
  return domain.key('pdb', 'deprecated-v1beta1-empty-selector-match');
}

/** PodDisruptionBudget in policy/v1 and policy/v1beta1. */
export function policyFamilies(domain: ApiDomain): KindFamily[] {
  const key = pdbV1beta1SelectorKey(domain);
  const matchAllV1beta1 = { matchExpressions: [{ key, operator: 'DoesNotExist' }] };
  return [
    {
      kind: 'PodDisruptionBudget',
      internal: 'policy.PodDisruptionBudget',
      served: [{ group: 'policy', version: 'v1' }],
      removed: [
        {
          group: 'policy',
          version: 'v1beta1',
          toHub: (o) => {
            const out = withSpec(o, (spec) => {
              const selector = spec.selector;
              if (!isSet(selector)) return spec;
              if (jsonEqual(selector, {}))
                return { ...spec, selector: { matchExpressions: [{ key, operator: 'Exists' }] } };
              if (jsonEqual(selector, matchAllV1beta1)) return { ...spec, selector: {} };
              return spec;
            });
            out.apiVersion = 'policy/v1';
            return out;
          },
        },
      ],
    },
  ];
}
