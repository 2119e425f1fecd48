import type { OpenApiObject, OpenApiStyle } from './schema-conversion.js';

/** Query and path parameters of the API operations, with descriptions of Orch's own. */
interface ParameterSpec {
  readonly in: 'query' | 'path';
  readonly type: 'string' | 'integer' | 'boolean';
  readonly description: string;
}

const PARAMETERS: Readonly<Record<string, ParameterSpec>> = {
  allowWatchBookmarks: {
    in: 'query',
    type: 'boolean',
    description:
      'Asks a watch for BOOKMARK events, which carry only a resource version to resume from. The server sends them when it chooses; ignored outside a watch.',
  },
  continue: {
    in: 'query',
    type: 'string',
    description:
      'The token from the metadata of the previous page, to get the next page of a list made with the same parameters. An expired token is answered with 410 Gone. Not for watches.',
  },
  dryRun: {
    in: 'query',
    type: 'string',
    description: 'With `All`, the request is checked and processed in full but nothing is stored.',
  },
  fieldManager: {
    in: 'query',
    type: 'string',
    description:
      'Who makes the change, as recorded in managedFields: up to 128 printable characters. Required for apply patches.',
  },
  fieldSelector: {
    in: 'query',
    type: 'string',
    description: 'Returns only objects whose fields match this selector; all objects when unset.',
  },
  fieldValidation: {
    in: 'query',
    type: 'string',
    description:
      'What to do with unknown or duplicate fields in the body: `Ignore` drops them, `Warn` (the default) drops them with a warning header each, `Strict` refuses the request.',
  },
  force: {
    in: 'query',
    type: 'boolean',
    description: 'For apply patches only: take over the fields other managers own instead of reporting conflicts.',
  },
  gracePeriodSeconds: {
    in: 'query',
    type: 'integer',
    description:
      'Seconds the object has to terminate before it is removed; 0 removes it at once. Unset: the default of its kind.',
  },
  ignoreStoreReadErrorWithClusterBreakingPotential: {
    in: 'query',
    type: 'boolean',
    description:
      'Deletes an object that can no longer be read from storage, skipping finalizers and preconditions. Unsafe: only for objects that block a cluster otherwise.',
  },
  labelSelector: {
    in: 'query',
    type: 'string',
    description: 'Returns only objects whose labels match this selector; all objects when unset.',
  },
  limit: {
    in: 'query',
    type: 'integer',
    description:
      'The most items to return in one page; the list metadata then carries a continue token when more remain. All pages come from one consistent snapshot. Not for watches.',
  },
  namespace: {
    in: 'path',
    type: 'string',
    description: 'The namespace of the objects',
  },
  orphanDependents: {
    in: 'query',
    type: 'boolean',
    description:
      'Deprecated in favour of propagationPolicy (set at most one): true leaves dependents in place, false deletes them.',
  },
  pretty: {
    in: 'query',
    type: 'string',
    description: 'With `true`, the response is indented for reading.',
  },
  propagationPolicy: {
    in: 'query',
    type: 'string',
    description:
      'What happens to dependents: `Orphan` leaves them, `Background` deletes them after the object, `Foreground` deletes them before it. Unset: decided by the finalizers and the kind.',
  },
  resourceVersion: {
    in: 'query',
    type: 'string',
    description:
      'Which state to serve: unset for the latest, `0` for any cached state, or a resource version, interpreted according to resourceVersionMatch.',
  },
  resourceVersionMatch: {
    in: 'query',
    type: 'string',
    description: 'How a list applies resourceVersion: `NotOlderThan` the given version, or `Exact`ly that version.',
  },
  sendInitialEvents: {
    in: 'query',
    type: 'boolean',
    description:
      'With watch=true and resourceVersionMatch=NotOlderThan: the watch starts with an ADDED event for every current object, then a bookmark annotated as the end of the initial events, then the changes.',
  },
  timeoutSeconds: {
    in: 'query',
    type: 'integer',
    description: 'Ends the list or watch after this many seconds, whatever happens in between.',
  },
  watch: {
    in: 'query',
    type: 'boolean',
    description:
      'Instead of a list, a stream of events for each object added, modified or deleted, starting after resourceVersion.',
  },
};

/** Parameters of each kind of operation (besides the path-level `name`, `namespace`, `pretty`). */
export const OPERATION_PARAMETERS = {
  list: [
    'allowWatchBookmarks',
    'continue',
    'fieldSelector',
    'labelSelector',
    'limit',
    'resourceVersion',
    'resourceVersionMatch',
    'sendInitialEvents',
    'timeoutSeconds',
    'watch',
  ],
  create: ['dryRun', 'fieldManager', 'fieldValidation'],
  replace: ['dryRun', 'fieldManager', 'fieldValidation'],
  patch: ['dryRun', 'fieldManager', 'fieldValidation', 'force'],
  delete: [
    'dryRun',
    'gracePeriodSeconds',
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'orphanDependents',
    'propagationPolicy',
  ],
  deletecollection: [
    'continue',
    'dryRun',
    'fieldSelector',
    'gracePeriodSeconds',
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'labelSelector',
    'limit',
    'orphanDependents',
    'propagationPolicy',
    'resourceVersion',
    'resourceVersionMatch',
    'sendInitialEvents',
    'timeoutSeconds',
  ],
  read: [],
} as const;

/**
 * The OpenAPI parameter object. `nameOf` names the object in the description of the `name` path
 * parameter (`The name of the ConfigMap`).
 */
export function parameter(name: string, style: OpenApiStyle, nameOf?: string): OpenApiObject {
  const spec: ParameterSpec =
    name === 'name'
      ? { in: 'path', type: 'string', description: `The name of the ${nameOf ?? 'object'}` }
      : PARAMETERS[name];
  if (!spec) throw new Error(`unknown parameter ${name}`);
  const base: OpenApiObject = { description: spec.description, in: spec.in, name };
  if (spec.in === 'path') base.required = true;
  if (style === 'v3') return { ...base, schema: { type: spec.type, uniqueItems: true } };
  return { ...base, type: spec.type, uniqueItems: true };
}
