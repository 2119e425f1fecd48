import { fieldErrors } from '../../apis/meta/field-error.js';
import { apiErrors, StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { apiVersionOf } from '../../apis/resource-definition.js';
import { cloneValue } from '../../apply/index.js';
import { KeyExistsError } from '../../storage/errors.js';
import { formatTime } from '../../util/clock.js';
import type { CreatedObject, CreateOptions, RequestContext } from '../types.js';
import { admitWrite, validateWrite } from './admission-calls.js';
import { generateName } from './names.js';
import { checkObjectIdentity } from './object-checks.js';
import { keyFor, type RegistryContext, validatedKind } from './registry-context.js';
import { toStatusError } from './storage-errors.js';
import { shownAfterWrite, storedForm } from './stored-conversion.js';
import { servedJsonOfStored } from './stored-json.js';
import { withFinish } from './write-hooks.js';

// kube retries a create with a generated name a few times when the name collides.
const GENERATE_NAME_ATTEMPTS = 8;

/**
 * Create: fill system fields, validate, then create-if-absent in the store. With a
 * `generateName` the name is regenerated on collision. A dry run stops before the store.
 */
export async function createObject(
  rc: RegistryContext,
  ctx: RequestContext,
  input: ApiObject,
  o: CreateOptions,
): Promise<ApiObject> {
  return (await createStored(rc, ctx, input, o, false)).obj;
}

/**
 * {@link createObject}, and the created object's response JSON made from the bytes written
 * (see `CreatedObject`) when they are the object as served.
 */
export function createObjectWithJson(
  rc: RegistryContext,
  ctx: RequestContext,
  input: ApiObject,
  o: CreateOptions,
): Promise<CreatedObject> {
  return createStored(rc, ctx, input, o, true);
}

/** A create; `withJson`: with the answer's JSON made from the bytes written. */
async function createStored(
  rc: RegistryContext,
  ctx: RequestContext,
  input: ApiObject,
  o: CreateOptions,
  withJson: boolean,
): Promise<CreatedObject> {
  const refused = rc.def.strategy.refuseCreate?.();
  if (refused !== undefined) {
    throw new StatusError(405, 'MethodNotAllowed', refused, { group: rc.def.group, kind: rc.def.resource });
  }
  // A copy of the input (which is only read), defaulted first, as kube defaults on decode: the
  // writer owns the defaults it got. The field manager takes the copy as its own. An input given
  // away needs no copy: it is equal to one, and nothing else reads it.
  const own = o.inputIsOwned ? input : cloneValue(input);
  rc.def.strategy.defaults?.(own, o.inputDefaultedBy);
  const obj =
    o.fieldManager === undefined
      ? own
      : rc.fields.fieldManager.update(undefined, own, o.fieldManager, { ...rc.fields.writeOptions(''), owned: true });
  checkObjectIdentity(rc, ctx, obj);
  const createOptions = { dryRun: o.dryRun ? ['All'] : undefined, fieldManager: o.fieldManager };
  await admitWrite(rc, ctx, {
    operation: 'CREATE',
    object: obj,
    oldObject: undefined,
    name: obj.metadata.name ?? '',
    dryRun: o.dryRun,
    options: createOptions,
  });
  const meta = obj.metadata;
  const wantsGeneratedName = !meta.name && !!meta.generateName;
  if (wantsGeneratedName) meta.name = generateName(meta.generateName!);
  fillCreateSystemFields(rc, obj);
  rc.def.strategy.prepareForCreate(obj, { user: ctx.user });
  const errs = rc.def.strategy.validateCreate(obj);
  if (errs.length > 0) throw apiErrors.invalid(validatedKind(rc), meta.name ?? '', errs);
  if (!meta.name) {
    throw apiErrors.invalid(validatedKind(rc), '', [
      fieldErrors.required('metadata.name', 'name or generateName is required'),
    ]);
  }
  // [write hooks] Allocations (Service cluster IPs, node ports) happen before validating admission.
  return withFinish(rc.hooks?.beginCreate?.(ctx, obj, { dryRun: o.dryRun }), async () => {
    await validateWrite(rc, ctx, {
      operation: 'CREATE',
      object: obj,
      oldObject: undefined,
      name: meta.name!,
      dryRun: o.dryRun,
      options: createOptions,
    });
    return storeCreated(rc, ctx, obj, { dryRun: o.dryRun, wantsGeneratedName, withJson });
  });
}

/** Writes a new object, regenerating a generated name on collision. */
async function storeCreated(
  rc: RegistryContext,
  ctx: RequestContext,
  obj: ApiObject,
  o: { readonly dryRun: boolean; readonly wantsGeneratedName: boolean; readonly withJson: boolean },
): Promise<CreatedObject> {
  const meta = obj.metadata;
  for (let attempt = 1; ; attempt++) {
    const key = keyFor(rc, ctx.namespace, meta.name ?? '');
    try {
      // [conversion] Converted to the storage version when that needs the webhook (dry runs
      // too); nothing is written when it fails. The answer is the written value shown again.
      const form = rc.codec.async ? await storedForm(rc, obj, ctx.signal) : undefined;
      if (o.dryRun) {
        const existing = await rc.store.get(key, { signal: ctx.signal });
        if (existing) throw new KeyExistsError(key);
        return { obj };
      }
      const value = form?.value ?? rc.codec.encode(obj);
      const { revision } = await rc.store.create(key, value, ctx.signal);
      meta.resourceVersion = revision.toString();
      if (form) return { obj: await shownAfterWrite(rc, form, revision, ctx.signal) };
      // The answer is what a read of the new object serves: the written bytes, when they are
      // the object in this version, with the resourceVersion written in (no second encoding).
      const json =
        !o.withJson || rc.codec.convertsOnRead
          ? undefined
          : servedJsonOfStored(value, revision, '\n', rc.codec.encodedMetadataEnd?.(value));
      return json ? { obj, json } : { obj };
    } catch (e) {
      if (e instanceof KeyExistsError && o.wantsGeneratedName && attempt < GENERATE_NAME_ATTEMPTS) {
        meta.name = generateName(meta.generateName!);
        continue;
      }
      throw toStatusError(e, rc.gr, meta.name ?? '');
    }
  }
}

/** System fields of a new object; whatever the client sent for them is replaced. */
export function fillCreateSystemFields(rc: RegistryContext, obj: ApiObject): void {
  const meta = obj.metadata;
  obj.apiVersion = apiVersionOf(rc.def);
  obj.kind = rc.def.kind;
  meta.uid = rc.uid();
  meta.creationTimestamp = formatTime(rc.clock.now());
  delete meta.resourceVersion;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  if (rc.def.hasGeneration) meta.generation = 1;
  else delete meta.generation;
}
