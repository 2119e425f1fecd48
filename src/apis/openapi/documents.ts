import { createHash } from 'node:crypto';
import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { deleteOptionsSchema, patchSchema, statusSchema, watchEventSchema } from '../meta/meta-v1-schemas.js';
import { listMetaField } from '../meta/object-meta-schema.js';
import { apiVersionField, kindField } from '../meta/type-meta-fields.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { namedType } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';
import { type OperationRefs, resourcePaths } from './paths.js';
import { DefinitionCollector, type OpenApiObject, type OpenApiStyle, sortKeys } from './schema-conversion.js';

/** `info` of the documents. */
export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
}

/** Per-resource choices the documents cannot read from a `ResourceDefinition`. */
export interface OpenApiOptions {
  readonly info?: OpenApiInfo;
  /** Whether the resource accepts strategic merge patches (default: as the definition says). */
  readonly strategicMergePatch?: (def: ResourceDefinition) => boolean;
  /** Whether the resource is served as protobuf (default: unless the definition says not). */
  readonly protobuf?: (def: ResourceDefinition) => boolean;
  /** Media type names of the API domain profile; default `orch.io`. */
  readonly domain?: ApiDomain;
}

const DEFAULT_INFO: OpenApiInfo = { title: 'Orch', version: 'unversioned' };
const BEARER_TOKEN = {
  description: 'Bearer Token authentication',
  in: 'header',
  name: 'authorization',
  type: 'apiKey',
};

function gvk(group: string, version: string, kind: string) {
  return { group, kind, version };
}

/** Reversed-domain definition name for kinds whose schema carries no `x-orch-type-name`. */
function fallbackTypeName(def: ResourceDefinition): string {
  const groupPart = def.group ? def.group.split('.').reverse().join('.') : 'core';
  return `${groupPart}.${def.version}.${def.kind}`;
}

/** The kind's schema as the document flavour publishes it, named. */
function kindSchemaOf(def: ResourceDefinition, style: OpenApiStyle): Schema {
  const schema = (style === 'v2' ? def.openApi?.v2Schema : undefined) ?? def.schema;
  if (schema['x-orch-type-name']) return schema;
  return namedType(fallbackTypeName(def), schema.description ?? '', schema);
}

/** Extensions of the kind's and its list's definitions beyond the GVK. */
function kindExtensions(def: ResourceDefinition): OpenApiObject {
  const fields = def.openApi?.selectableFields;
  if (fields === undefined) return {};
  return { 'x-kubernetes-selectable-fields': fields.map((fieldPath) => ({ fieldPath })) };
}

/** The description of a list's `metadata`, unless its definition gives one. */
const LIST_METADATA = "The list's metadata: its resource version and continue token.";

function listSchemaOf(def: ResourceDefinition & Partial<BuiltinResourceDefinition>, kindSchema: Schema): Schema {
  return namedType(`${kindSchema['x-orch-type-name']}List`, def.listDescription ?? `A list of ${def.kind} objects.`, {
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: listMetaField(def.listMetadataDescription ?? LIST_METADATA),
      items: {
        type: 'array',
        items: kindSchema,
        description: def.listItemsDescription ?? `The ${def.resource}.`,
      },
    },
  });
}

/** Definitions and paths of a set of resources, in one document flavour. */
function buildBody(defs: readonly ResourceDefinition[], style: OpenApiStyle, options: OpenApiOptions) {
  const collector = new DefinitionCollector(style, (options.domain ?? ORCH_DOMAIN).definitionName);
  const paths: Record<string, OpenApiObject> = {};
  const status = collector.define(statusSchema, { 'x-kubernetes-group-version-kind': [gvk('', 'v1', 'Status')] });
  const deleteOptions = collector.define(deleteOptionsSchema);
  const patch = collector.define(patchSchema);
  const watchEvent = collector.define(watchEventSchema);
  const groupVersions = new Map<string, { group: string; version: string }>([['/v1', { group: '', version: 'v1' }]]);
  for (const def of defs) {
    groupVersions.set(`${def.group}/${def.version}`, { group: def.group, version: def.version });
    const kindSchema = kindSchemaOf(def, style);
    const refs: OperationRefs = {
      kind: collector.define(kindSchema, {
        'x-kubernetes-group-version-kind': [gvk(def.group, def.version, def.kind)],
        ...kindExtensions(def),
      }),
      list: collector.define(listSchemaOf(def, kindSchema), {
        'x-kubernetes-group-version-kind': [gvk(def.group, def.version, def.listKind)],
        ...kindExtensions(def),
      }),
      status,
      deleteOptions,
      patch,
      subresourceKinds: new Map(
        def.subresources.flatMap((sub) =>
          sub.create
            ? [
                [
                  sub.name,
                  collector.define(sub.create.schema, {
                    'x-kubernetes-group-version-kind': [gvk(sub.create.group, sub.create.version, sub.create.kind)],
                  }),
                ] as const,
              ]
            : [],
        ),
      ),
    };
    Object.assign(
      paths,
      resourcePaths(def, {
        style,
        refTo: (name) => collector.refTo(name),
        refs,
        strategicMergePatch: options.strategicMergePatch?.(def) ?? def.strategicMergePatch !== false,
        protobuf: options.protobuf?.(def) ?? def.protobuf !== false,
        protobufMediaType: (options.domain ?? ORCH_DOMAIN).protobufMediaType,
      }),
    );
  }
  // DeleteOptions and WatchEvent are registered in every group version, as kube does.
  const sharedGvks = (kind: string) =>
    [...groupVersions.values()]
      .sort((a, b) => `${a.group}/${a.version}`.localeCompare(`${b.group}/${b.version}`))
      .map((gv) => gvk(gv.group, gv.version, kind));
  Object.assign(collector.definitions.get(deleteOptions)!, {
    'x-kubernetes-group-version-kind': sharedGvks('DeleteOptions'),
  });
  Object.assign(collector.definitions.get(watchEvent)!, {
    'x-kubernetes-group-version-kind': sharedGvks('WatchEvent'),
  });
  const definitions: OpenApiObject = {};
  for (const name of [...collector.definitions.keys()].sort()) {
    definitions[name] = sortKeys(collector.definitions.get(name)!);
  }
  return { paths: sortKeys(paths), definitions };
}

/**
 * The Swagger 2.0 document served at `/openapi/v2` (as JSON), covering every resource. It holds
 * no `default` anywhere, as kube prunes them from its v2 document. Pure.
 */
export function buildOpenApiV2(defs: readonly ResourceDefinition[], options: OpenApiOptions = {}): OpenApiObject {
  const { paths, definitions } = buildBody(defs, 'v2', options);
  return {
    swagger: '2.0',
    info: { ...(options.info ?? DEFAULT_INFO) },
    paths,
    definitions,
    securityDefinitions: { BearerToken: BEARER_TOKEN },
    security: [{ BearerToken: [] }],
  };
}

/** `api/v1` or `apis/<group>/<version>`: the key of a group version in `/openapi/v3`. */
export function openApiV3Path(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/**
 * The OpenAPI 3.0 document of one group version, served at `/openapi/v3/<openApiV3Path>`. It
 * holds only that group version's resources (and the shared meta types). Pure.
 */
export function buildOpenApiV3GroupVersion(
  defs: readonly ResourceDefinition[],
  group: string,
  version: string,
  options: OpenApiOptions = {},
): OpenApiObject {
  const selected = defs.filter((d) => d.group === group && d.version === version);
  const { paths, definitions } = buildBody(selected, 'v3', options);
  return {
    openapi: '3.0.0',
    info: { ...(options.info ?? DEFAULT_INFO) },
    paths,
    components: { schemas: definitions, securitySchemes: { BearerToken: BEARER_TOKEN } },
  };
}

/** The exact bytes to serve for a document; its hash is computed over these. */
export function serializeOpenApiDocument(doc: OpenApiObject): string {
  return JSON.stringify(doc);
}

/** kube's document hash: SHA-512 of the served bytes, upper-case hex (also the ETag). */
export function openApiHash(body: string): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}

/** One served group-version document. */
export interface OpenApiV3Document {
  /** `api/v1` or `apis/<group>/<version>`. */
  readonly path: string;
  readonly body: string;
  readonly hash: string;
  /** The definitions the document was built from (a rebuild reuses it while they are the same). */
  readonly defs?: readonly ResourceDefinition[];
}

function sameDefinitions(a: readonly ResourceDefinition[] | undefined, b: readonly ResourceDefinition[]): boolean {
  return a !== undefined && a.length === b.length && a.every((d, i) => d === b[i]);
}

/**
 * Every group-version document, ready to serve, keyed by {@link openApiV3Path}. Documents of
 * `previous` whose group version holds the very same definitions are reused, so adding one
 * resource rebuilds one document. Pure.
 */
export function buildOpenApiV3Documents(
  defs: readonly ResourceDefinition[],
  options: OpenApiOptions = {},
  previous?: ReadonlyMap<string, OpenApiV3Document>,
): Map<string, OpenApiV3Document> {
  const gvs = new Map<string, { group: string; version: string; defs: ResourceDefinition[] }>();
  for (const d of defs) {
    const path = openApiV3Path(d.group, d.version);
    const gv = gvs.get(path) ?? { group: d.group, version: d.version, defs: [] };
    gv.defs.push(d);
    gvs.set(path, gv);
  }
  const out = new Map<string, OpenApiV3Document>();
  for (const path of [...gvs.keys()].sort()) {
    const { group, version, defs: own } = gvs.get(path)!;
    const reuse = previous?.get(path);
    if (reuse && sameDefinitions(reuse.defs, own)) {
      out.set(path, reuse);
      continue;
    }
    const body = serializeOpenApiDocument(buildOpenApiV3GroupVersion(own, group, version, options));
    out.set(path, { path, body, hash: openApiHash(body), defs: own });
  }
  return out;
}

/** The `/openapi/v3` index of built documents (see {@link buildOpenApiV3Root}). */
export function openApiV3RootOf(docs: ReadonlyMap<string, OpenApiV3Document>): {
  paths: Record<string, { serverRelativeURL: string }>;
} {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const doc of docs.values()) paths[doc.path] = { serverRelativeURL: `/openapi/v3/${doc.path}?hash=${doc.hash}` };
  return { paths };
}

/**
 * The `/openapi/v3` index: `{paths: {"api/v1": {serverRelativeURL: "/openapi/v3/api/v1?hash=<HASH>"}}}`.
 * The hash is that of the document {@link buildOpenApiV3Documents} serves for the path. Pure.
 */
export function buildOpenApiV3Root(
  defs: readonly ResourceDefinition[],
  options: OpenApiOptions = {},
): { paths: Record<string, { serverRelativeURL: string }> } {
  return openApiV3RootOf(buildOpenApiV3Documents(defs, options));
}
