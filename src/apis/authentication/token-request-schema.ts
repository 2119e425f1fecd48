import { objectMetaField } from '../meta/object-meta-schema.js';
import { timeSchema } from '../meta/time-schema.js';
import { apiVersionField, kindField } from '../meta/type-meta-fields.js';
import { fieldOf, int64Field, namedType, pb, pbPointer, stringField } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';
import { AUTHENTICATION_V1 } from './review-schemas.js';

const boundObjectReferenceSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.BoundObjectReference`,
  'The object a token lives and dies with.',
  {
    type: 'object',
    properties: {
      kind: stringField('Pod or Secret.', pb(1)),
      apiVersion: stringField("The object's API version.", pb(2)),
      name: stringField("The object's name.", pb(3)),
      uid: stringField("The object's UID.", pb(4)),
    },
  },
);

const tokenRequestSpecSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.TokenRequestSpec`,
  'What the client asks of the token.',
  {
    type: 'object',
    required: ['audiences'],
    properties: {
      audiences: {
        type: 'array',
        items: { type: 'string' },
        description: "Who may accept the token; the server's own audiences when empty.",
        'x-orch-list-type': 'atomic',
        ...pb(1),
      },
      expirationSeconds: int64Field(
        'Requested lifetime in seconds; the answer may grant another, so read status.expirationTimestamp.',
        pbPointer(4),
      ),
      boundObjectRef: fieldOf(
        boundObjectReferenceSchema,
        'An object the token is valid only as long as (this server checks it; other audiences may not).',
        pb(3),
      ),
    },
  },
);

const tokenRequestStatusSchema: Schema = namedType(`${AUTHENTICATION_V1}.TokenRequestStatus`, 'The issued token.', {
  type: 'object',
  required: ['token', 'expirationTimestamp'],
  properties: {
    token: stringField('The opaque bearer token.', pb(1)),
    expirationTimestamp: fieldOf(timeSchema, 'When the token stops being valid.', pb(2)),
  },
});

/** `authentication/v1` TokenRequest: the request and answer of `serviceaccounts/<name>/token`. */
export const tokenRequestSchema: Schema = namedType(
  `${AUTHENTICATION_V1}.TokenRequest`,
  'Asks for a token of a service account.',
  {
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: objectMetaField(),
      spec: fieldOf(tokenRequestSpecSchema, 'What is asked.', pb(2)),
      status: fieldOf(tokenRequestStatusSchema, 'Filled in by the server: the token.', pb(3)),
    },
  },
);
