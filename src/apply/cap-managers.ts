import { compareGoStrings } from '../util/go-strings.js';
import { type Managed, managerIdentifier } from './managed-fields.js';

/** kube's default cap on managed-fields entries of operation `Update`. */
export const DEFAULT_MAX_UPDATE_MANAGERS = 10;

/** The manager name of the bucket entries that absorb the oldest updaters. */
export const ANCIENT_CHANGES_MANAGER = 'ancient-changes';

function seconds(time: string | undefined): number {
  return time ? Math.floor(Date.parse(time) / 1000) : 0;
}

/**
 * Keeps at most `max` `Update` entries, as kube does after every update: while there are too
 * many, the oldest updaters (by time, then identifier) are merged, per API version, into an
 * `ancient-changes` entry, which takes the time of the last entry merged into it. The first
 * updater of a version seen becomes that version's bucket once a second one joins it.
 * Mutates `managed`.
 */
export function capUpdateManagers(managed: Managed, max: number): void {
  const updaters = [...managed.sets].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => seconds(managed.times.get(a)) - seconds(managed.times.get(b)) || compareGoStrings(a, b));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i];
    const vs = managed.sets.get(id)!;
    const time = managed.times.get(id);
    const bucket = managerIdentifier({
      manager: ANCIENT_CHANGES_MANAGER,
      operation: 'Update',
      apiVersion: vs.apiVersion,
      subresource: '',
    });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, id);
      continue;
    }
    if (!managed.sets.has(bucket)) {
      const s = managed.sets.get(first)!;
      managed.sets.delete(first);
      managed.sets.set(bucket, s);
    }
    const previous = managed.sets.get(bucket)!;
    managed.sets.set(bucket, { set: vs.set.union(previous.set), apiVersion: vs.apiVersion, applied: vs.applied });
    managed.sets.delete(id);
    length--;
    if (time) managed.times.set(bucket, time);
    else managed.times.delete(bucket);
  }
}
