import { apiErrors } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { WarningSink } from '../../apis/request/request-context.js';
import type { ResourceStrategy } from '../../apis/resource-definition.js';
import { apiVersionOf } from '../../apis/resource-definition.js';
import { ConflictError, KeyExistsError, NotFoundError } from '../../storage/errors.js';
import type { KeyValue } from '../../storage/store.js';
import { deepEqual } from '../../util/deep-equal.js';
import type { RequestContext, UpdatedObject, UpdateOptions } from '../types.js';
import { admitWrite, validateWrite } from './admission-calls.js';
import { fillCreateSystemFields } from './create.js';
import { deleteDuringUpdate, shouldDeleteDuringUpdate } from './delete-finalizers.js';
import { checkNameMatchesPath, checkObjectIdentity } from './object-checks.js';
import { keyFor, type RegistryContext, validatedKind } from './registry-context.js';
import { toStatusError } from './storage-errors.js';
import { convertOneFromStorage, sameStoredValue, shownAfterWrite, storedForm } from './stored-conversion.js';
import { sameBytes } from './stored-object.js';
import { withFinish } from './write-hooks.js';

const MAX_ATTEMPTS = 16;

/**
 * Update with optimistic concurrency: read the live object, compute the desired one, write it
 * guarded by the live modRevision; on a lost race re-read and recompute (unless the client
 * pinned a resourceVersion, which then yields 409). A missing object is created when the
 * resource allows create-on-update, else 404. An update that changes nothing is not written.
 */
export async function updateObject(
  rc: RegistryContext,
  ctx: RequestContext,
  name: string,
  next: UpdatedObject,
  o: UpdateOptions,
): Promise<{ obj: ApiObject; created: boolean }> {
  const key = keyFor(rc, ctx.namespace, name);
  let liveKv: KeyValue | undefined;
  try {
    liveKv = await rc.store.get(key, { signal: ctx.signal });
  } catch (e) {
    throw toStatusError(e, rc.gr, name);
  }
  for (let attempt = 1; ; attempt++) {
    let live = liveKv ? rc.codec.decode(liveKv) : undefined;
    // [conversion] A webhook-converted resource updates the live object in the request's version.
    if (live && rc.codec.async) {
      try {
        live = await convertOneFromStorage(rc, live, ctx.signal);
      } catch (e) {
        throw toStatusError(e, rc.gr, name);
      }
    }
    let desired = structuredClone(await next.compute(live ? structuredClone(live) : undefined));
    // Defaults first, as kube defaults what it decodes (and what an apply merged): the writer
    // owns the defaults it got.
    if (!o.subresource) rc.def.strategy.defaults?.(desired);
    // Ownership is computed against the live object of each attempt (retries re-read it).
    if (o.fieldManager !== undefined) {
      desired = rc.fields.fieldManager.update(live, desired, o.fieldManager, rc.fields.writeOptions(o.subresource));
    }
    checkObjectIdentity(rc, ctx, desired);
    checkNameMatchesPath(desired, name);
    try {
      if (!live || !liveKv) return { obj: await createViaUpdate(rc, ctx, key, desired, o), created: true };
      const call = {
        operation: 'UPDATE',
        object: desired,
        oldObject: live,
        name,
        dryRun: o.dryRun,
        subresource: o.subresource,
        options: updateOptionsObject(o),
      } as const;
      await admitWrite(rc, ctx, call);
      const obj = prepareUpdate(rc, {
        desired,
        live,
        strategy: strategyFor(rc, o.subresource),
        warnings: ctx.warnings,
      });
      // [write hooks] Allocations (Service cluster IPs, node ports) happen before validating
      // admission; a lost race finishes this attempt as failed.
      const hooks = { dryRun: o.dryRun, subresource: o.subresource };
      const finish = (await rc.hooks?.beginUpdate?.(ctx, obj, live, hooks)) ?? (async () => {});
      let written: { obj: ApiObject; deleted: boolean };
      try {
        written = await writeUpdate(rc, ctx, { key, call, obj, live, liveKv, dryRun: o.dryRun });
      } catch (e) {
        await finish(false);
        throw e;
      }
      // An object the update deleted keeps nothing of the update (its stored state is released).
      await finish(!written.deleted);
      if (written.deleted) await rc.hooks?.afterDelete?.(ctx, live, { dryRun: o.dryRun });
      return { obj: written.obj, created: false };
    } catch (e) {
      const retriable = attempt < MAX_ATTEMPTS && next.retryOnConflict;
      if (e instanceof ConflictError && retriable) {
        liveKv = e.current;
        continue;
      }
      if ((e instanceof NotFoundError || e instanceof KeyExistsError) && retriable) {
        liveKv = await rc.store.get(key, { signal: ctx.signal }).catch((err) => {
          throw toStatusError(err, rc.gr, name);
        });
        continue;
      }
      throw toStatusError(e, rc.gr, name);
    }
  }
}

/** The write of a prepared update: validating admission, then the store (or the delete). */
async function writeUpdate(
  rc: RegistryContext,
  ctx: RequestContext,
  w: {
    readonly key: string;
    readonly call: Parameters<typeof validateWrite>[2];
    readonly obj: ApiObject;
    readonly live: ApiObject;
    readonly liveKv: KeyValue;
    readonly dryRun: boolean;
  },
): Promise<{ obj: ApiObject; deleted: boolean }> {
  const { obj, live, liveKv } = w;
  await validateWrite(rc, ctx, w.call);
  // [deletion lifecycle] kube's deleteAfterUpdate: an update that removes the last finalizer
  // of an object being deleted removes the object (guarded by liveKv's revision; a conflict
  // retries like any other). See delete-finalizers.ts.
  if (shouldDeleteDuringUpdate(rc, obj, live)) {
    return { obj: await deleteDuringUpdate(rc, ctx, w.key, liveKv, obj, w.dryRun), deleted: true };
  }
  // [conversion] Converted to the storage version first when that needs the webhook; the
  // answer is then the written value shown again.
  const form = rc.codec.async ? await storedForm(rc, obj, ctx.signal) : undefined;
  const value = form?.value ?? rc.codec.encode(obj);
  if (sameBytes(value, liveKv.value) || (form && sameStoredValue(value, liveKv.value))) {
    return { obj: live, deleted: false };
  }
  if (w.dryRun) {
    obj.metadata.resourceVersion = live.metadata.resourceVersion;
    return { obj, deleted: false };
  }
  const { revision } = await rc.store.update(w.key, value, liveKv.modRevision, ctx.signal);
  obj.metadata.resourceVersion = revision.toString();
  if (form) return { obj: await shownAfterWrite(rc, form, revision, ctx.signal), deleted: false };
  return { obj, deleted: false };
}

async function createViaUpdate(
  rc: RegistryContext,
  ctx: RequestContext,
  key: string,
  desired: ApiObject,
  o: UpdateOptions,
): Promise<ApiObject> {
  if (!rc.def.allowCreateOnUpdate && !o.createIfMissing) throw apiErrors.notFound(rc.gr, desired.metadata.name ?? '');
  if (desired.metadata.resourceVersion) {
    // A resourceVersion names a version of an object that does not exist (any more).
    throw apiErrors.notFound(rc.gr, desired.metadata.name ?? '');
  }
  const call = {
    operation: 'CREATE',
    object: desired,
    oldObject: undefined,
    name: desired.metadata.name ?? '',
    dryRun: o.dryRun,
    options: { dryRun: o.dryRun ? ['All'] : undefined },
  } as const;
  await admitWrite(rc, ctx, call);
  fillCreateSystemFields(rc, desired);
  rc.def.strategy.prepareForCreate(desired, { user: ctx.user });
  const errs = rc.def.strategy.validateCreate(desired);
  if (errs.length > 0) {
    throw apiErrors.invalid(validatedKind(rc), desired.metadata.name ?? '', errs);
  }
  return withFinish(rc.hooks?.beginCreate?.(ctx, desired, { dryRun: o.dryRun }), async () => {
    await validateWrite(rc, ctx, call);
    // [conversion] A dry run converts too (a failed conversion fails it), as kube's dry-run storage does.
    const form = rc.codec.async ? await storedForm(rc, desired, ctx.signal) : undefined;
    if (o.dryRun) return desired;
    const { revision } = await rc.store.create(key, form?.value ?? rc.codec.encode(desired), ctx.signal);
    desired.metadata.resourceVersion = revision.toString();
    return form ? shownAfterWrite(rc, form, revision, ctx.signal) : desired;
  });
}

/** The `UpdateOptions` object admission plugins see. */
function updateOptionsObject(o: UpdateOptions): Record<string, unknown> {
  return { dryRun: o.dryRun ? ['All'] : undefined, fieldManager: o.fieldManager };
}

/** The strategy of a sub-resource write, or the main one. */
function strategyFor(rc: RegistryContext, subresource: string | undefined): ResourceStrategy {
  if (!subresource) return rc.def.strategy;
  const sub = rc.def.subresources.find((s) => s.name === subresource);
  // A sub-resource of another kind writes the parent through its conversion, under the main rules.
  if (sub?.kind) return sub.strategy ?? rc.def.strategy;
  if (!sub?.strategy) throw apiErrors.methodNotAllowed('PUT');
  return sub.strategy;
}

/**
 * Carries system fields over from the live object, checks the client's resourceVersion,
 * bumps generation on a spec change, then runs the strategy and validation.
 */
function prepareUpdate(
  rc: RegistryContext,
  u: {
    readonly desired: ApiObject;
    readonly live: ApiObject;
    readonly strategy: ResourceStrategy;
    /** The request's warnings, which validation may add to. */
    readonly warnings: WarningSink;
  },
): ApiObject {
  const { desired, live, strategy } = u;
  const meta = desired.metadata;
  const liveMeta = live.metadata;
  if (meta.resourceVersion && meta.resourceVersion !== liveMeta.resourceVersion) {
    throw apiErrors.staleResourceVersion(rc.gr, liveMeta.name ?? '');
  }
  meta.resourceVersion = liveMeta.resourceVersion;
  desired.apiVersion = apiVersionOf(rc.def);
  desired.kind = rc.def.kind;
  // Fields the server owns: a client cannot change them through an update.
  meta.uid = liveMeta.uid;
  meta.creationTimestamp = liveMeta.creationTimestamp;
  if (liveMeta.deletionTimestamp) meta.deletionTimestamp = liveMeta.deletionTimestamp;
  else delete meta.deletionTimestamp;
  if (liveMeta.deletionGracePeriodSeconds !== undefined) {
    meta.deletionGracePeriodSeconds = liveMeta.deletionGracePeriodSeconds;
  } else delete meta.deletionGracePeriodSeconds;
  strategy.prepareForUpdate(desired, live);
  if (rc.def.hasGeneration) {
    const gen = typeof liveMeta.generation === 'number' ? liveMeta.generation : 1;
    const changed = strategy.generationChanged ? strategy.generationChanged(desired, live) : specChanged(desired, live);
    meta.generation = changed ? gen + 1 : gen;
  } else if (liveMeta.generation !== undefined) meta.generation = liveMeta.generation;
  else delete meta.generation;
  const errs = strategy.validateUpdate(desired, live, { warnings: u.warnings });
  if (errs.length > 0) throw apiErrors.invalid(validatedKind(rc), meta.name ?? '', errs);
  return desired;
}

/** Anything outside metadata and status differs. */
function specChanged(a: ApiObject, b: ApiObject): boolean {
  return !deepEqual(stripToComparable(a), stripToComparable(b));
}

function stripToComparable(o: ApiObject): unknown {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = o;
  return rest;
}
