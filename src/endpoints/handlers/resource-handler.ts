import { apiErrors, StatusError, successStatus } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { ObjectList, RequestContext } from '../../registry/types.js';
import type { ApiRequest, ApiResponse, Handler } from '../handler.js';
import type { ServedResource, ServedResources } from '../served-resources.js';
import { decodeObjectBody, decodeObjectBytes, MAX_REQUEST_BODY_BYTES, mediaTypeOf } from './decode-body.js';
import { listOptionsOf, watchOptionsOf } from './list-options.js';
import { handlePatch } from './patch.js';
import { parseDeleteOptions, parseDryRun } from './request-options.js';
import { errorResponse, objectResponse } from './responses.js';
import { handleWatch } from './watch.js';

/**
 * Serves resource requests: looks the resource up (404 when unknown), then dispatches on the
 * verb the request-info filter derived. Every failure becomes a `Status` response.
 */
export function resourceHandler(resources: ServedResources): Handler {
  return async (req) => {
    try {
      const info = req.info;
      if (!info?.isResourceRequest) throw apiErrors.notFound({ group: '', resource: '' }, req.path);
      const served = resources.lookup(info.apiGroup, info.apiVersion, info.resource);
      if (!served) throw apiErrors.pathNotFound();
      checkScope(served, req);
      if (info.subresource && !served.def.subresources.some((s) => s.name === info.subresource))
        throw apiErrors.pathNotFound();
      return await dispatch(served, req);
    } catch (e) {
      return errorResponse(req, e);
    }
  };
}

function checkScope(served: ServedResource, req: ApiRequest): void {
  const info = req.info!;
  if (!served.def.namespaced && info.namespace && info.resource !== 'namespaces') throw apiErrors.pathNotFound();
  if (served.def.namespaced && !info.namespace && info.name) throw apiErrors.pathNotFound();
}

function contextOf(req: ApiRequest, served: ServedResource): RequestContext {
  const info = req.info!;
  return { namespace: served.def.namespaced ? info.namespace : '', user: req.user, signal: req.signal };
}

async function dispatch(served: ServedResource, req: ApiRequest): Promise<ApiResponse> {
  const info = req.info!;
  const ctx = contextOf(req, served);
  const store = served.store;
  switch (info.verb) {
    case 'get':
      return objectResponse(
        req,
        200,
        await store.get(ctx, info.name, { resourceVersion: req.query.get('resourceVersion') ?? undefined }),
      );
    case 'watch':
      return handleWatch(served, req, ctx, { ...listOptionsOf(req), ...watchOptionsOf(req) });
    case 'deletecollection': {
      const raw = await req.readBody(MAX_REQUEST_BODY_BYTES);
      const body = raw.length > 0 ? decodeObjectBytes(raw, mediaTypeOf(req)) : undefined;
      const list = await store.deleteCollection(ctx, parseDeleteOptions(req.query, body), listOptionsOf(req));
      return objectResponse(req, 200, listBody(served, list));
    }
    case 'list': {
      const list = await store.list(ctx, listOptionsOf(req));
      return objectResponse(req, 200, listBody(served, list));
    }
    case 'create': {
      if (info.subresource) throw apiErrors.methodNotAllowed('POST');
      const dryRun = parseDryRun(req.query.getAll('dryRun'));
      const body = (await decodeObjectBody(req, served.def)) as ApiObject;
      return objectResponse(req, 201, await store.create(ctx, body, { dryRun }));
    }
    case 'update': {
      const dryRun = parseDryRun(req.query.getAll('dryRun'));
      const body = (await decodeObjectBody(req, served.def)) as ApiObject;
      const next = { compute: () => body, retryOnConflict: !body.metadata?.resourceVersion };
      const r = await store.update(ctx, info.name, next, { dryRun, subresource: info.subresource || undefined });
      return objectResponse(req, r.created ? 201 : 200, r.obj);
    }
    case 'patch':
      return handlePatch(served, req, ctx);
    case 'delete': {
      const raw = await req.readBody(MAX_REQUEST_BODY_BYTES);
      const body = raw.length > 0 ? decodeObjectBytes(raw, mediaTypeOf(req)) : undefined;
      const opts = parseDeleteOptions(req.query, body);
      const r = await store.delete(ctx, info.name, opts);
      if (!r.deleted) return objectResponse(req, 200, r.obj);
      return objectResponse(
        req,
        200,
        successStatus({
          name: info.name,
          group: served.def.group || undefined,
          kind: served.def.resource,
          uid: r.obj.metadata.uid,
        }),
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

function listBody(served: ServedResource, list: ObjectList): object {
  return {
    kind: served.def.listKind,
    apiVersion: served.def.group ? `${served.def.group}/${served.def.version}` : served.def.version,
    metadata: {
      resourceVersion: list.resourceVersion,
      ...(list.continue ? { continue: list.continue } : {}),
      ...(list.remainingItemCount !== undefined ? { remainingItemCount: list.remainingItemCount } : {}),
    },
    items: list.items,
  };
}
