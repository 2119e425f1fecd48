import type { Schema } from '../schema/schema.js';

/**
 * The two fields every object and list carries (`meta/v1` TypeMeta); they travel in the
 * protobuf envelope, not in the object's message.
 */

/** The `apiVersion` field of every object. */
export const apiVersionField: Schema = {
  type: 'string',
  description: 'The API group and version this object is written in, such as `apps/v1`.',
};

/** The `kind` field of every object. */
export const kindField: Schema = {
  type: 'string',
  description: 'The kind of this object, such as `Pod`, in CamelCase.',
};
