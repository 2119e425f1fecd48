import { apiVersionField, kindField, objectMetaField, timeSchema } from '../meta/object-meta-schema.js';
import { fieldOf, int64Field, namedType, pb, pbPointer, stringField } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';
import { AUTHENTICATION_V1 } from './review-schemas.js';

const boundObjectReferenceSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.BoundObjectReference`,
  'BoundObjectReference is a reference to an object that a token is bound to.',
  {
    type: 'object',
    properties: {
      kind: stringField("Kind of the referent. Valid kinds are 'Pod' and 'Secret'.", pb(1)),
      apiVersion: stringField('API version of the referent.', pb(2)),
      name: stringField('Name of the referent.', pb(3)),
      uid: stringField('UID of the referent.', pb(4)),
    },
  },
);

const tokenRequestSpecSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.TokenRequestSpec`,
  'TokenRequestSpec contains client provided parameters of a token request.',
  {
    type: 'object',
    required: ['audiences'],
    properties: {
      audiences: {
        type: 'array',
        items: { type: 'string' },
        description:
          'Audiences are the intendend audiences of the token. A recipient of a token must identify themself with an identifier in the list of audiences of the token, and otherwise should reject the token. A token issued for multiple audiences may be used to authenticate against any of the audiences listed but implies a high degree of trust between the target audiences.',
        'x-orch-list-type': 'atomic',
        ...pb(1),
      },
      expirationSeconds: int64Field(
        "ExpirationSeconds is the requested duration of validity of the request. The token issuer may return a token with a different validity duration so a client needs to check the 'expiration' field in a response.",
        pbPointer(4),
      ),
      boundObjectRef: fieldOf(
        boundObjectReferenceSchema,
        "BoundObjectRef is a reference to an object that the token will be bound to. The token will only be valid for as long as the bound object exists. NOTE: The API server's TokenReview endpoint will validate the BoundObjectRef, but other audiences may not. Keep ExpirationSeconds small if you want prompt revocation.",
        pb(3),
      ),
    },
  },
);

const tokenRequestStatusSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.TokenRequestStatus`,
  'TokenRequestStatus is the result of a token request.',
  {
    type: 'object',
    required: ['token', 'expirationTimestamp'],
    properties: {
      token: stringField('Token is the opaque bearer token.', pb(1)),
      expirationTimestamp: fieldOf(
        timeSchema,
        'ExpirationTimestamp is the time of expiration of the returned token.',
        pb(2),
      ),
    },
  },
);

/** `authentication/v1` TokenRequest: the request and answer of `serviceaccounts/<name>/token`. */
export const tokenRequestSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.TokenRequest`,
  'TokenRequest requests a token for a given service account.',
  {
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: objectMetaField(),
      spec: fieldOf(tokenRequestSpecSchema, 'Spec holds information about the request being evaluated', pb(2)),
      status: fieldOf(
        tokenRequestStatusSchema,
        'Status is filled in by the server and indicates whether the token can be authenticated.',
        pb(3),
      ),
    },
  },
);
