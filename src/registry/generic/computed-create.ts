import { apiErrors } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { CreateOptions, RequestContext } from '../types.js';
import { admissionAttributes } from './admission-calls.js';
import type { RegistryContext } from './registry-context.js';

/**
 * POST to a sub-resource that computes its answer: mutating then validating admission (operation
 * CREATE, the sub-resource's kind, the parent's resource and name), then the sub-resource's
 * `create`. Nothing is stored here; whatever the sub-resource changes, it changes through
 * registries of its own.
 */
export async function createSubresourceObject(
  rc: RegistryContext,
  ctx: RequestContext,
  name: string,
  subresource: string,
  body: ApiObject,
  o: CreateOptions,
): Promise<ApiObject> {
  const sub = rc.def.subresources.find((s) => s.name === subresource)?.create;
  if (!sub) throw apiErrors.pathNotFound();
  withMetadata(body);
  const attributes = {
    ...admissionAttributes(rc, ctx, {
      operation: 'CREATE',
      object: body,
      oldObject: undefined,
      name,
      dryRun: o.dryRun,
      subresource,
      options: createOptionsObject(o),
    }),
    kind: { group: sub.group, version: sub.version, kind: sub.kind },
    namespace: ctx.namespace,
  };
  await rc.admission.admit(attributes, ctx.signal);
  await rc.admission.validate(attributes, ctx.signal);
  return sub.create(ctx, { namespace: ctx.namespace, name }, body, { dryRun: o.dryRun });
}

/**
 * The create of a resource that stores nothing (TokenReview, SelfSubjectReview): mutating then
 * validating admission, then the definition's `virtual.create`.
 */
export async function createVirtualObject(
  rc: RegistryContext,
  ctx: RequestContext,
  body: ApiObject,
  o: CreateOptions,
): Promise<ApiObject> {
  const virtual = rc.def.virtual;
  if (!virtual) throw apiErrors.pathNotFound();
  withMetadata(body);
  const attributes = admissionAttributes(rc, ctx, {
    operation: 'CREATE',
    object: body,
    oldObject: undefined,
    name: body.metadata?.name ?? '',
    dryRun: o.dryRun,
    options: createOptionsObject(o),
  });
  await rc.admission.admit(attributes, ctx.signal);
  await rc.admission.validate(attributes, ctx.signal);
  return virtual.create(ctx, body, { dryRun: o.dryRun });
}

/** A body without `metadata` gets an empty one, as decoding into kube's types gives it. */
function withMetadata(body: ApiObject): void {
  if (body.metadata === null || typeof body.metadata !== 'object') body.metadata = {};
}

/** The create's options as admission sees them (the shape the generic create passes). */
function createOptionsObject(o: CreateOptions): Record<string, unknown> {
  return { dryRun: o.dryRun ? ['All'] : undefined, fieldManager: o.fieldManager };
}
