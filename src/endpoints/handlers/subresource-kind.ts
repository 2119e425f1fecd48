import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { ResourceDefinition, SubresourceDefinition, SubresourceKindRef } from '../../apis/resource-definition.js';
import {
  decodeJsonStrict,
  decodeUtf8Lenient,
  JsonSyntaxError,
  negotiatePatchType,
  UnsupportedMediaTypeError,
} from '../../encoding/index.js';
import { JsonPatchError, StrategicMergePatchError } from '../../patch/errors.js';
import { patchErrorToStatusError } from '../../patch/patch-status.js';
import type { ServedResource } from '../../registry/resource-set/index.js';
import type { RequestContext } from '../../registry/types.js';
import type { ApiRequest, ApiResponse } from '../handler.js';
import { decodeObjectBody, fieldValidationOf, MAX_REQUEST_BODY_BYTES } from './decode-body.js';
import { patchManager, writeManager } from './field-managers.js';
import { patcherFor, pinnedResourceVersion } from './patch.js';
import { parseDryRun } from './request-options.js';
import { type ResponseConfig, writeObject } from './response-writer.js';

/** The definition responses and bodies of a sub-resource kind are encoded and decoded with. */
export function viewDefinition(parent: ResourceDefinition, kind: SubresourceKindRef): ResourceDefinition {
  return {
    ...parent,
    group: kind.group,
    version: kind.version,
    kind: kind.kind,
    listKind: `${kind.kind}List`,
    schema: kind.schema,
    tableColumns: kind.tableColumns,
  };
}

/**
 * A sub-resource that reads and writes another kind backed by fields of the parent (`scale`):
 * GET answers the sub-resource object of the parent; PUT and PATCH change the object (JSON,
 * merge or strategic merge patch) and write its fields back into the parent through the
 * parent's registry, inside its retry loop, as an update of the sub-resource (its reset fields,
 * its field manager entry, admission). A `metadata.resourceVersion` in the body makes the write
 * conditional on the parent's version.
 */
export async function handleSubresourceKind(
  served: ServedResource,
  sub: SubresourceDefinition,
  req: ApiRequest,
  ctx: RequestContext,
  cfg: ResponseConfig,
): Promise<ApiResponse> {
  const kind = sub.kind!;
  const view = viewDefinition(served.def, kind);
  const info = ctx.info;
  if (!sub.verbs.includes(info.verb)) {
    throw new StatusError(
      405,
      'MethodNotAllowed',
      `the server does not allow this method on the requested resource (${info.verb})`,
    );
  }
  if (info.verb === 'get') {
    const parent = await served.store.get(ctx, info.name, {
      resourceVersion: req.query.get('resourceVersion') ?? undefined,
    });
    return writeObject(req, cfg, view, 200, kind.toSubresource(parent));
  }
  const dryRun = parseDryRun(req.query.getAll('dryRun'));
  let change: (current: ApiObject) => ApiObject;
  let manager: string;
  let pinned: boolean;
  if (info.verb === 'update') {
    manager = writeManager(req, 'UpdateOptions');
    const body = await decodeObjectBody(req, view, {
      directive: fieldValidationOf(req, 'UpdateOptions'),
      cborEnabled: cfg.cborEnabled,
    });
    for (const w of body.warnings) ctx.warnings.add(w);
    const obj = body.obj as ApiObject;
    change = () => obj;
    pinned = !!obj.metadata?.resourceVersion;
  } else if (info.verb === 'patch') {
    manager = patchManager(req, false).manager;
    const patch = await readPatch(req, cfg, kind.schema, served.def.strategicMergePatch !== false);
    change = (current) => patch.apply(current);
    pinned = patch.pinned;
  } else {
    throw new StatusError(
      405,
      'MethodNotAllowed',
      `the server does not allow this method on the requested resource (${info.verb})`,
    );
  }
  const r = await served.store.update(
    ctx,
    info.name,
    {
      retryOnConflict: !pinned,
      compute(live) {
        if (!live) throw apiErrors.notFound({ group: served.def.group, resource: served.def.resource }, info.name);
        const next = change(kind.toSubresource(live));
        const parent = kind.toParent(structuredClone(live), next);
        if (Array.isArray(parent)) throw apiErrors.invalid({ group: kind.group, kind: kind.kind }, info.name, parent);
        const rv = next.metadata?.resourceVersion;
        if (rv) parent.metadata.resourceVersion = rv;
        return parent;
      },
    },
    { dryRun, subresource: sub.name, fieldManager: manager },
  );
  return writeObject(req, cfg, view, 200, kind.toSubresource(r.obj));
}

interface DecodedPatch {
  apply(current: ApiObject): ApiObject;
  readonly pinned: boolean;
}

async function readPatch(
  req: ApiRequest,
  cfg: ResponseConfig,
  schema: SubresourceKindRef['schema'],
  strategicMerge: boolean,
): Promise<DecodedPatch> {
  let type: ReturnType<typeof negotiatePatchType>['patchType'];
  try {
    type = negotiatePatchType(req.headers['content-type'], {
      strategicMerge,
      cborEnabled: cfg.cborEnabled,
    }).patchType;
  } catch (e) {
    if (e instanceof UnsupportedMediaTypeError) throw e.toStatusError();
    throw e;
  }
  if (type !== 'json-patch' && type !== 'merge-patch' && type !== 'strategic-merge-patch') {
    throw apiErrors.unsupportedMediaType(req.headers['content-type'] ?? '', [
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
  }
  let patch: unknown;
  try {
    patch = decodeJsonStrict(decodeUtf8Lenient(await req.readBody(MAX_REQUEST_BODY_BYTES)), {
      detectDuplicates: false,
    }).value;
  } catch (e) {
    if (e instanceof JsonSyntaxError)
      throw new StatusError(400, 'BadRequest', `error decoding patch: ${e.message}`, undefined, { cause: e });
    throw e;
  }
  const patcher = patcherFor(schema, type, patch);
  return {
    pinned: pinnedResourceVersion(type, patch),
    apply(current) {
      try {
        return patcher(current) as ApiObject;
      } catch (e) {
        if (e instanceof JsonPatchError || e instanceof StrategicMergePatchError) throw patchErrorToStatusError(e);
        throw e;
      }
    },
  };
}
