import { parse as parseYaml } from 'yaml';
import type { ApiDomain } from '../apis/api-domain.js';
import { type FieldError, fieldErrors, formatFieldError, invalidShown } from '../apis/meta/field-error.js';
import { checkGoStrict, type GoShape } from '../util/go-strict-json.js';

export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export const AUDIT_LEVELS: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
export const AUDIT_STAGES: readonly AuditStage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

export interface AuditGroupResources {
  /** `''`: the core group. */
  readonly group?: string;
  /** `pods`, `pods/status`, `*`, a sub-resource of every resource, or every sub-resource of one. */
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
}

export interface AuditPolicyRule {
  readonly level: AuditLevel;
  readonly users?: readonly string[];
  readonly userGroups?: readonly string[];
  readonly verbs?: readonly string[];
  readonly resources?: readonly AuditGroupResources[];
  /** `''` matches cluster-scoped resources. */
  readonly namespaces?: readonly string[];
  /** `/healthz`, `/api*`, `*`. */
  readonly nonResourceURLs?: readonly string[];
  readonly omitStages?: readonly AuditStage[];
  readonly omitManagedFields?: boolean;
}

/** `audit.<domain>/v1` `Policy`: the first matching rule decides a request's level. */
export interface AuditPolicy {
  readonly rules: readonly AuditPolicyRule[];
  readonly omitStages?: readonly AuditStage[];
  readonly omitManagedFields?: boolean;
}

/** An audit policy file that cannot be used; the message says why, as kube-apiserver does. */
export class AuditPolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditPolicyError';
  }
}

const strings = (goType = 'string'): GoShape => ({
  kind: 'list',
  goType: `[]${goType}`,
  of: { kind: 'string', goType },
});
const stages: GoShape = strings('audit.Stage');

function policyShape(): GoShape {
  const rule: GoShape = {
    kind: 'object',
    goType: 'audit.PolicyRule',
    fields: {
      level: { kind: 'string', goType: 'audit.Level' },
      users: strings(),
      userGroups: strings(),
      verbs: strings(),
      resources: {
        kind: 'list',
        goType: '[]audit.GroupResources',
        of: {
          kind: 'object',
          goType: 'audit.GroupResources',
          fields: { group: { kind: 'string', goType: 'string' }, resources: strings(), resourceNames: strings() },
        },
      },
      namespaces: strings(),
      nonResourceURLs: strings(),
      omitStages: stages,
      omitManagedFields: { kind: 'bool' },
    },
  };
  return {
    kind: 'object',
    goType: 'audit.Policy',
    fields: {
      apiVersion: { kind: 'string', goType: 'string' },
      kind: { kind: 'string', goType: 'string' },
      metadata: { kind: 'object', goType: 'v1.ObjectMeta', fields: { name: { kind: 'string', goType: 'string' } } },
      rules: { kind: 'list', goType: '[]audit.PolicyRule', of: rule },
      omitStages: stages,
      omitManagedFields: { kind: 'bool' },
    },
  };
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function validateOmitStages(list: readonly string[] | undefined, path: string): FieldError[] {
  return (list ?? []).flatMap((s, i) =>
    (AUDIT_STAGES as readonly string[]).includes(s)
      ? []
      : [fieldErrors.invalid(`${path}[${i}]`, s, `allowed stages are ${AUDIT_STAGES.join(',')}`)],
  );
}

function goStrings(list: readonly string[]): string {
  return `[]string{${list.map((s) => JSON.stringify(s)).join(', ')}}`;
}

/** kube's `ValidatePolicy`: every problem, with its field path. */
export function validateAuditPolicy(p: AuditPolicy): FieldError[] {
  const errs = validateOmitStages(p.omitStages, 'omitStages');
  p.rules.forEach((rule, i) => {
    const path = `rules[${i}]`;
    if (!rule.level) errs.push(fieldErrors.required(`${path}.level`));
    else if (!AUDIT_LEVELS.includes(rule.level))
      errs.push(fieldErrors.notSupported(`${path}.level`, rule.level, AUDIT_LEVELS));
    (rule.nonResourceURLs ?? []).forEach((url, j) => {
      if (url === '*') return;
      const at = `${path}.nonResourceURLs[${j}]`;
      if (!url.startsWith('/'))
        errs.push(fieldErrors.invalid(at, url, "non-resource URL rules must begin with a '/' character"));
      if (url !== '' && url.slice(0, -1).includes('*'))
        errs.push(
          fieldErrors.invalid(at, url, "non-resource URL wildcards '*' must be the final character of the rule"),
        );
    });
    for (const gr of rule.resources ?? []) {
      if (gr.group && !DNS_SUBDOMAIN.test(gr.group)) {
        errs.push(
          fieldErrors.invalid(
            `${path}.resources.group`,
            gr.group,
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
          ),
        );
      }
      if ((gr.resourceNames ?? []).length > 0 && (gr.resources ?? []).length === 0) {
        errs.push(
          invalidShown(
            `${path}.resources.resourceNames`,
            goStrings(gr.resourceNames ?? []),
            'using resourceNames requires at least one resource',
          ),
        );
      }
    }
    errs.push(...validateOmitStages(rule.omitStages, `${path}.omitStages`));
    if (
      (rule.nonResourceURLs ?? []).length > 0 &&
      ((rule.resources ?? []).length > 0 || (rule.namespaces ?? []).length > 0)
    ) {
      errs.push(
        invalidShown(
          `${path}.nonResourceURLs`,
          goStrings(rule.nonResourceURLs ?? []),
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    }
  });
  return errs;
}

/**
 * Reads an audit policy file's text (YAML or JSON) as kube-apiserver does: `audit.<domain>/v1`
 * `Policy` only; unknown fields are tolerated with a warning (kube's lenient fallback), wrong
 * types are not; then validation, and at least one rule.
 * @returns the policy and warnings to log.
 * @throws AuditPolicyError naming the file.
 */
export function parseAuditPolicy(
  text: string,
  file: string,
  domain: ApiDomain,
): { policy: AuditPolicy; warnings: string[] } {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new AuditPolicyError(`failed decoding: ${(e as Error).message}: from file ${file}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new AuditPolicyError(
      `failed decoding: Object 'Kind' is missing in '${text.trim().slice(0, 80)}': from file ${file}`,
    );
  }
  const record = doc as Record<string, unknown>;
  const group = domain.group('audit');
  if (typeof record.kind !== 'string' || record.kind === '') {
    throw new AuditPolicyError(
      `failed decoding: Object 'Kind' is missing in '${text.trim().slice(0, 80)}': from file ${file}`,
    );
  }
  if (record.apiVersion !== `${group}/v1` || record.kind !== 'Policy') {
    const gv = String(record.apiVersion ?? '');
    throw new AuditPolicyError(
      `failed decoding: no kind "${record.kind}" is registered for version "${gv}" in scheme "audit": from file ${file}`,
    );
  }
  const checked = checkGoStrict(record, policyShape(), 'Policy');
  if (checked.typeErrors.length > 0) {
    throw new AuditPolicyError(`failed lenient decoding: ${checked.typeErrors[0]}: from file ${file}`);
  }
  const warnings =
    checked.unknownFields.length > 0
      ? [
          `Audit policy contains errors, falling back to lenient decoding: strict decoding error: ${checked.unknownFields.join(', ')}`,
        ]
      : [];
  const policy: AuditPolicy = {
    rules: (record.rules as AuditPolicyRule[] | undefined) ?? [],
    omitStages: record.omitStages as AuditStage[] | undefined,
    omitManagedFields: record.omitManagedFields as boolean | undefined,
  };
  const errs = validateAuditPolicy(policy);
  if (errs.length > 0) {
    const joined = errs.map(formatFieldError);
    throw new AuditPolicyError(joined.length === 1 ? joined[0] : `[${joined.join(', ')}]`);
  }
  if (policy.rules.length === 0) throw new AuditPolicyError('loaded illegal policy with 0 rules');
  return { policy, warnings };
}
