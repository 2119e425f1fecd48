import type { ResourceDefinition } from '../resource-definition.js';
import { OPERATION_PARAMETERS, parameter } from './parameters.js';
import { type OpenApiObject, type OpenApiStyle, sortKeys } from './schema-conversion.js';

/** References the operations of one resource point to (already registered as definitions). */
export interface OperationRefs {
  readonly kind: string;
  readonly list: string;
  readonly status: string;
  readonly deleteOptions: string;
  readonly patch: string;
  /** Definition names of the kinds of sub-resources that answer POST (`token` → TokenRequest). */
  readonly subresourceKinds?: ReadonlyMap<string, string>;
}

export interface PathOptions {
  readonly style: OpenApiStyle;
  /** `$ref` string of a definition name. */
  readonly refTo: (name: string) => string;
  readonly refs: OperationRefs;
  /** Offer `application/strategic-merge-patch+json` (built-in kinds only). */
  readonly strategicMergePatch: boolean;
  /** Offer the protobuf media type in responses (built-in kinds only). */
  readonly protobuf: boolean;
  /** The Protobuf media type of the API domain profile. */
  readonly protobufMediaType: string;
}

/** Media type of Orch's protobuf encoding. */
const PATCH_MEDIA_TYPES = [
  'application/apply-patch+yaml',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];

type Action = 'list' | 'create' | 'deletecollection' | 'read' | 'replace' | 'patch' | 'delete';

const KUBE_ACTION: Record<Action, string> = {
  list: 'list',
  create: 'post',
  deletecollection: 'deletecollection',
  read: 'get',
  replace: 'put',
  patch: 'patch',
  delete: 'delete',
};

const HTTP_METHOD: Record<Action, string> = {
  list: 'get',
  create: 'post',
  deletecollection: 'delete',
  read: 'get',
  replace: 'put',
  patch: 'patch',
  delete: 'delete',
};

const RESPONSE_CODES: Record<Action, readonly [string, string][]> = {
  list: [['200', 'OK']],
  create: [
    ['200', 'OK'],
    ['201', 'Created'],
    ['202', 'Accepted'],
  ],
  deletecollection: [['200', 'OK']],
  read: [['200', 'OK']],
  replace: [
    ['200', 'OK'],
    ['201', 'Created'],
  ],
  patch: [
    ['200', 'OK'],
    ['201', 'Created'],
  ],
  delete: [
    ['200', 'OK'],
    ['202', 'Accepted'],
  ],
};

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Group name without its domain suffix (either profile's), split into words: `coordination.<domain>` → `[coordination]`. */
function groupWords(group: string): string[] {
  return group.replace(/\.(orch|k8s)\.io$/, '').split(/[.-]/);
}

/** `CoreV1`, `CoordinationV1`: the group-version part of kube's operation ids. */
export function operationGroupVersion(group: string, version: string): string {
  const words = group ? groupWords(group) : ['core'];
  return words.map(capitalize).join('') + capitalize(version);
}

/** `core_v1`, `coordination_v1`: the operation tag. */
export function operationTag(group: string, version: string): string {
  if (!group) return `core_${version}`;
  const [first, ...rest] = groupWords(group);
  return `${first}${rest.map(capitalize).join('')}_${version}`;
}

/** `/api/v1` or `/apis/<group>/<version>`. */
export function groupVersionPrefix(group: string, version: string): string {
  return group ? `/apis/${group}/${version}` : `/api/${version}`;
}

interface OperationInput {
  readonly action: Action;
  readonly operationId: string;
  readonly description: string;
  readonly responseRef: string;
  readonly bodyRef?: string;
  /** The operation's kind when it is not the resource's (a sub-resource of another kind). */
  readonly gvk?: { readonly group: string; readonly kind: string; readonly version: string };
}

/**
 * The path items of one resource: its collections (namespaced and, for namespaced kinds, across
 * all namespaces), its items, and its sub-resources that accept the kind (status, finalize). Each
 * operation carries `x-kubernetes-action` and `x-kubernetes-group-version-kind`, which kubectl
 * uses to find the schema of a resource and to check which query parameters PATCH supports.
 */
export function resourcePaths(def: ResourceDefinition, opts: PathOptions): Record<string, OpenApiObject> {
  const { group, version, kind, resource } = def;
  const prefix = groupVersionPrefix(group, version);
  const gv = operationGroupVersion(group, version);
  const scope = def.namespaced ? 'Namespaced' : '';
  const base = def.namespaced ? `${prefix}/namespaces/{namespace}/${resource}` : `${prefix}/${resource}`;
  const verbs = new Set(def.verbs);
  const gvk = { group, kind, version };
  const tag = operationTag(group, version);
  const paths: Record<string, OpenApiObject> = {};

  const makeOperation = (input: OperationInput): OpenApiObject => {
    const op: OpenApiObject = {
      description: input.description,
      operationId: input.operationId,
      tags: [tag],
      'x-kubernetes-action': KUBE_ACTION[input.action],
      'x-kubernetes-group-version-kind': input.gvk ?? gvk,
    };
    const params = OPERATION_PARAMETERS[input.action === 'read' ? 'read' : input.action].map((p) =>
      parameter(p, opts.style),
    );
    addBodyAndResponses(op, params, input, opts);
    if (params.length > 0) op.parameters = params;
    return sortKeys(op);
  };

  const pathItem = (withName: boolean, ops: OpenApiObject): OpenApiObject => {
    const params: OpenApiObject[] = [];
    if (withName) params.push(parameter('name', opts.style, kind));
    if (def.namespaced) params.push(parameter('namespace', opts.style));
    params.push(parameter('pretty', opts.style));
    return sortKeys({ ...ops, parameters: params });
  };

  const collectionOps: OpenApiObject = {};
  const add = (target: OpenApiObject, input: OperationInput) => {
    target[HTTP_METHOD[input.action]] = makeOperation(input);
  };
  if (verbs.has('list')) {
    add(collectionOps, {
      action: 'list',
      operationId: `list${gv}${scope}${kind}`,
      description: `Lists ${kind} objects, or watches them for changes`,
      responseRef: opts.refs.list,
    });
  }
  if (verbs.has('create')) {
    add(collectionOps, {
      action: 'create',
      operationId: `create${gv}${scope}${kind}`,
      description: `Creates a ${kind}`,
      responseRef: opts.refs.kind,
      bodyRef: opts.refs.kind,
    });
  }
  if (verbs.has('deletecollection')) {
    add(collectionOps, {
      action: 'deletecollection',
      operationId: `delete${gv}Collection${scope}${kind}`,
      description: `Deletes a collection of ${kind} objects`,
      responseRef: opts.refs.status,
      bodyRef: opts.refs.deleteOptions,
    });
  }
  if (Object.keys(collectionOps).length > 0) paths[base] = pathItem(false, collectionOps);

  if (def.namespaced && verbs.has('list')) {
    const allOps: OpenApiObject = {};
    add(allOps, {
      action: 'list',
      operationId: `list${gv}${kind}ForAllNamespaces`,
      description: `Lists ${kind} objects in all namespaces, or watches them for changes`,
      responseRef: opts.refs.list,
    });
    paths[`${prefix}/${resource}`] = sortKeys({ ...allOps, parameters: [parameter('pretty', opts.style)] });
  }

  const itemOps: OpenApiObject = {};
  // Verb, action, what the operation does (to `a ${kind}` or `the <subresource> of a ${kind}`), body.
  const itemActions: [string, Action, string, string | undefined][] = [
    ['get', 'read', 'Reads', undefined],
    ['update', 'replace', 'Replaces', opts.refs.kind],
    ['patch', 'patch', 'Patches', opts.refs.patch],
    ['delete', 'delete', 'Deletes', opts.refs.deleteOptions],
  ];
  for (const [verb, action, does, bodyRef] of itemActions) {
    if (!verbs.has(verb)) continue;
    const responseRef = action === 'delete' ? opts.refs.status : opts.refs.kind;
    const description = `${does} a ${kind}`;
    add(itemOps, { action, operationId: `${action}${gv}${scope}${kind}`, description, responseRef, bodyRef });
  }
  if (Object.keys(itemOps).length > 0) paths[`${base}/{name}`] = pathItem(true, itemOps);

  for (const sub of def.subresources) {
    if (sub.name !== 'status' && sub.name !== 'finalize') continue;
    const subVerbs = new Set(sub.verbs);
    const subOps: OpenApiObject = {};
    const suffix = capitalize(sub.name);
    for (const [verb, action, does, bodyRef] of itemActions) {
      if (!subVerbs.has(verb) || action === 'delete') continue;
      add(subOps, {
        action,
        operationId: `${action}${gv}${scope}${kind}${suffix}`,
        description: `${does} the ${sub.name} of a ${kind}`,
        responseRef: opts.refs.kind,
        bodyRef,
      });
    }
    if (Object.keys(subOps).length > 0) paths[`${base}/{name}/${sub.name}`] = pathItem(true, subOps);
  }
  for (const sub of def.subresources) {
    const ref = sub.create && opts.refs.subresourceKinds?.get(sub.name);
    if (!sub.create || !ref) continue;
    const subOps: OpenApiObject = {};
    add(subOps, {
      action: 'create',
      operationId: `create${gv}${scope}${kind}${capitalize(sub.name)}`,
      description: `Creates a ${sub.name} for a ${kind}`,
      responseRef: ref,
      bodyRef: ref,
      gvk: { group: sub.create.group, kind: sub.create.kind, version: sub.create.version },
    });
    paths[`${base}/{name}/${sub.name}`] = pathItem(true, subOps);
  }
  return paths;
}

function responseMediaTypes(action: Action, opts: PathOptions): string[] {
  const types = ['application/json', 'application/yaml'];
  if (opts.protobuf) types.push(opts.protobufMediaType);
  if (action === 'list') {
    types.push('application/json;stream=watch');
    if (opts.protobuf) types.push(`${opts.protobufMediaType};stream=watch`);
  }
  return types.sort();
}

function requestMediaTypes(action: Action, opts: PathOptions): string[] {
  if (action !== 'patch') return ['*/*'];
  return PATCH_MEDIA_TYPES.filter((t) => opts.strategicMergePatch || t !== 'application/strategic-merge-patch+json');
}

function addBodyAndResponses(op: OpenApiObject, params: OpenApiObject[], input: OperationInput, opts: PathOptions) {
  const { action } = input;
  const responses: OpenApiObject = {};
  const responseSchema = { $ref: opts.refTo(input.responseRef) };
  const bodyRequired = action === 'create' || action === 'replace' || action === 'patch';
  if (opts.style === 'v3') {
    for (const [code, description] of RESPONSE_CODES[action]) {
      const content: OpenApiObject = {};
      for (const mt of responseMediaTypes(action, opts)) content[mt] = { schema: responseSchema };
      responses[code] = { content, description };
    }
    if (input.bodyRef) {
      const content: OpenApiObject = {};
      for (const mt of requestMediaTypes(action, opts)) content[mt] = { schema: { $ref: opts.refTo(input.bodyRef) } };
      op.requestBody = bodyRequired ? { content, required: true } : { content };
    }
  } else {
    for (const [code, description] of RESPONSE_CODES[action]) responses[code] = { description, schema: responseSchema };
    if (input.bodyRef) {
      params.unshift({ in: 'body', name: 'body', required: bodyRequired, schema: { $ref: opts.refTo(input.bodyRef) } });
      op.consumes = requestMediaTypes(action, opts);
    }
    op.produces = responseMediaTypes(action, opts);
    op.schemes = ['https'];
  }
  responses['401'] = { description: 'Unauthorized' };
  op.responses = responses;
}
