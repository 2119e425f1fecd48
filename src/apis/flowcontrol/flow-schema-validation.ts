import { goQuote } from '../../util/go-strconv.js';
import { type FieldError, fieldErrors, invalidShown, notSupportedShown } from '../meta/field-error.js';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../meta/name-validation.js';
import { indexPath } from '../schema/field-path.js';
import { jsonEqual } from '../schema/json-value.js';
import { goStringSlice } from '../selectors/go-format.js';
import { mandatoryFlowSchemaFacts } from './apf-bootstrap-facts.js';
import {
  EXEMPT,
  type FlowControlCondition,
  type FlowControlSubject,
  type FlowSchema,
  MAX_MATCHING_PRECEDENCE,
  type NonResourcePolicyRule,
  type PolicyRulesWithSubjects,
  type ResourcePolicyRule,
} from './flowcontrol-types.js';

const DISTINGUISHER_METHODS: readonly string[] = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS: readonly string[] = ['Group', 'ServiceAccount', 'User'];
const VERBS: readonly string[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'proxy',
  'update',
  'watch',
];
const NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

/** kube's `ValidateFlowSchema` beyond metadata (spec, the mandatory specs, status). */
export function validateFlowSchema(fs: FlowSchema): FieldError[] {
  const name = fs.metadata.name ?? '';
  const spec = fs.spec ?? {};
  const errs = validateSpec(name, spec);
  const mandatory = mandatoryFlowSchemaFacts().find((f) => f.name === name);
  if (mandatory && !jsonEqual(spec, mandatory.spec)) {
    errs.push(fieldErrors.invalid('spec', spec, `spec of '${name}' must equal the fixed value`));
  }
  errs.push(...validateFlowControlStatus(fs.status?.conditions));
  return errs;
}

function validateSpec(name: string, spec: NonNullable<FlowSchema['spec']>): FieldError[] {
  const errs: FieldError[] = [];
  const precedence = spec.matchingPrecedence ?? 0;
  if (precedence <= 0)
    errs.push(fieldErrors.invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE) {
    errs.push(
      fieldErrors.invalid('spec.matchingPrecedence', precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`),
    );
  }
  if (precedence === 1 && name !== EXEMPT) {
    errs.push(
      fieldErrors.invalid(
        'spec.matchingPrecedence',
        precedence,
        "only the schema named 'exempt' may have matchingPrecedence 1",
      ),
    );
  }
  const method = spec.distinguisherMethod;
  if (method && !DISTINGUISHER_METHODS.includes(method.type ?? '')) {
    const shown = `flowcontrol.FlowDistinguisherMethod{Type:${goQuote(method.type ?? '')}}`;
    errs.push(notSupportedShown('spec.distinguisherMethod.type', shown, DISTINGUISHER_METHODS));
  }
  const plName = spec.priorityLevelConfiguration?.name ?? '';
  if (plName) {
    for (const msg of nameIsDNSSubdomain(plName, false))
      errs.push(fieldErrors.invalid('spec.priorityLevelConfiguration.name', plName, msg));
  } else {
    errs.push(fieldErrors.required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  }
  (spec.rules ?? []).forEach((rule, i) => {
    errs.push(...validateRule(rule, indexPath('spec.rules', i)));
  });
  return errs;
}

function validateRule(rule: PolicyRulesWithSubjects, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = rule.subjects ?? [];
  if (subjects.length > 0) {
    subjects.forEach((s, i) => {
      errs.push(...validateSubject(s, indexPath(`${path}.subjects`, i)));
    });
  } else errs.push(fieldErrors.required(`${path}.subjects`, 'subjects must contain at least one value'));
  const resourceRules = rule.resourceRules ?? [];
  const nonResourceRules = rule.nonResourceRules ?? [];
  if (resourceRules.length === 0 && nonResourceRules.length === 0) {
    errs.push(fieldErrors.required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  }
  resourceRules.forEach((r, i) => {
    errs.push(...validateResourceRule(r, indexPath(`${path}.resourceRules`, i)));
  });
  nonResourceRules.forEach((r, i) => {
    errs.push(...validateNonResourceRule(r, indexPath(`${path}.nonResourceRules`, i)));
  });
  return errs;
}

function validateSubject(s: FlowControlSubject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const forbidOthers = (keep: 'user' | 'group' | 'serviceAccount') => {
    if (keep !== 'serviceAccount' && s.serviceAccount) {
      errs.push(
        fieldErrors.forbidden(
          `${path}.serviceAccount`,
          "serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
        ),
      );
    }
    if (keep !== 'user' && s.user)
      errs.push(fieldErrors.forbidden(`${path}.user`, "user is forbidden when subject kind is not 'User'"));
    if (keep !== 'group' && s.group)
      errs.push(fieldErrors.forbidden(`${path}.group`, "group is forbidden when subject kind is not 'Group'"));
  };
  switch (s.kind) {
    case 'ServiceAccount': {
      const sa = s.serviceAccount;
      if (!sa)
        errs.push(
          fieldErrors.required(
            `${path}.serviceAccount`,
            "serviceAccount is required when subject kind is 'ServiceAccount'",
          ),
        );
      else {
        const name = sa.name ?? '';
        if (!name) errs.push(fieldErrors.required(`${path}.serviceAccount.name`));
        else if (name !== '*') {
          for (const msg of nameIsDNSSubdomain(name, false))
            errs.push(fieldErrors.invalid(`${path}.serviceAccount.name`, name, msg));
        }
        const ns = sa.namespace ?? '';
        if (ns)
          for (const msg of nameIsDNSLabel(ns, false))
            errs.push(fieldErrors.invalid(`${path}.serviceAccount.namespace`, ns, msg));
        else
          errs.push(
            fieldErrors.required(`${path}.serviceAccount.namespace`, 'must specify namespace for service account'),
          );
      }
      forbidOthers('serviceAccount');
      break;
    }
    case 'User':
      if (!s.user) errs.push(fieldErrors.required(`${path}.user`, "user is required when subject kind is 'User'"));
      else if (!s.user.name) errs.push(fieldErrors.required(`${path}.user.name`));
      forbidOthers('user');
      break;
    case 'Group':
      if (!s.group) errs.push(fieldErrors.required(`${path}.group`, "group is required when subject kind is 'Group'"));
      else if (!s.group.name) errs.push(fieldErrors.required(`${path}.group.name`));
      forbidOthers('group');
      break;
    default:
      errs.push(fieldErrors.notSupported(`${path}.kind`, s.kind ?? '', SUBJECT_KINDS));
  }
  return errs;
}

function validateVerbs(verbs: readonly string[], path: string): FieldError[] {
  if (verbs.length === 0) return [fieldErrors.required(path, 'verbs must contain at least one value')];
  if (verbs.includes('*')) {
    return verbs.length > 1
      ? [invalidShown(path, goStringSlice(verbs), "if '*' is present, must not specify other verbs")]
      : [];
  }
  return verbs.every((v) => VERBS.includes(v)) ? [] : [notSupportedShown(path, goStringSlice(verbs), VERBS)];
}

function validateResourceRule(r: ResourcePolicyRule, path: string): FieldError[] {
  const errs = validateVerbs(r.verbs ?? [], `${path}.verbs`);
  const groups = r.apiGroups ?? [];
  if (groups.length === 0)
    errs.push(fieldErrors.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  else if (groups.length > 1 && groups.includes('*')) {
    errs.push(
      invalidShown(`${path}.apiGroups`, goStringSlice(groups), "if '*' is present, must not specify other api groups"),
    );
  }
  const resources = r.resources ?? [];
  if (resources.length === 0)
    errs.push(fieldErrors.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && resources.includes('*')) {
    errs.push(
      invalidShown(
        `${path}.resources`,
        goStringSlice(resources),
        "if '*' is present, must not specify other resources",
      ),
    );
  }
  const namespaces = r.namespaces ?? [];
  if (namespaces.length === 0 && !r.clusterScope) {
    errs.push(
      fieldErrors.required(
        `${path}.namespaces`,
        'resource rules that are not cluster scoped must supply at least one namespace',
      ),
    );
  } else if (namespaces.includes('*')) {
    if (namespaces.length > 1) {
      errs.push(
        invalidShown(
          `${path}.namespaces`,
          goStringSlice(namespaces),
          "if '*' is present, must not specify other namespaces",
        ),
      );
    }
  } else {
    namespaces.forEach((ns, i) => {
      for (const msg of nameIsDNSLabel(ns, false))
        errs.push(fieldErrors.invalid(indexPath(`${path}.namespaces`, i), ns, NS_INTRO + msg));
    });
  }
  return errs;
}

function validateNonResourceRule(r: NonResourcePolicyRule, path: string): FieldError[] {
  const errs = validateVerbs(r.verbs ?? [], `${path}.verbs`);
  const urls = r.nonResourceURLs ?? [];
  if (urls.length === 0)
    errs.push(fieldErrors.required(`${path}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*')) {
    if (urls.length > 1) {
      errs.push(
        invalidShown(
          `${path}.nonResourceURLs`,
          goStringSlice(urls),
          "if '*' is present, must not specify other non-resource URLs",
        ),
      );
    }
  } else {
    urls.forEach((u, i) => {
      const problem = nonResourceURLProblem(u);
      if (problem) errs.push(fieldErrors.invalid(indexPath(`${path}.nonResourceURLs`, i), u, problem));
    });
  }
  return errs;
}

/** kube's `ValidateNonResourceURLPath`. */
function nonResourceURLProblem(path: string): string | undefined {
  if (path === '') return 'must not be empty';
  if (path === '/') return undefined;
  if (!path.startsWith('/')) return 'must start with slash';
  if (path.includes(' ')) return 'must not contain white-space';
  if (path.includes('//')) return 'must not contain double slash';
  const wildcards = path.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && !path.endsWith('/*'))) return 'wildcard can only do suffix matching';
  return undefined;
}

/** kube's status validation of both kinds: unique, non-empty condition types. */
export function validateFlowControlStatus(conditions: readonly FlowControlCondition[] | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const type = c.type ?? '';
    const at = indexPath('status.conditions', i);
    if (seen.has(type)) errs.push(fieldErrors.duplicate(`${at}.type`, type));
    seen.add(type);
    if (!type) errs.push(fieldErrors.required(`${at}.type`, 'must not be empty'));
  });
  return errs;
}
