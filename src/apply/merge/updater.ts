import { compareGoStrings } from '../../util/go-strings.js';
import { FieldSet } from '../fieldpath/field-set.js';
import type { Path } from '../fieldpath/path-element.js';
import { type Comparison, compareTyped, valueEquals } from '../typed/compare.js';
import { ItemKeys } from '../typed/list-items.js';
import { reconcileWithSchema, ensureNamedFieldsAreMembers as withNamed } from '../typed/schema-sets.js';
import { fieldSetOf } from '../typed/to-field-set.js';
import type { TypeNode } from '../typed/type-node.js';
import { mergeTyped } from './merge.js';
import { removeItems } from './remove.js';

/** The fields one manager owns, with the API version they were written in. */
export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  /** Whether the manager's last write was an apply. */
  readonly applied: boolean;
}

/** Managers' sets keyed by manager identifier (see `managerIdentifier`). */
export type ManagerSets = ReadonlyMap<string, VersionedSet>;

/** One field an apply would change although another manager owns it. */
export interface SetConflict {
  /** The owner's manager identifier. */
  readonly manager: string;
  readonly path: Path;
}

/** An apply changes fields other managers own; ordered by manager identifier, then path. */
export class ConflictsError extends Error {
  constructor(readonly conflicts: readonly SetConflict[]) {
    super(`${conflicts.length} conflict(s)`);
    this.name = 'ConflictsError';
  }
}

/**
 * structured-merge-diff's `merge.Updater` for one schema (every API version shares it): tracks
 * ownership through updates and merges applies, pruning what an applier stopped applying.
 * Values are decoded JSON objects that have passed `validateTyped`; nothing is mutated.
 */
export class Updater {
  /**
   * @param type the object's type
   * @param resetFields fields (with everything below them) the strategy resets on this
   *   endpoint, e.g. `.status` on the main resource: nobody gains or loses them here
   */
  constructor(
    private readonly type: TypeNode,
    private readonly resetFields: FieldSet = FieldSet.EMPTY,
  ) {}

  /**
   * Records a non-apply write: `manager` gains every field that changed, and loses the ones
   * removed; other managers lose what changed or was removed. Never conflicts.
   */
  update(
    live: unknown,
    next: unknown,
    version: string,
    managers: ManagerSets,
    manager: string,
  ): Map<string, VersionedSet> {
    const { managers: out, compare } = this.track(live, next, this.reconcile(managers), manager, true, new ItemKeys());
    const previous = out.get(manager)?.set ?? FieldSet.EMPTY;
    const set = previous
      .difference(compare.removed)
      .union(compare.modified)
      .union(compare.added)
      .recursiveDifference(this.resetFields);
    if (set.empty) out.delete(manager);
    else out.set(manager, { set, apiVersion: version, applied: false });
    return out;
  }

  /**
   * Merges `config` into `live` for `manager`: its set becomes exactly the configuration's fields;
   * fields it applied last time but not now are removed unless another manager owns them; fields
   * the merge changes that other managers own are conflicts (thrown as `ConflictsError`) unless
   * `force`, which takes them over. `object` is undefined when the apply changes nothing.
   */
  apply(
    live: unknown,
    config: unknown,
    opts: {
      readonly version: string;
      readonly managers: ManagerSets;
      readonly manager: string;
      readonly force: boolean;
    },
  ): { object: unknown; managers: Map<string, VersionedSet> } {
    const keys = new ItemKeys();
    const managers = this.reconcile(opts.managers);
    const merged = mergeTyped(live, config, this.type, keys);
    const lastSet = managers.get(opts.manager)?.set;
    const set = fieldSetOf(config, this.type, keys).recursiveDifference(this.resetFields);
    managers.set(opts.manager, { set, apiVersion: opts.version, applied: true });
    const next = this.prune(merged, managers, lastSet, keys);
    const tracked = this.track(live, next, managers, opts.manager, opts.force, keys).managers;
    return { object: valueEquals(live, next) ? undefined : next, managers: tracked };
  }

  private reconcile(managers: ManagerSets): Map<string, VersionedSet> {
    const out = new Map<string, VersionedSet>();
    for (const [m, vs] of managers) {
      const set = reconcileWithSchema(vs.set, this.type);
      out.set(m, set === vs.set ? vs : { ...vs, set });
    }
    return out;
  }

  /** Other managers lose what changed (conflicts unless `force`) and what was removed. */
  private track(
    oldObject: unknown,
    newObject: unknown,
    managers: Map<string, VersionedSet>,
    workflow: string,
    force: boolean,
    keys: ItemKeys,
  ): { managers: Map<string, VersionedSet>; compare: Comparison } {
    const raw = compareTyped(oldObject, newObject, this.type, keys);
    const compare: Comparison = {
      added: raw.added.recursiveDifference(this.resetFields),
      modified: raw.modified.recursiveDifference(this.resetFields),
      removed: raw.removed.recursiveDifference(this.resetFields),
    };
    const changed = compare.modified.union(compare.added);
    const conflicts = new Map<string, FieldSet>();
    for (const [m, vs] of managers) {
      if (m === workflow) continue;
      const c = vs.set.intersection(changed);
      if (!c.empty) conflicts.set(m, c);
    }
    if (!force && conflicts.size > 0) {
      const list: SetConflict[] = [];
      for (const m of [...conflicts.keys()].sort(compareGoStrings)) {
        for (const path of conflicts.get(m)!.paths()) list.push({ manager: m, path });
      }
      throw new ConflictsError(list);
    }
    const out = new Map<string, VersionedSet>();
    for (const [m, vs] of managers) {
      if (m === workflow) {
        if (!vs.set.empty) out.set(m, vs);
        continue;
      }
      const set = vs.set.difference(conflicts.get(m) ?? FieldSet.EMPTY).difference(compare.removed);
      if (!set.empty) out.set(m, set === vs.set ? vs : { ...vs, set });
    }
    return { managers: out, compare };
  }

  /**
   * Removes what the applier owned last time and no longer applies, unless another manager (or
   * the new configuration) owns it: structured-merge-diff's prune, add-back-owned and
   * add-back-dangling passes.
   */
  private prune(
    merged: unknown,
    managers: Map<string, VersionedSet>,
    lastSet: FieldSet | undefined,
    keys: ItemKeys,
  ): unknown {
    if (!lastSet || lastSet.empty) return merged;
    const t = this.type;
    const last = withNamed(lastSet, t);
    let pruned = removeItems(merged, last, t, keys);
    let managed = FieldSet.EMPTY;
    for (const vs of managers.values()) managed = managed.union(vs.set);
    const mergedSet = withNamed(fieldSetOf(merged, t, keys), t);
    let prunedSet = withNamed(fieldSetOf(pruned, t, keys), t);
    pruned = removeItems(merged, mergedSet.difference(prunedSet.union(withNamed(managed, t))), t, keys);
    prunedSet = withNamed(fieldSetOf(pruned, t, keys), t);
    // A container emptied here stays as null, as in kube: a null the applier applies (and owns) is
    // part of its result. The registry later drops nulls of non-nullable fields, as kube does.
    return removeItems(merged, mergedSet.difference(prunedSet).intersection(last), t, keys);
  }
}
