/**
 * kube's validation of a pod spec's scheduling constraints: tolerations, node selector terms,
 * node and pod (anti-)affinity, topology spread constraints, taints.
 */
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1123Label, isQualifiedName, isValidLabelValue, nameIsDNSSubdomain } from '../meta/name-validation.js';
import { validateLabelSelector } from '../rbac/label-selector-validation.js';
import type { Affinity, NodeSelectorRequirement, NodeSelectorTerm, PodAffinityTerm, Toleration } from './pod-types.js';

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** kube's `ValidateLabelName`: a qualified name. */
export function validateLabelName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((m) => fieldErrors.invalid(path, name, m));
}

/** kube's `validateTaintEffect`. */
export function validateTaintEffect(effect: string, allowEmpty: boolean, path: string): FieldError[] {
  if (!allowEmpty && !effect) return [fieldErrors.required(path)];
  return TAINT_EFFECTS.includes(effect) ? [] : [fieldErrors.notSupported(path, effect, TAINT_EFFECTS)];
}

/** kube's `ValidateTolerations`. */
export function validateTolerations(tolerations: readonly Toleration[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (tolerations ?? []).forEach((t, i) => {
    const p = `${path}[${i}]`;
    const key = t.key ?? '';
    const operator = t.operator ?? '';
    if (key) for (const m of isQualifiedName(key)) errs.push(fieldErrors.invalid(`${p}.key`, key, m));
    if (!key && operator !== 'Exists') {
      errs.push(
        fieldErrors.invalid(
          `${p}.operator`,
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      errs.push(
        fieldErrors.invalid(
          `${p}.effect`,
          t.effect ?? '',
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      );
    }
    switch (operator) {
      case 'Equal':
      case '': {
        const msgs = isValidLabelValue(t.value ?? '');
        if (msgs.length > 0) errs.push(fieldErrors.invalid(`${p}.operator`, t.value ?? '', msgs.join(';')));
        break;
      }
      case 'Exists':
        if (t.value)
          errs.push(fieldErrors.invalid(`${p}.operator`, t.value, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(fieldErrors.notSupported(`${p}.operator`, operator, ['Equal', 'Exists']));
    }
    if (t.effect && !TAINT_EFFECTS.includes(t.effect)) errs.push(...validateTaintEffect(t.effect, true, `${p}.effect`));
  });
  return errs;
}

function validateNodeSelectorRequirement(r: NodeSelectorRequirement, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0)
        errs.push(fieldErrors.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        errs.push(
          fieldErrors.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
      }
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) {
        errs.push(
          fieldErrors.required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"),
        );
      }
      break;
    default:
      errs.push(fieldErrors.invalid(`${path}.operator`, r.operator ?? '', 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(r.key ?? '', `${path}.key`));
  values.forEach((v, i) => {
    for (const m of isValidLabelValue(v)) errs.push(fieldErrors.invalid(`${path}.values[${i}]`, v, m));
  });
  return errs;
}

function validateNodeFieldRequirement(r: NodeSelectorRequirement, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (r.operator === 'In' || r.operator === 'NotIn') {
    if ((r.values ?? []).length !== 1) {
      errs.push(
        fieldErrors.required(
          `${path}.values`,
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      );
    }
  } else {
    errs.push(fieldErrors.invalid(`${path}.operator`, r.operator ?? '', 'not a valid selector operator'));
  }
  if (r.key !== 'metadata.name') {
    errs.push(fieldErrors.invalid(`${path}.key`, r.key ?? '', 'not a valid field selector key'));
  } else {
    (r.values ?? []).forEach((v, i) => {
      for (const m of nameIsDNSSubdomain(v, false)) errs.push(fieldErrors.invalid(`${path}.values[${i}]`, v, m));
    });
  }
  return errs;
}

/** kube's `ValidateNodeSelectorTerm`. */
export function validateNodeSelectorTerm(term: NodeSelectorTerm, path: string): FieldError[] {
  return [
    ...(term.matchExpressions ?? []).flatMap((r, j) =>
      validateNodeSelectorRequirement(r, `${path}.matchExpressions[${j}]`),
    ),
    ...(term.matchFields ?? []).flatMap((r, j) => validateNodeFieldRequirement(r, `${path}.matchFields[${j}]`)),
  ];
}

/** kube's `ValidateNodeSelector`: at least one term, each valid. */
export function validateNodeSelector(terms: readonly NodeSelectorTerm[] | undefined, path: string): FieldError[] {
  const termsPath = `${path}.nodeSelectorTerms`;
  if (!terms || terms.length === 0)
    return [fieldErrors.required(termsPath, 'must have at least one node selector term')];
  return terms.flatMap((t, i) => validateNodeSelectorTerm(t, `${termsPath}[${i}]`));
}

function validateWeight(weight: number | undefined, path: string): FieldError[] {
  const w = weight ?? 0;
  return w <= 0 || w > 100 ? [fieldErrors.invalid(path, w, 'must be in the range 1-100')] : [];
}

function validatePodAffinityTerm(term: PodAffinityTerm, path: string): FieldError[] {
  const errs = [
    ...validateLabelSelector(term.labelSelector, `${path}.labelSelector`),
    ...validateLabelSelector(term.namespaceSelector, `${path}.namespaceSelector`),
  ];
  for (const ns of term.namespaces ?? []) {
    errs.push(...isDNS1123Label(ns).map((m) => fieldErrors.invalid(`${path}.namespace`, ns, m)));
  }
  if (!term.topologyKey) errs.push(fieldErrors.required(`${path}.topologyKey`, 'can not be empty'));
  return [...errs, ...validateLabelName(term.topologyKey ?? '', `${path}.topologyKey`)];
}

function validatePodAffinityKind(a: Affinity['podAffinity'], path: string): FieldError[] {
  if (!a) return [];
  return [
    ...(a.requiredDuringSchedulingIgnoredDuringExecution ?? []).flatMap((t, i) =>
      validatePodAffinityTerm(t, `${path}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`),
    ),
    ...(a.preferredDuringSchedulingIgnoredDuringExecution ?? []).flatMap((w, i) => {
      const p = `${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      return [
        ...validateWeight(w.weight, `${p}.weight`),
        ...validatePodAffinityTerm(w.podAffinityTerm ?? {}, `${p}.podAffinityTerm`),
      ];
    }),
  ];
}

/** kube's `validateAffinity`. */
export function validateAffinity(affinity: Affinity | undefined, path: string): FieldError[] {
  if (!affinity) return [];
  const errs: FieldError[] = [];
  const node = affinity.nodeAffinity;
  if (node) {
    const p = `${path}.nodeAffinity`;
    const required = node.requiredDuringSchedulingIgnoredDuringExecution;
    if (required) {
      errs.push(
        ...validateNodeSelector(required.nodeSelectorTerms, `${p}.requiredDuringSchedulingIgnoredDuringExecution`),
      );
    }
    (node.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((term, i) => {
      const tp = `${p}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      errs.push(
        ...validateWeight(term.weight, `${tp}.weight`),
        ...validateNodeSelectorTerm(term.preference ?? {}, `${tp}.preference`),
      );
    });
  }
  errs.push(...validatePodAffinityKind(affinity.podAffinity, `${path}.podAffinity`));
  errs.push(...validatePodAffinityKind(affinity.podAntiAffinity, `${path}.podAntiAffinity`));
  return errs;
}

const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'];

/** kube's `validateTopologySpreadConstraints` (skew, key, policy, no repeated key/policy pair, selector). */
export function validateTopologySpreadConstraints(
  constraints: readonly Record<string, unknown>[] | undefined,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const list = constraints ?? [];
  list.forEach((c, i) => {
    const p = `${path}[${i}]`;
    const maxSkew = typeof c.maxSkew === 'number' ? c.maxSkew : 0;
    if (maxSkew <= 0) errs.push(fieldErrors.invalid(`${p}.maxSkew`, maxSkew, 'must be greater than zero'));
    const key = typeof c.topologyKey === 'string' ? c.topologyKey : '';
    if (!key) errs.push(fieldErrors.required(`${p}.topologyKey`, 'can not be empty'));
    else errs.push(...validateLabelName(key, `${p}.topologyKey`));
    const when = typeof c.whenUnsatisfiable === 'string' ? c.whenUnsatisfiable : '';
    if (!WHEN_UNSATISFIABLE.includes(when)) {
      errs.push(fieldErrors.notSupported(`${p}.whenUnsatisfiable`, when, WHEN_UNSATISFIABLE));
    }
    if (list.slice(i + 1).some((o) => o.topologyKey === key && o.whenUnsatisfiable === when)) {
      errs.push(fieldErrors.duplicate(`${p}.{topologyKey, whenUnsatisfiable}`, `{${key}, ${when}}`));
    }
    if (c.minDomains !== undefined && c.minDomains !== null) {
      const min = typeof c.minDomains === 'number' ? c.minDomains : 0;
      if (min <= 0) errs.push(fieldErrors.invalid(`${p}.minDomains`, min, 'must be greater than 0'));
      else if (when !== 'DoNotSchedule') {
        errs.push(
          fieldErrors.invalid(
            `${p}.minDomains`,
            min,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${when}`,
          ),
        );
      }
    }
    errs.push(...validateLabelSelector(c.labelSelector as never, `${p}.labelSelector`));
  });
  return errs;
}
