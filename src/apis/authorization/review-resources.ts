import type { ApiDomain } from '../api-domain.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { virtualResource } from '../meta/virtual-definition.js';
import type { VirtualCreate } from '../resource-definition.js';
import {
  localSubjectAccessReviewSchema,
  selfSubjectAccessReviewSchema,
  selfSubjectRulesReviewSchema,
  subjectAccessReviewSchema,
} from './authorization-v1-schemas.js';

/** The computed creates behind the four access-review resources. */
export interface AccessReviewHandlers {
  readonly subjectAccessReviews: VirtualCreate;
  readonly localSubjectAccessReviews: VirtualCreate;
  readonly selfSubjectAccessReviews: VirtualCreate;
  readonly selfSubjectRulesReviews: VirtualCreate;
}

/**
 * `authorization.<domain>/v1` `subjectaccessreviews`, `localsubjectaccessreviews` (namespaced),
 * `selfsubjectaccessreviews` and `selfsubjectrulesreviews`: create only, nothing stored.
 */
export function accessReviewResources(domain: ApiDomain, h: AccessReviewHandlers): BuiltinResourceDefinition[] {
  const group = domain.group('authorization');
  const def = (
    kind: string,
    resource: string,
    namespaced: boolean,
    schema: BuiltinResourceDefinition['schema'],
    v: VirtualCreate,
  ) =>
    virtualResource({ group, version: 'v1', kind, resource, singular: resource.slice(0, -1), namespaced, schema }, v);
  return [
    def('SubjectAccessReview', 'subjectaccessreviews', false, subjectAccessReviewSchema, h.subjectAccessReviews),
    def(
      'LocalSubjectAccessReview',
      'localsubjectaccessreviews',
      true,
      localSubjectAccessReviewSchema,
      h.localSubjectAccessReviews,
    ),
    def(
      'SelfSubjectAccessReview',
      'selfsubjectaccessreviews',
      false,
      selfSubjectAccessReviewSchema,
      h.selfSubjectAccessReviews,
    ),
    def(
      'SelfSubjectRulesReview',
      'selfsubjectrulesreviews',
      false,
      selfSubjectRulesReviewSchema,
      h.selfSubjectRulesReviews,
    ),
  ];
}
