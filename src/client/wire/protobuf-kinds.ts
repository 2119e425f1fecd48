import type { ApiDomain } from '../../apis/api-domain.js';
import { selfSubjectReviewResource, tokenReviewResource } from '../../apis/authentication/review-resources.js';
import { accessReviewResources } from '../../apis/authorization/review-resources.js';
import { builtinResources } from '../../apis/builtin.js';
import { bindingsResource } from '../../apis/core/pod-resources.js';
import { serviceAccountTokenSubresource } from '../../apis/core/service-account.js';
import { POLICY_GROUP } from '../../apis/policy/policy-resources.js';
import { evictionSchema } from '../../apis/policy/policy-v1-schemas.js';
import { apiVersionOf, type SubresourceKindRef, type VirtualCreate } from '../../apis/resource-definition.js';
import type { Schema } from '../../apis/schema/schema.js';

/** The key of a kind in {@link protobufKinds}' table. */
export function kindKey(apiVersion: string, kind: string): string {
  return `${apiVersion}\n${kind}`;
}

/** The definitions below are read for their kinds and schemas only; nothing here serves them. */
const notServed = (): Promise<never> => Promise.reject(new Error('a client-side definition serves nothing'));
const NOT_SERVED: VirtualCreate = { create: notServed };

/**
 * The schema of every kind the server writes in Protobuf under `domain`, by {@link kindKey}:
 * the compiled-in kinds and their sub-resource kinds (`Scale`), the review APIs, and the kinds
 * of the sub-resources the server adds (`TokenRequest`, `Binding`, `Eviction`), read from the
 * same definitions the server serves. Custom resources have no Protobuf form.
 */
export function protobufKinds(domain: ApiDomain): Map<string, Schema> {
  const table = new Map<string, Schema>();
  const addRef = (ref: Pick<SubresourceKindRef, 'group' | 'version' | 'kind' | 'schema'>) =>
    table.set(kindKey(apiVersionOf(ref), ref.kind), ref.schema);
  const definitions = [
    ...builtinResources({ domain, coordinatedLeaderElection: true }),
    bindingsResource(NOT_SERVED.create),
    tokenReviewResource(domain, NOT_SERVED),
    selfSubjectReviewResource(domain, NOT_SERVED),
    ...accessReviewResources(domain, {
      subjectAccessReviews: NOT_SERVED,
      localSubjectAccessReviews: NOT_SERVED,
      selfSubjectAccessReviews: NOT_SERVED,
      selfSubjectRulesReviews: NOT_SERVED,
    }),
  ];
  for (const def of definitions) {
    if (def.protobuf === false) continue;
    addRef(def);
    for (const sub of def.subresources) {
      if (sub.kind) addRef(sub.kind);
      if (sub.create) addRef(sub.create);
    }
  }
  const token = serviceAccountTokenSubresource(domain, notServed).create;
  if (token) addRef(token);
  addRef({ group: POLICY_GROUP, version: 'v1', kind: 'Eviction', schema: evictionSchema });
  return table;
}
