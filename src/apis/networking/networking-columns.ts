import { loadBalancerAddresses } from '../core/service-columns.js';
import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { labelSelectorString } from '../selectors/label-selector.js';
import { labelSelectorFromObject } from '../selectors/label-selector-object.js';
import { AGE_COLUMN, column, describeField, NAME_COLUMN, objectName, valueAt } from '../table/column-helpers.js';
import { AGE_SPEC, declarativeTableColumns } from '../table/declarative-columns.js';
import { translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';
import type { Ingress, IngressClass, IngressRule, NetworkPolicy } from './networking-types.js';

/**
 * kube's printer columns of Ingress, IngressClass and NetworkPolicy (rendered wide), with
 * descriptions of Orch's own wording.
 */

function age(obj: ApiObject, now: Date): string {
  return translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now);
}

/** kube's `formatHosts`: up to three rule hosts, then `+ N more...`; `*` when none. */
export function formatIngressHosts(rules: readonly IngressRule[] | undefined): string {
  const all = rules ?? [];
  const max = 3;
  const list: string[] = [];
  let more = false;
  for (const rule of all) {
    if (list.length === max) more = true;
    if (!more && rule.host) list.push(rule.host);
  }
  if (list.length === 0) return '*';
  const text = list.join(',');
  return more ? `${text} + ${all.length - max} more...` : text;
}

/** Ingress: `Name`, `Class`, `Hosts`, `Address`, `Ports`, `Age`. */
export function ingressTableColumns(): TableColumns {
  const ingress = (obj: ApiObject) => obj as Ingress;
  return declarativeTableColumns([
    {
      name: 'Class',
      type: 'string',
      description: 'The ingress class of the ingress.',
      jsonPath: '.spec.ingressClassName',
      zero: '<none>',
    },
    {
      name: 'Hosts',
      type: 'string',
      description: 'The host names the rules match.',
      cell: (obj) => formatIngressHosts(ingress(obj).spec?.rules),
    },
    {
      name: 'Address',
      type: 'string',
      description: 'The addresses the load balancer reports.',
      cell: (obj) => loadBalancerAddresses(ingress(obj).status?.loadBalancer?.ingress),
    },
    {
      name: 'Ports',
      type: 'string',
      description: 'The ports the ingress serves, 443 included when TLS is set.',
      cell: (obj) => ((ingress(obj).spec?.tls ?? []).length > 0 ? '80, 443' : '80'),
    },
    AGE_SPEC,
  ]);
}

/** IngressClass: `Name`, `Controller`, `Parameters` (`kind[.apiGroup]/name`), `Age`. */
export function ingressClassTableColumns(): TableColumns {
  return declarativeTableColumns([
    {
      name: 'Controller',
      type: 'string',
      description: 'The controller that implements this class.',
      jsonPath: '.spec.controller',
      zero: '',
    },
    {
      name: 'Parameters',
      type: 'string',
      description: 'The resource holding the class parameters, as kind.group/name.',
      cell: (obj) => {
        const p = (obj as IngressClass).spec?.parameters;
        return p ? `${p.kind ?? ''}${p.apiGroup !== undefined ? `.${p.apiGroup}` : ''}/${p.name ?? ''}` : '<none>';
      },
    },
    AGE_SPEC,
  ]);
}

/** kube's `metav1.FormatLabelSelector`: the selector's text, `<none>` when empty, `<error>`. */
export function formatLabelSelector(selector: Parameters<typeof labelSelectorFromObject>[0]): string {
  try {
    const text = labelSelectorString(labelSelectorFromObject(selector));
    return text === '' ? '<none>' : text;
  } catch {
    return '<error>';
  }
}

/** NetworkPolicy: `Name`, `Pod-Selector` (described from the schema), `Age`. */
export function networkPolicyTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column(
        'Pod-Selector',
        'string',
        describeField(schema, 'spec', 'podSelector') ||
          'The pods the policy applies to (an empty selector selects all).',
      ),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => [
      objectName(obj),
      formatLabelSelector((obj as NetworkPolicy).spec?.podSelector ?? {}),
      age(obj, now),
    ],
  });
}
