import { apiErrors, StatusError, successStatus } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { WarningRecorder } from '../../encoding/index.js';
import type { RequestContext } from '../../registry/types.js';
import type { ApiRequest, ApiResponse, BodyResponse, Handler } from '../handler.js';
import type { ServedResource, ServedResources } from '../served-resources.js';
import {
  decodeObjectBody,
  decodeOptionsBody,
  fieldValidationOf,
  MAX_REQUEST_BODY_BYTES,
  mediaTypeOf,
} from './decode-body.js';
import { FieldManagers, writeManager } from './field-managers.js';
import { listOptionsOf, watchOptionsOf } from './list-options.js';
import { withDedupedOwnerReferences } from './owner-references.js';
import { handlePatch } from './patch.js';
import { parseDeleteOptions, parseDryRun } from './request-options.js';
import { type ResponseConfig, writeError, writeList, writeObject, writeSuccessStatus } from './response-writer.js';
import { handleWatch } from './watch.js';

/**
 * Serves resource requests: looks the resource up (404 when unknown), then dispatches on the
 * verb the request-info filter derived. Every failure becomes a `Status` response in the
 * client's encoding. Creates, updates and patches record field ownership
 * (`metadata.managedFields`) through one field manager per resource, built here, whose
 * timestamps come from `cfg.now`.
 */
export function resourceHandler(resources: ServedResources, cfg: ResponseConfig): Handler {
  const managers = new FieldManagers(
    resources.all().map((r) => r.def),
    { now: cfg.now },
  );
  return async (req) => {
    try {
      const info = req.info;
      if (!info?.isResourceRequest) throw apiErrors.pathNotFound();
      const served = resources.lookup(info.apiGroup, info.apiVersion, info.resource);
      if (!served) throw apiErrors.pathNotFound();
      checkScope(served, req);
      if (info.subresource && !served.def.subresources.some((s) => s.name === info.subresource)) {
        throw apiErrors.pathNotFound();
      }
      return await dispatch(served, req, cfg, managers);
    } catch (e) {
      return writeError(req, cfg, e);
    }
  };
}

function checkScope(served: ServedResource, req: ApiRequest): void {
  const info = req.info!;
  if (!served.def.namespaced && info.namespace && info.resource !== 'namespaces') throw apiErrors.pathNotFound();
  // A named object of a namespaced resource needs a namespace path; a list or watch across
  // namespaces may still select one name with a field selector.
  if (served.def.namespaced && !info.namespace && info.name && (info.parts?.length ?? 2) > 1) {
    throw apiErrors.pathNotFound();
  }
}

function contextOf(req: ApiRequest, served: ServedResource): RequestContext {
  const info = req.info!;
  return {
    namespace: served.def.namespaced ? info.namespace : '',
    user: req.user,
    // Read lazily: a per-request AbortSignal costs more than serving a cached GET.
    get signal() {
      return req.signal;
    },
  };
}

function withWarnings(res: BodyResponse, warnings: readonly string[]): BodyResponse {
  if (warnings.length === 0) return res;
  const rec = new WarningRecorder();
  for (const w of warnings) rec.add(w);
  const values = rec.headerValues();
  return values.length === 0 ? res : { ...res, headers: { ...res.headers, warning: [...values] } };
}

async function readOptionsBody(req: ApiRequest): Promise<Record<string, unknown> | undefined> {
  return decodeOptionsBody(await req.readBody(MAX_REQUEST_BODY_BYTES), mediaTypeOf(req));
}

async function dispatch(
  served: ServedResource,
  req: ApiRequest,
  cfg: ResponseConfig,
  managers: FieldManagers,
): Promise<ApiResponse> {
  const info = req.info!;
  const ctx = contextOf(req, served);
  const { store, def } = served;
  switch (info.verb) {
    case 'get': {
      const obj = await store.get(ctx, info.name, { resourceVersion: req.query.get('resourceVersion') ?? undefined });
      return writeObject(req, cfg, def, 200, obj);
    }
    case 'list':
      return writeList(req, cfg, def, await store.list(ctx, listOptionsOf(req)));
    case 'watch':
      return handleWatch(served, req, ctx, { ...listOptionsOf(req), ...watchOptionsOf(req) }, cfg);
    case 'create': {
      if (info.subresource) throw apiErrors.methodNotAllowed('POST');
      const manager = writeManager(req, 'CreateOptions');
      const dryRun = parseDryRun(req.query.getAll('dryRun'));
      const directive = fieldValidationOf(req, 'CreateOptions');
      const body = await decodeObjectBody(req, def, { directive, cborEnabled: cfg.cborEnabled });
      const warnings = withDedupedOwnerReferences(body.obj as ApiObject, body.warnings);
      const tracking = managers.of(def);
      const obj = tracking.fieldManager.update(undefined, body.obj as ApiObject, manager, tracking.writeOptions(''));
      const created = await store.create(ctx, obj, { dryRun });
      return withWarnings(writeObject(req, cfg, def, 201, created), warnings);
    }
    case 'update': {
      const manager = writeManager(req, 'UpdateOptions');
      const dryRun = parseDryRun(req.query.getAll('dryRun'));
      const directive = fieldValidationOf(req, 'UpdateOptions');
      const body = await decodeObjectBody(req, def, { directive, cborEnabled: cfg.cborEnabled });
      const obj = body.obj as ApiObject;
      const warnings = withDedupedOwnerReferences(obj, body.warnings);
      const subresource = info.subresource || undefined;
      const tracking = managers.of(def);
      const writeOptions = tracking.writeOptions(subresource);
      // Ownership is computed against the live object of each attempt (retries re-read it).
      const next = {
        compute: (live: ApiObject | undefined) => tracking.fieldManager.update(live, obj, manager, writeOptions),
        retryOnConflict: !obj.metadata?.resourceVersion,
      };
      const r = await store.update(ctx, info.name, next, { dryRun, subresource });
      return withWarnings(writeObject(req, cfg, def, r.created ? 201 : 200, r.obj), warnings);
    }
    case 'patch': {
      const r = await handlePatch(served, req, ctx, { cfg, tracking: managers.of(def) });
      return withWarnings(writeObject(req, cfg, def, r.created ? 201 : 200, r.obj), r.warnings);
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
      return writeList(req, cfg, def, await store.deleteCollection(ctx, opts, listOptionsOf(req)));
    }
    default:
      throw new StatusError(
        405,
        'MethodNotAllowed',
        `the server does not allow this method on the requested resource (${info.verb})`,
      );
  }
}
