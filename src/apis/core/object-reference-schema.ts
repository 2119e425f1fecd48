import { API_CONVENTIONS } from '../meta/object-meta-schema.js';
import { namedType, pb, stringField } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';

/** Prefix of the OpenAPI definition names of core/v1 types. */
export const CORE_V1 = 'io.orch.api.core.v1';
const NAMES_DOC = 'https://kubernetes.io/docs/concepts/overview/working-with-objects/names';

/** core/v1 `ObjectReference` (atomic struct). */
export const objectReferenceSchema: Schema = namedType(
  `${CORE_V1}.ObjectReference`,
  'ObjectReference contains enough information to let you inspect or modify the referred object.',
  {
    type: 'object',
    'x-orch-map-type': 'atomic',
    properties: {
      kind: stringField(`Kind of the referent. More info: ${API_CONVENTIONS}#types-kinds`, pb(1)),
      namespace: stringField(
        'Namespace of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/',
        pb(2),
      ),
      name: stringField(`Name of the referent. More info: ${NAMES_DOC}/#names`, pb(3)),
      uid: stringField(`UID of the referent. More info: ${NAMES_DOC}/#uids`, pb(4)),
      apiVersion: stringField('API version of the referent.', pb(5)),
      resourceVersion: stringField(
        `Specific resourceVersion to which this reference is made, if any. More info: ${API_CONVENTIONS}#concurrency-control-and-consistency`,
        pb(6),
      ),
      fieldPath: stringField(
        'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
        pb(7),
      ),
    },
  },
);

/** core/v1 `LocalObjectReference` (atomic struct). */
export const localObjectReferenceSchema: Schema = namedType(
  `${CORE_V1}.LocalObjectReference`,
  'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
  {
    type: 'object',
    'x-orch-map-type': 'atomic',
    properties: {
      name: stringField(
        `Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: ${NAMES_DOC}/#names`,
        pb(1),
      ),
    },
  },
);
