import { apiErrors, StatusError, successStatus } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { ResourceSet, ServedResource } from '../../registry/resource-set/index.js';
import type { GetOptions, RequestContext } from '../../registry/types.js';
import { type ApiRequest, type ApiResponse, type Handler, readContext, requestContext } from '../handler.js';
import { handleConnect } from './connect.js';
import {
  decodeObjectBody,
  decodeOptionsBody,
  fieldValidationOf,
  MAX_REQUEST_BODY_BYTES,
  mediaTypeOf,
} from './decode-body.js';
import { writeManager } from './field-managers.js';
import { listOptionsOf, watchOptionsOf } from './list-options.js';
import { withDedupedOwnerReferences } from './owner-references.js';
import { handlePatch } from './patch.js';
import { parseDeleteOptions, parseDryRun } from './request-options.js';
import {
  type ResponseConfig,
  writeCreated,
  writeEncodedObject,
  writeError,
  writeList,
  writeObject,
  writeSuccessStatus,
} from './response-writer.js';
import { handleSubresourceCreate } from './subresource-create.js';
import { handleSubresourceKind } from './subresource-kind.js';
import { handleWatch } from './watch.js';

/**
 * Serves resource requests: looks the resource up in the resource set as it is now (404 when
 * unknown), then dispatches on the verb the request-info filter derived. Every failure becomes a
 * `Status` response in the client's encoding. Writes name their field manager to the registry,
 * which records ownership (`metadata.managedFields`) and runs admission; warnings from any layer
 * go to the request's collector and end up in `Warning` headers.
 */
export function resourceHandler(resources: ResourceSet, cfg: ResponseConfig): Handler {
  const failed = (req: ApiRequest, e: unknown): ApiResponse => writeError(req, cfg, e);
  // Not async: a GET the registry answers at once is answered at once; whatever waits is one
  // promise whose rejection becomes the error response.
  return (req) => {
    let res: ApiResponse | Promise<ApiResponse>;
    try {
      res = serve(resources, cfg, req);
    } catch (e) {
      return failed(req, e);
    }
    return res instanceof Promise ? res.catch((e: unknown) => failed(req, e)) : res;
  };
}

/** One resource request; throws (or rejects with) what becomes its error response. */
function serve(resources: ResourceSet, cfg: ResponseConfig, req: ApiRequest): ApiResponse | Promise<ApiResponse> {
  const info = req.info;
  if (!info?.isResourceRequest) throw apiErrors.pathNotFound();
  const served = resources.lookup(info.apiGroup, info.apiVersion, info.resource);
  if (!served) throw apiErrors.pathNotFound();
  checkScope(served, req);
  const sub = info.subresource ? served.def.subresources.find((s) => s.name === info.subresource) : undefined;
  if (info.subresource && !sub) throw apiErrors.pathNotFound();
  const namespace = served.def.namespaced ? info.namespace : '';
  if (served.def.deprecationWarning) {
    req.warnings.add(served.def.deprecationWarning);
    req.deprecatedApi = { removedRelease: served.def.removedRelease ?? '' };
    if (req.auditAnnotations) {
      req.auditAnnotations[`${req.domain.name}/deprecated`] = 'true';
      if (served.def.removedRelease)
        req.auditAnnotations[`${req.domain.name}/removed-release`] = served.def.removedRelease;
    }
  }
  // A GET makes its full context only when the watch cache cannot answer it.
  if (info.verb === 'get' && !sub?.kind && !sub?.create && !sub?.connect) return getOne(served, req, namespace, cfg);
  const ctx = requestContext(req, namespace);
  if (sub?.kind) return handleSubresourceKind(served, sub, req, ctx, cfg);
  if (sub?.create) return handleSubresourceCreate(served, sub, req, ctx, cfg);
  if (sub?.connect) return handleConnect(served, sub, req, ctx);
  return dispatch(served, req, ctx, cfg);
}

/**
 * GET of one object: the encoded bytes the registry has at hand (answered without a promise
 * when the registry answers so), else the decoded object.
 */
function getOne(
  served: ServedResource,
  req: ApiRequest,
  namespace: string,
  cfg: ResponseConfig,
): ApiResponse | Promise<ApiResponse> {
  const getOptions: GetOptions = { resourceVersion: req.query.get('resourceVersion') ?? undefined };
  const encoded = served.store.getEncoded?.(readContext(req, namespace), req.info!.name, getOptions);
  if (encoded === undefined) return getDecoded(served, req, namespace, cfg, getOptions);
  if (encoded instanceof Promise) {
    return encoded.then((found) =>
      found ? writeEncodedObject(req, cfg, served.def, found) : getDecoded(served, req, namespace, cfg, getOptions),
    );
  }
  return encoded
    ? writeEncodedObject(req, cfg, served.def, encoded)
    : getDecoded(served, req, namespace, cfg, getOptions);
}

async function getDecoded(
  served: ServedResource,
  req: ApiRequest,
  namespace: string,
  cfg: ResponseConfig,
  getOptions: GetOptions,
): Promise<ApiResponse> {
  const ctx = requestContext(req, namespace);
  return writeObject(req, cfg, served.def, 200, await served.store.get(ctx, ctx.info.name, getOptions));
}

/**
 * A path's namespace must fit the resource's scope: cluster-scoped resources take none (except
 * kinds whose objects are namespaces, whose path segment is the name), namespaced resources need
 * one to address a single object.
 */
function checkScope(served: ServedResource, req: ApiRequest): void {
  const info = req.info!;
  const def = served.def;
  if (!def.namespaced && info.namespace && !def.namespaceIsName) throw apiErrors.pathNotFound();
  // A named object of a namespaced resource needs a namespace path; a list or watch across
  // namespaces may still select one name with a field selector.
  if (def.namespaced && !info.namespace && info.name && info.parts.length > 1) throw apiErrors.pathNotFound();
}

function addWarnings(ctx: RequestContext, warnings: readonly string[]): void {
  for (const w of warnings) ctx.warnings.add(w);
}

async function readOptionsBody(req: ApiRequest): Promise<Record<string, unknown> | undefined> {
  return decodeOptionsBody(await req.readBody(MAX_REQUEST_BODY_BYTES), mediaTypeOf(req));
}

async function dispatch(
  served: ServedResource,
  req: ApiRequest,
  ctx: RequestContext,
  cfg: ResponseConfig,
): Promise<ApiResponse> {
  const info = ctx.info;
  const { store, def } = served;
  switch (info.verb) {
    case 'list':
      return writeList(req, cfg, def, await store.list(ctx, listOptionsOf(req, cfg.watchList ?? true)));
    case 'watch':
      return handleWatch(
        served,
        req,
        ctx,
        { ...listOptionsOf(req, cfg.watchList ?? true), ...watchOptionsOf(req) },
        cfg,
      );
    case 'create': {
      // kube serves POST on collections only (and on connect sub-resources, none served yet).
      if (info.subresource || info.name) throw apiErrors.methodNotAllowed('POST');
      const manager = writeManager(req, 'CreateOptions');
      const dryRun = parseDryRun(req.query.getAll('dryRun'));
      const directive = fieldValidationOf(req, 'CreateOptions');
      const body = await decodeObjectBody(req, def, {
        directive,
        cborEnabled: cfg.cborEnabled,
        // Defaulted as it is decoded when the create's defaulting starts with the kind's schema's.
        applySchemaDefaults: store.createDefaultsSchema === def.schema,
        canonicalQuantities: !!store.createDefaultsQuantities,
      });
      addWarnings(ctx, withDedupedOwnerReferences(body.obj as ApiObject, body.warnings));
      // The decoded body is this create's alone.
      const options = {
        dryRun,
        fieldManager: manager,
        inputIsOwned: body.ownable,
        inputDefaultedBy: body.defaultedBy,
      };
      if (store.createWithJson) {
        const created = await store.createWithJson(ctx, body.obj as ApiObject, options);
        return writeCreated(req, cfg, def, created.obj, created.json);
      }
      return writeCreated(req, cfg, def, await store.create(ctx, body.obj as ApiObject, options));
    }
    case 'update': {
      // PUT and PATCH address one object: kube has no such route on a collection.
      if (!info.name) throw apiErrors.methodNotAllowed('PUT');
      const manager = writeManager(req, 'UpdateOptions');
      const dryRun = parseDryRun(req.query.getAll('dryRun'));
      const directive = fieldValidationOf(req, 'UpdateOptions');
      const body = await decodeObjectBody(req, def, { directive, cborEnabled: cfg.cborEnabled });
      const obj = body.obj as ApiObject;
      addWarnings(ctx, withDedupedOwnerReferences(obj, body.warnings));
      const subresource = info.subresource || undefined;
      // A method, not an arrow property: the bundle names arrow properties at a cost per request.
      const next = {
        compute() {
          return obj;
        },
        retryOnConflict: !obj.metadata?.resourceVersion,
      };
      const r = await store.update(ctx, info.name, next, { dryRun, subresource, fieldManager: manager });
      return writeObject(req, cfg, def, r.created ? 201 : 200, r.obj);
    }
    case 'patch': {
      if (!info.name) throw apiErrors.methodNotAllowed('PATCH');
      const r = await handlePatch(served, req, ctx, { cfg });
      addWarnings(ctx, r.warnings);
      return writeObject(req, cfg, def, r.created ? 201 : 200, r.obj);
    }
    case 'delete': {
      const opts = parseDeleteOptions(req.query, await readOptionsBody(req));
      const r = await store.delete(ctx, info.name, opts);
      // kube answers 202 when the object stays and the client asked for orphanDependents=false.
      if (!r.deleted) return writeObject(req, cfg, def, opts.orphanDependents === false ? 202 : 200, r.obj);
      const status = successStatus({
        name: info.name,
        group: def.group || undefined,
        kind: def.resource,
        uid: r.obj.metadata.uid,
      });
      return writeSuccessStatus(req, cfg, status);
    }
    case 'deletecollection': {
      const opts = parseDeleteOptions(req.query, await readOptionsBody(req));
      return writeList(
        req,
        cfg,
        def,
        await store.deleteCollection(ctx, opts, listOptionsOf(req, cfg.watchList ?? true)),
      );
    }
    default:
      throw new StatusError(
        405,
        'MethodNotAllowed',
        `the server does not allow this method on the requested resource (${info.verb})`,
      );
  }
}
