import { objectMetaField } from '../meta/object-meta-schema.js';
import { apiVersionField, kindField } from '../meta/type-meta-fields.js';
import { atomicStringListField, booleanField, fieldOf, namedType, pb, stringField } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';

/** OpenAPI definition prefix of the authentication group's v1 kinds. */
export const AUTHENTICATION_V1 = 'io.orch.api.authentication.v1';

/** `authentication/v1` UserInfo: who a token or a request authenticated as. */
export const userInfoSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.UserInfo`,
  'The identity a request or token authenticated as.',
  {
    type: 'object',
    properties: {
      username: stringField('User name, unique among active users.', pb(1)),
      uid: stringField('Identifies the user across time, unlike a reusable name.', pb(2)),
      groups: atomicStringListField('Groups the user belongs to.', pb(3)),
      extra: {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'string' } },
        description: 'Further attributes set by the authenticator.',
        ...pb(4),
      },
    },
  },
);

const tokenReviewSpecSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.TokenReviewSpec`,
  'The token to authenticate and the audiences it is presented for.',
  {
    type: 'object',
    properties: {
      token: stringField('The opaque bearer token.', pb(1)),
      audiences: atomicStringListField(
        "Audiences the token must be valid for (at least one); the server's own audiences when empty.",
        pb(2),
      ),
    },
  },
);

const tokenReviewStatusSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.TokenReviewStatus`,
  'The outcome of authenticating the token.',
  {
    type: 'object',
    properties: {
      authenticated: booleanField('True when the token belongs to a known user.', pb(1)),
      user: fieldOf(userInfoSchema, 'Who the token authenticated as.', pb(2)),
      audiences: atomicStringListField('The requested audiences the token is valid for.', pb(4)),
      error: stringField('Why the token was not authenticated.', pb(3)),
    },
  },
);

/** `authentication/v1` TokenReview: authenticates a token with the server's authenticators. */
export const tokenReviewSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.TokenReview`,
  "Authenticates a token with the server's authenticators.",
  {
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: objectMetaField(),
      spec: fieldOf(tokenReviewSpecSchema, 'The token to review.', pb(2)),
      status: fieldOf(
        tokenReviewStatusSchema,
        'Filled in by the server: whether and as whom the token authenticates.',
        pb(3),
      ),
    },
  },
);

const selfSubjectReviewStatusSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.SelfSubjectReviewStatus`,
  "The requester's identity as the server sees it.",
  {
    type: 'object',
    properties: {
      userInfo: fieldOf(userInfoSchema, "The requester's user information.", pb(1)),
    },
  },
);

/** `authentication/v1` SelfSubjectReview: the requester's own user information. */
export const selfSubjectReviewSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.SelfSubjectReview`,
  'Tells the requester who the server believes they are, after impersonation.',
  {
    type: 'object',
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: objectMetaField(),
      status: fieldOf(selfSubjectReviewStatusSchema, 'Filled in by the server.', pb(2)),
    },
  },
);
