import type { ApiDomain } from '../../apis/api-domain.js';
import type { Attributes } from '../authorizer.js';

/** The SubjectAccessReview versions a webhook may speak. */
export type SubjectAccessReviewVersion = 'v1' | 'v1beta1';
export const SUBJECT_ACCESS_REVIEW_VERSIONS: readonly SubjectAccessReviewVersion[] = ['v1', 'v1beta1'];

/** A selector requirement as SubjectAccessReview carries it (`In`, `NotIn`, `Exists`, `DoesNotExist`). */
export interface SelectorRequirementSpec {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

/** `spec.resourceAttributes` of a v1 SubjectAccessReview; empty strings are left out on the wire. */
export interface ResourceAttributesSpec {
  readonly namespace: string;
  readonly verb: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly fieldSelector?: { readonly requirements: readonly SelectorRequirementSpec[] };
  readonly labelSelector?: { readonly requirements: readonly SelectorRequirementSpec[] };
}

/** The v1 SubjectAccessReview spec of a request, as kube's webhook authorizer builds it. */
export interface SubjectAccessReviewSpec {
  readonly resourceAttributes?: ResourceAttributesSpec;
  readonly nonResourceAttributes?: { readonly path: string; readonly verb: string };
  readonly user: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
  readonly uid: string;
}

/** What the webhook answered in `status`. */
export interface SubjectAccessReviewStatus {
  readonly allowed: boolean;
  readonly denied: boolean;
  readonly reason: string;
  readonly evaluationError: string;
}

/**
 * The selectors of a list/watch as requirements (kube's `fieldSelectorToAuthorizationAPI` /
 * `labelSelectorToAuthorizationAPI`): `=`/`==` → `In`, `!=` → `NotIn`, `exists` → `Exists`,
 * `!` → `DoesNotExist`; other operators are dropped (requirements only narrow a request).
 */
function selectorsOf(a: Attributes): Pick<ResourceAttributesSpec, 'fieldSelector' | 'labelSelector'> {
  const out: {
    fieldSelector?: ResourceAttributesSpec['fieldSelector'];
    labelSelector?: ResourceAttributesSpec['labelSelector'];
  } = {};
  const fields: SelectorRequirementSpec[] = [];
  for (const r of a.fieldSelectorRequirements ?? []) {
    fields.push({ key: r.field, operator: r.operator === '!=' ? 'NotIn' : 'In', values: [r.value] });
  }
  if (fields.length > 0) out.fieldSelector = { requirements: fields };
  const labels: SelectorRequirementSpec[] = [];
  for (const r of a.labelSelectorRequirements ?? []) {
    let operator: string;
    switch (r.operator) {
      case '=':
      case '==':
      case 'in':
        operator = 'In';
        break;
      case '!=':
      case 'notin':
        operator = 'NotIn';
        break;
      case 'exists':
        operator = 'Exists';
        break;
      case '!':
        operator = 'DoesNotExist';
        break;
      default:
        continue;
    }
    labels.push(r.values.length > 0 ? { key: r.key, operator, values: [...r.values] } : { key: r.key, operator });
  }
  if (labels.length > 0) out.labelSelector = { requirements: labels };
  return out;
}

/**
 * The SubjectAccessReview spec kube's webhook authorizer sends for `a`: the user, and the
 * resource attributes (with the selectors the request carries) or the non-resource path.
 */
export function subjectAccessReviewSpec(a: Attributes): SubjectAccessReviewSpec {
  const user = {
    user: a.user.name,
    groups: a.user.groups ?? [],
    extra: a.user.extra ?? {},
    uid: a.user.uid ?? '',
  };
  if (!a.isResourceRequest) return { nonResourceAttributes: { path: a.path, verb: a.verb }, ...user };
  return {
    resourceAttributes: {
      namespace: a.namespace,
      verb: a.verb,
      group: a.apiGroup,
      version: a.apiVersion,
      resource: a.resource,
      subresource: a.subresource,
      name: a.name,
      ...selectorsOf(a),
    },
    ...user,
  };
}

/** An object without its empty strings, lists and objects (Go's `omitempty`). */
function omitEmpty(o: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === '') continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out;
}

/** `extra` with its keys sorted, as Go marshals a map. */
function sortedExtra(extra: Readonly<Record<string, readonly string[]>>): Record<string, readonly string[]> {
  return Object.fromEntries(
    Object.keys(extra)
      .sort()
      .map((k) => [k, extra[k] as readonly string[]]),
  );
}

/** The spec as JSON on the wire: v1beta1 names the groups `group`, as kube's v1beta1 API does. */
function wireSpec(spec: SubjectAccessReviewSpec, version: SubjectAccessReviewVersion): Record<string, unknown> {
  return omitEmpty({
    resourceAttributes: spec.resourceAttributes && omitEmpty({ ...spec.resourceAttributes }),
    nonResourceAttributes: spec.nonResourceAttributes && omitEmpty({ ...spec.nonResourceAttributes }),
    user: spec.user,
    [version === 'v1beta1' ? 'group' : 'groups']: spec.groups,
    extra: sortedExtra(spec.extra),
    uid: spec.uid,
  });
}

/** The request body: a SubjectAccessReview of `version` in the domain's authorization group, as client-go encodes it. */
export function subjectAccessReviewBody(
  spec: SubjectAccessReviewSpec,
  version: SubjectAccessReviewVersion,
  domain: ApiDomain,
): string {
  return JSON.stringify({
    kind: 'SubjectAccessReview',
    apiVersion: `${domain.group('authorization')}/${version}`,
    metadata: { creationTimestamp: null },
    spec: wireSpec(spec, version),
    status: { allowed: false },
  });
}

/** The cache key of a spec: its v1 JSON (kube keys its cache by the marshalled spec). */
export function subjectAccessReviewKey(spec: SubjectAccessReviewSpec): string {
  return JSON.stringify(wireSpec(spec, 'v1'));
}

/** kube's limit on requester-controlled attributes above which answers are not cached (a DoS guard). */
const MAX_CONTROLLED_ATTRIBUTES_CACHE_SIZE = 10_000;

/** Whether an answer about `a` may be cached: its requester-controlled attributes are short enough. */
export function shouldCache(a: Attributes): boolean {
  const size =
    a.namespace.length +
    a.verb.length +
    a.apiGroup.length +
    a.apiVersion.length +
    a.resource.length +
    a.subresource.length +
    a.name.length +
    a.path.length;
  return size < MAX_CONTROLLED_ATTRIBUTES_CACHE_SIZE;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v;
}

/**
 * Reads a webhook's answer: a SubjectAccessReview of the `apiVersion` asked (an answer without
 * `apiVersion` and `kind` is taken as one, as client-go's typed decoding does); `status` fields of
 * the wrong type are errors in Go's decoding words. Returns the status or why the answer is
 * malformed.
 */
export function readSubjectAccessReviewStatus(
  body: unknown,
  apiVersion: string,
): SubjectAccessReviewStatus | { readonly error: string } {
  if (!isObject(body)) {
    return { error: `json: cannot unmarshal ${jsonKind(body)} into Go value of type SubjectAccessReview` };
  }
  const gotVersion = body.apiVersion ?? '';
  const gotKind = body.kind ?? '';
  if ((gotVersion !== '' || gotKind !== '') && (gotVersion !== apiVersion || gotKind !== 'SubjectAccessReview')) {
    return {
      error: `the webhook answered ${String(gotVersion)}, Kind=${String(gotKind)}; expected ${apiVersion}, Kind=SubjectAccessReview`,
    };
  }
  const status = body.status ?? {};
  if (!isObject(status)) {
    return {
      error: `json: cannot unmarshal ${jsonKind(status)} into Go struct field SubjectAccessReview.status of type SubjectAccessReviewStatus`,
    };
  }
  const field = (name: string, type: 'boolean' | 'string'): string | undefined => {
    const v = status[name];
    if (v === undefined || v === null || typeof v === type) return undefined;
    const goType = type === 'boolean' ? 'bool' : 'string';
    return `json: cannot unmarshal ${jsonKind(v)} into Go struct field SubjectAccessReviewStatus.status.${name} of type ${goType}`;
  };
  const problem =
    field('allowed', 'boolean') ??
    field('denied', 'boolean') ??
    field('reason', 'string') ??
    field('evaluationError', 'string');
  if (problem !== undefined) return { error: problem };
  return {
    allowed: status.allowed === true,
    denied: status.denied === true,
    reason: typeof status.reason === 'string' ? status.reason : '',
    evaluationError: typeof status.evaluationError === 'string' ? status.evaluationError : '',
  };
}
