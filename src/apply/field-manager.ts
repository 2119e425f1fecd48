import type { ApiObject, JsonObject } from '../apis/object.js';
import type { Schema } from '../apis/schema/schema.js';
import { type Clock, formatTime, systemClock } from '../util/clock.js';
import { capUpdateManagers, DEFAULT_MAX_UPDATE_MANAGERS } from './cap-managers.js';
import { ApplyConflictError, applyConflicts, FieldManagerError } from './errors.js';
import { FieldSet } from './fieldpath/field-set.js';
import { PathElementCache } from './fieldpath/fields-v1.js';
import { fieldElement } from './fieldpath/path-element.js';
import {
  allowedConflictsFromLastApplied,
  buildLastApplied,
  hasLastApplied,
  KUBECTL_MANAGER,
  setLastApplied,
} from './last-applied.js';
import {
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  type Managed,
  ManagedFieldsDecodeError,
  managerIdentifier,
} from './managed-fields.js';
import { ConflictsError, Updater } from './merge/updater.js';
import { cloneValue, gvkString, isResetManagedFields, objectRef, stripManagedFields } from './object-helpers.js';
import { CreatedLevels, createdFields } from './typed/created-fields.js';
import { isObject } from './typed/list-items.js';
import { TypeCompiler, type TypeNode } from './typed/type-node.js';
import { formatValidationErrors, validateTyped } from './typed/validate.js';

/** Tracks field ownership (`metadata.managedFields`) on writes and merges server-side applies. */
export interface FieldManager {
  /**
   * A non-apply write (create when `live` is undefined, update, patch): returns a copy of `next`
   * (sharing nothing with it; `next` is only read, unless `opts.owned`) with
   * `metadata.managedFields` recomputed;
   * `manager` gains what changed. Never conflicts and never
   * throws for object content: when ownership cannot be computed the result carries no
   * managedFields, as kube's `UpdateNoErrors` does.
   */
  update(live: ApiObject | undefined, next: ApiObject, manager: string, opts?: WriteOptions): ApiObject;
  /**
   * A server-side apply of `config` by `manager` onto `live` (undefined: create). Returns the
   * merged object with managedFields. Throws `ApplyConflictError` (409) when the apply changes
   * fields other managers own and `force` is false, `FieldManagerError` (400/500) otherwise.
   */
  apply(
    live: ApiObject | undefined,
    config: ApiObject,
    manager: string,
    force: boolean,
    opts?: WriteOptions,
  ): ApiObject;
  /**
   * The JSON text of a `fieldsV1` this field manager gave a create and shares between creates
   * (frozen, so the text stays right), for encoders that copy it instead of serializing the
   * object; undefined for any other value.
   */
  createdFieldsJson(fieldsV1: unknown): string | undefined;
}

/** Per-request options. */
export interface WriteOptions {
  /** The sub-resource written through (`status`, …); empty or absent for the main resource. */
  readonly subresource?: string;
  /**
   * The strategy's reset fields for this endpoint (kube's `GetResetFields`), e.g. `.status` on
   * the main resource of a kind with a status sub-resource: they are removed, with everything
   * below them, from every set computed here.
   */
  readonly resetFields?: FieldSet;
  /**
   * `next` was made for this write and nothing else holds it: the result may be built from it
   * instead of a copy (a create's defaulted copy of the request's object).
   */
  readonly owned?: boolean;
}

export interface FieldManagerConfig {
  /** The kind's structural schema (the whole object). */
  readonly schema: Schema;
  /** The served group version, e.g. `v1`, `coordination.orch.io/v1`. */
  readonly apiVersion: string;
  readonly kind: string;
  /** Source of managedFields `time` (RFC 3339, seconds). */
  readonly clock?: Clock;
  /** Most `Update` entries kept before the oldest merge into `ancient-changes` (kube: 10). */
  readonly maxUpdateManagers?: number;
  /**
   * The kind's zero object (kube's `New()`), the "before" of a create and of the
   * `before-first-apply` update; default `{apiVersion, kind, metadata: {}}`. A kind whose Go type
   * has non-pointer struct fields (`spec`, `status`) would return them as `{}` here.
   */
  readonly newObject?: () => ApiObject;
  /**
   * Whether a write whose `metadata.managedFields` is an empty list resets ownership. kube v1.32
   * does; the specification says it does not (only `[{}]` resets), which is the default.
   */
  readonly emptyListResets?: boolean;
}

const BEFORE_FIRST_APPLY = 'before-first-apply';
/** A temporary identifier that no JSON manager identifier can equal. */
const CURRENT_OPERATION = 'current-operation';

/** Fields kube never records in anyone's set (its strip-meta manager). */
const STRIPPED_METADATA = [
  'name',
  'namespace',
  'creationTimestamp',
  'selfLink',
  'uid',
  'clusterName',
  'generation',
  'managedFields',
  'resourceVersion',
];
const STRIPPED_METADATA_FIELDS: ReadonlySet<string> = new Set(STRIPPED_METADATA);
const STRIPPED = FieldSet.fromPaths(
  [['apiVersion'], ['kind'], ['metadata'], ...STRIPPED_METADATA.map((f) => ['metadata', f])].map((p) =>
    p.map(fieldElement),
  ),
);

/** Creates the field manager of one resource (one schema, one served version). */
export function createFieldManager(config: FieldManagerConfig): FieldManager {
  return new SchemaFieldManager(config);
}

class SchemaFieldManager implements FieldManager {
  private readonly type: TypeNode;
  private readonly clock: Clock;
  private readonly maxUpdateManagers: number;
  private readonly keys = new PathElementCache();
  /** The `fieldsV1` levels creates were given, shared by later creates of the same shape. */
  private readonly createdLevels = new CreatedLevels();
  readonly createdFieldsJson = (fieldsV1: unknown): string | undefined => this.createdLevels.json(fieldsV1);
  /** The last time written, by its second: writes come many a second, and formatting costs. */
  private lastTime = { second: Number.NaN, text: '' };

  constructor(private readonly config: FieldManagerConfig) {
    this.type = new TypeCompiler().compile(config.schema);
    this.clock = config.clock ?? systemClock;
    this.maxUpdateManagers = config.maxUpdateManagers ?? DEFAULT_MAX_UPDATE_MANAGERS;
  }

  update(live: ApiObject | undefined, next: ApiObject, manager: string, opts: WriteOptions = {}): ApiObject {
    if (live === undefined && !opts.subresource && next.metadata?.managedFields === undefined) {
      const created = this.created(next, manager, opts);
      if (created) return created;
    }
    const out = cloneValue(stripManagedFields(next));
    const { managed, reset } = this.decodeLiveOrNew(live, next, Boolean(opts.subresource));
    // kube stops tracking an existing object whose managedFields are empty, until the next apply.
    // A reset request (the specification's rule) is tracked, so its writer owns what it changed.
    if (managed.sets.size === 0 && !reset && live?.metadata?.uid) return out;
    const tracked = this.trackUpdate(live ?? this.newObject(), out, managed, manager, opts);
    return withManagedFields(out, tracked);
  }

  apply(
    live: ApiObject | undefined,
    config: ApiObject,
    manager: string,
    force: boolean,
    opts: WriteOptions = {},
  ): ApiObject {
    const liveObj = live ?? this.newObject();
    let managed: Managed;
    try {
      managed = decodeManagedFields(liveObj.metadata?.managedFields, this.keys);
    } catch (e) {
      if (!(e instanceof ManagedFieldsDecodeError)) throw e;
      throw new FieldManagerError(500, `failed to decode managed fields: ${e.message}`, { cause: e });
    }
    if (config.apiVersion !== this.config.apiVersion || config.kind !== this.config.kind) {
      throw new FieldManagerError(400, `invalid object type: ${gvkString(config)}`);
    }
    let result: { object: ApiObject; managed: Managed };
    try {
      result = this.applyTracked(liveObj, config, managed, manager, force, opts);
    } catch (e) {
      if (!(e instanceof ConflictsError) || manager !== KUBECTL_MANAGER) throw toApplyError(e);
      // kubectl moving from client-side apply: conflicts on fields its last-applied annotation
      // already declared with the live value are taken over.
      const allowed = allowedConflictsFromLastApplied(liveObj, { type: this.type, apiVersion: this.config.apiVersion });
      if (!allowed) throw toApplyError(e);
      const remaining = e.conflicts.filter((c) => !allowed.has(c.path));
      if (remaining.length > 0) throw toApplyError(new ConflictsError(remaining));
      result = this.applyTracked(liveObj, config, managed, manager, true, opts);
    }
    const out = withManagedFields(result.object, result.managed);
    if (manager === KUBECTL_MANAGER && hasLastApplied(out)) setLastApplied(out, buildLastApplied(config));
    return out;
  }

  /** kube's skip-non-applied, managed-fields-updater and strip-meta layers around the merge. */
  private applyTracked(
    liveObj: ApiObject,
    config: ApiObject,
    managed: Managed,
    manager: string,
    force: boolean,
    opts: WriteOptions,
  ): { object: ApiObject; managed: Managed } {
    let current = managed;
    if (current.sets.size === 0) {
      // An object nobody owns yet: whatever it holds belongs to "before-first-apply".
      current = this.trackUpdate(this.newObject(), liveObj, current, BEFORE_FIRST_APPLY, opts);
    }
    if (isObject(config.metadata) && config.metadata.managedFields != null) {
      throw new FieldManagerError(400, 'metadata.managedFields must be nil');
    }
    const errs = validateTyped(config, this.type);
    if (errs.length > 0) {
      throw new FieldManagerError(
        500,
        `failed to create typed patch object (${objectRef(config)}; ${gvkString(config)}): ${formatValidationErrors(errs)}`,
      );
    }
    const id = managerIdentifier({
      manager,
      operation: 'Apply',
      apiVersion: this.config.apiVersion,
      subresource: opts.subresource ?? '',
    });
    const liveValue = stripManagedFields(liveObj);
    const updater = new Updater(this.type, opts.resetFields);
    const applied = updater.apply(liveValue, stripManagedFields(config), {
      version: this.config.apiVersion,
      managers: current.sets,
      manager: id,
      force,
    });
    const sets = applied.managers;
    stripMeta(sets, id);
    const times = new Map(current.times);
    if (applied.object !== undefined) times.set(id, this.now());
    const object = cloneValue((applied.object ?? liveValue) as ApiObject);
    return { object, managed: { sets, times } };
  }

  /** kube's cap-managers, build-manager-info, managed-fields-updater and strip-meta layers. */
  private trackUpdate(
    liveObj: ApiObject,
    newObj: ApiObject,
    managed: Managed,
    manager: string,
    opts: WriteOptions,
  ): Managed {
    const id = managerIdentifier({
      manager: manager || 'unknown',
      operation: 'Update',
      apiVersion: this.config.apiVersion,
      subresource: opts.subresource ?? '',
    });
    const updater = new Updater(this.type, opts.resetFields);
    const sets = updater.update(
      stripManagedFields(liveObj),
      stripManagedFields(newObj),
      this.config.apiVersion,
      managed.sets,
      CURRENT_OPERATION,
    );
    stripMeta(sets, CURRENT_OPERATION);
    const times = new Map(managed.times);
    const current = sets.get(CURRENT_OPERATION);
    if (current) {
      sets.delete(CURRENT_OPERATION);
      const previous = sets.get(id);
      sets.set(id, previous ? { ...current, set: current.set.union(previous.set) } : current);
      times.set(id, this.now());
    }
    const out: Managed = { sets, times };
    capUpdateManagers(out, this.maxUpdateManagers);
    return out;
  }

  /**
   * A create that brings no managedFields: the writer owns what `createdFields` finds in one walk
   * (the general path gives the same entry). Undefined when that walk cannot decide.
   */
  private created(next: ApiObject, manager: string, opts: WriteOptions): ApiObject | undefined {
    const out = opts.owned ? next : cloneValue(next);
    const zero = this.newObject() as Record<string, unknown>;
    const created = createdFields(out, zero, this.type, opts.resetFields, STRIPPED_METADATA_FIELDS, this.createdLevels);
    if (!created) return undefined;
    const metadata: ApiObject['metadata'] = { ...out.metadata };
    if (created.fieldsV1) {
      const entry: JsonObject = {};
      entry.manager = manager || 'unknown';
      entry.operation = 'Update';
      if (this.config.apiVersion) entry.apiVersion = this.config.apiVersion;
      entry.time = this.now();
      entry.fieldsType = 'FieldsV1';
      entry.fieldsV1 = created.fieldsV1;
      metadata.managedFields = [entry];
    }
    return { ...out, metadata };
  }

  private decodeLiveOrNew(
    live: ApiObject | undefined,
    next: ApiObject,
    isSubresource: boolean,
  ): { managed: Managed; reset: boolean } {
    // Sub-resources cannot write managedFields: the live entries stay authoritative.
    if (isSubresource) return { managed: this.decodeOrEmpty(live?.metadata?.managedFields), reset: false };
    const requested = next.metadata?.managedFields as unknown;
    if (isResetManagedFields(requested, this.config.emptyListResets === true)) {
      return { managed: emptyManaged(), reset: true };
    }
    const fromNext = this.decodeOrEmpty(requested);
    // A client unaware of managedFields (absent, or unreadable) must not erase them.
    const managed = fromNext.sets.size > 0 ? fromNext : this.decodeOrEmpty(live?.metadata?.managedFields);
    return { managed, reset: false };
  }

  private decodeOrEmpty(entries: unknown): Managed {
    try {
      return decodeManagedFields(entries, this.keys);
    } catch (e) {
      if (e instanceof ManagedFieldsDecodeError) return emptyManaged();
      throw e;
    }
  }

  /** The clock's time as a managedFields entry holds it (whole seconds). */
  private now(): string {
    const d = this.clock.now();
    const second = Math.floor(d.getTime() / 1000);
    if (second !== this.lastTime.second) this.lastTime = { second, text: formatTime(d) };
    return this.lastTime.text;
  }

  private newObject(): ApiObject {
    return this.config.newObject?.() ?? { apiVersion: this.config.apiVersion, kind: this.config.kind, metadata: {} };
  }
}

function stripMeta(sets: Map<string, { set: FieldSet; apiVersion: string; applied: boolean }>, id: string): void {
  const vs = sets.get(id);
  if (!vs) return;
  const set = vs.set.difference(STRIPPED);
  if (set.empty) sets.delete(id);
  else sets.set(id, { ...vs, set });
}

function withManagedFields(obj: ApiObject, managed: Managed): ApiObject {
  const encoded = encodeManagedFields(managed);
  const metadata = { ...obj.metadata };
  if (encoded) metadata.managedFields = encoded as JsonObject[];
  else delete metadata.managedFields;
  return { ...obj, metadata };
}

function toApplyError(e: unknown): unknown {
  return e instanceof ConflictsError ? new ApplyConflictError(applyConflicts(e.conflicts)) : e;
}
