import { apiErrors } from '../../apis/meta/status.js';
import { resourceAttributes } from '../../apis/request/authorization-attributes.js';
import {
  ANONYMOUS_USER,
  AUTHENTICATED_GROUP,
  UNAUTHENTICATED_GROUP,
  type UserInfo,
} from '../../apis/request/user-info.js';
import type { RequestHead } from '../../authn/authenticator.js';
import { type Authorizer, forbiddenError } from '../../authz/index.js';
import type { ApiRequest, ApiResponse, Filter } from '../handler.js';
import { errorResponse } from '../handlers/response-writer.js';

const USER_HEADER = 'impersonate-user';
const GROUP_HEADER = 'impersonate-group';
const UID_HEADER = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** The resource whose `impersonate` permission each kind of request needs. */
const IMPERSONATED_RESOURCE = {
  ServiceAccount: 'serviceaccounts',
  User: 'users',
  Group: 'groups',
  UserExtra: 'userextras',
  UID: 'uids',
} as const;

/** One thing a request asks to act as, checked with the verb `impersonate`. */
interface ImpersonationRequest {
  readonly kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  readonly namespace: string;
  readonly name: string;
  /** For `UserExtra`: the extra key. */
  readonly fieldPath: string;
  /** `authentication.<domain>/v1` for UserExtra and UID. */
  readonly apiVersion: string;
}

/** Header keys arrive percent-encoded when they are not header tokens; kube keeps a malformed one as is. */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** Go's `%v` of the requests (kube-apiserver's error text prints the ObjectReference structs). */
function describeRequests(requests: readonly ImpersonationRequest[]): string {
  return `[${requests.map((r) => `{${r.kind} ${r.namespace} ${r.name}  ${r.apiVersion}  ${r.fieldPath}}`).join(' ')}]`;
}

function hasImpersonationHeader(headers: RequestHead['headers']): boolean {
  for (const name in headers) if (name.startsWith('impersonate-')) return true;
  return false;
}

/** What the impersonation headers of a request ask for, in kube-apiserver's order. */
export function impersonationRequests(head: RequestHead, authenticationGroupVersion: string): ImpersonationRequest[] {
  const out: ImpersonationRequest[] = [];
  const base = { namespace: '', fieldPath: '', apiVersion: '' };
  const user = head.headerValues(USER_HEADER)[0] ?? '';
  if (user) {
    const parts = user.startsWith(SERVICE_ACCOUNT_PREFIX) ? user.slice(SERVICE_ACCOUNT_PREFIX.length).split(':') : [];
    if (parts.length === 2 && parts[0] && parts[1]) {
      out.push({ ...base, kind: 'ServiceAccount', namespace: parts[0], name: parts[1] });
    } else {
      out.push({ ...base, kind: 'User', name: user });
    }
  }
  for (const g of head.headerValues(GROUP_HEADER)) out.push({ ...base, kind: 'Group', name: g });
  for (const header of Object.keys(head.headers)) {
    if (!header.startsWith(EXTRA_PREFIX)) continue;
    const key = unescapeExtraKey(header.slice(EXTRA_PREFIX.length).toLowerCase());
    for (const value of head.headerValues(header)) {
      out.push({ ...base, kind: 'UserExtra', name: value, fieldPath: key, apiVersion: authenticationGroupVersion });
    }
  }
  const uid = head.headerValues(UID_HEADER)[0] ?? '';
  if (uid) out.push({ ...base, kind: 'UID', name: uid, apiVersion: authenticationGroupVersion });
  return out;
}

/**
 * `Impersonate-User`, `Impersonate-Group`, `Impersonate-Extra-<key>` and `Impersonate-Uid`: the
 * requester must be allowed the verb `impersonate` on each requested `users`/`serviceaccounts`
 * (by name, the service account in its namespace), `groups`, `userextras/<key>` and `uids`
 * (the last two in the authentication group); then the request continues as the impersonated
 * user (a non-anonymous user gains `system:authenticated` unless the groups say otherwise; a
 * service account without groups its two groups). Groups, extras or a UID without a user are
 * kube-apiserver's 500; a refusal is a 403 naming what was refused.
 */
export function impersonation(authorizer: Authorizer, authenticationGroup: string): Filter {
  const authenticationGroupVersion = `${authenticationGroup}/v1`;
  return (next) => {
    const impersonate = async (req: ApiRequest): Promise<ApiResponse> => {
      const requests = impersonationRequests(req.head, authenticationGroupVersion);
      if (requests.length === 0) return next(req);
      if (!requests.some((r) => r.kind === 'User' || r.kind === 'ServiceAccount')) {
        const err = new Error(`requested ${describeRequests(requests)} without impersonating a user`);
        return errorResponse(req, apiErrors.internal(err));
      }
      const requestor = req.user!;
      const groupsSpecified = req.head.headerValues(GROUP_HEADER).length > 0;
      let name = '';
      let uid: string | undefined;
      let groups: string[] = [];
      const extra: Record<string, string[]> = {};
      for (const r of requests) {
        const attributes = resourceAttributes(requestor, 'impersonate', {
          apiGroup: r.kind === 'UserExtra' || r.kind === 'UID' ? authenticationGroup : '',
          resource: IMPERSONATED_RESOURCE[r.kind],
          subresource: r.kind === 'UserExtra' ? r.fieldPath : '',
          namespace: r.namespace,
          name: r.name,
        });
        switch (r.kind) {
          case 'ServiceAccount':
            name = `${SERVICE_ACCOUNT_PREFIX}${r.namespace}:${r.name}`;
            if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${r.namespace}`];
            break;
          case 'User':
            name = r.name;
            break;
          case 'Group':
            groups.push(r.name);
            break;
          case 'UserExtra':
            extra[r.fieldPath] = [...(extra[r.fieldPath] ?? []), r.name];
            break;
          case 'UID':
            uid = r.name;
            break;
        }
        const decision = await authorizer.authorize(attributes, req);
        if (decision.decision !== 'allow') return errorResponse(req, forbiddenError(attributes, decision.reason));
      }
      if (name !== ANONYMOUS_USER) {
        if (!groups.includes(AUTHENTICATED_GROUP) && !groups.includes(UNAUTHENTICATED_GROUP)) {
          groups.push(AUTHENTICATED_GROUP);
        }
      } else if (!groups.includes(UNAUTHENTICATED_GROUP)) {
        groups.push(UNAUTHENTICATED_GROUP);
      }
      const user: UserInfo = { name, uid, groups, extra: Object.keys(extra).length > 0 ? extra : undefined };
      req.user = user;
      return next(req);
    };
    // Most requests impersonate nobody: one look at the header names, and no extra async layer.
    return (req) => (hasImpersonationHeader(req.head.headers) ? impersonate(req) : next(req));
  };
}
