import { builtinModule } from '../externals.js';
import type { ModuleConfig } from '../module-config.js';

const COORDINATION = 'io.k8s.api.coordination.v1';
const COORDINATION_V1ALPHA2 = 'io.k8s.api.coordination.v1alpha2';
const AUTHENTICATION = 'io.k8s.api.authentication.v1';
const AUTHORIZATION = 'io.k8s.api.authorization.v1';

/** `coordination/v1`. */
export const COORDINATION_MODULE: ModuleConfig = builtinModule({
  name: 'coordination',
  facts: 'coordination-v1',
  goPackage: 'k8s.io/api/coordination/v1',
  output: 'src/apis/coordination/coordination-v1-schemas.ts',
  types: {
    [`${COORDINATION}.Lease`]: 'A lock held by one holder for a while and renewed, for leader election and heartbeats.',
  },
  uses: ['meta'],
});

/** `coordination/v1alpha2`: candidates of coordinated leader election. */
export const COORDINATION_V1ALPHA2_MODULE: ModuleConfig = builtinModule({
  name: 'coordination-v1alpha2',
  facts: 'coordination-v1alpha2',
  goPackage: 'k8s.io/api/coordination/v1alpha2',
  output: 'src/apis/coordination/coordination-v1alpha2-schemas.ts',
  types: {
    [`${COORDINATION_V1ALPHA2}.LeaseCandidate`]:
      'A server offering itself for a Lease; the election controller picks the holder among the candidates.',
  },
  uses: ['meta'],
});

/** `authentication/v1`: the review APIs and the token request of a service account. */
export const AUTHENTICATION_MODULE: ModuleConfig = builtinModule({
  name: 'authentication',
  facts: 'authentication-v1',
  goPackage: 'k8s.io/api/authentication/v1',
  output: 'src/apis/authentication/authentication-v1-schemas.ts',
  types: {
    [`${AUTHENTICATION}.TokenReview`]: "Authenticates a token with the server's authenticators.",
    [`${AUTHENTICATION}.SelfSubjectReview`]:
      'Tells the requester who the server believes they are, after impersonation.',
    [`${AUTHENTICATION}.TokenRequest`]: 'Asks for a token of a service account.',
  },
  uses: ['meta'],
});

/** `authorization/v1`: the access review APIs. */
export const AUTHORIZATION_MODULE: ModuleConfig = builtinModule({
  name: 'authorization',
  facts: 'authorization-v1',
  goPackage: 'k8s.io/api/authorization/v1',
  output: 'src/apis/authorization/authorization-v1-schemas.ts',
  types: {
    [`${AUTHORIZATION}.SubjectAccessReview`]: 'Checks whether a user or group can perform an action.',
    [`${AUTHORIZATION}.LocalSubjectAccessReview`]:
      'Checks whether a user or group can perform an action in a namespace.',
    [`${AUTHORIZATION}.SelfSubjectAccessReview`]: 'Checks whether the requester can perform an action.',
    [`${AUTHORIZATION}.SelfSubjectRulesReview`]: 'Lists the actions the requester can perform in a namespace.',
  },
  uses: ['meta'],
});
