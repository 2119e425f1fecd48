import type { JsonObject } from '../apis/object.js';
import { formatTime } from '../util/clock.js';
import { compareGoStrings } from '../util/go-strings.js';
import { stringifyJson } from '../util/json-text.js';
import { FieldsV1Error, fromFieldsV1, type PathElementCache, toFieldsV1 } from './fieldpath/fields-v1.js';
import { goJsonString } from './fieldpath/go-text.js';
import type { VersionedSet } from './merge/updater.js';

/**
 * `metadata.managedFields` as kube-apiserver reads and writes it: one entry per manager identity
 * (name, operation, API version for updates, sub-resource), holding its field set and the time
 * of its last change.
 */

export type ManagedFieldsOperation = 'Apply' | 'Update';

/** Who a managed-fields entry belongs to. */
export interface ManagerInfo {
  readonly manager: string;
  readonly operation: ManagedFieldsOperation;
  /** Part of an updater's identity only: an applier keeps one entry across API versions. */
  readonly apiVersion: string;
  readonly subresource: string;
}

/** Decoded managed fields: sets and times keyed by manager identifier. */
export interface Managed {
  readonly sets: Map<string, VersionedSet>;
  /** RFC 3339 timestamps (UTC, seconds); an identifier without one has no time. */
  readonly times: Map<string, string>;
}

export function emptyManaged(): Managed {
  return { sets: new Map(), times: new Map() };
}

/** Why `metadata.managedFields` could not be read (kube's messages). */
export class ManagedFieldsDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManagedFieldsDecodeError';
  }
}

/**
 * kube's manager identifier: the JSON of the entry without `fieldsType`, `fieldsV1` and `time`,
 * and without `apiVersion` for `Apply` (Go field order, empty fields omitted), e.g.
 * `{"manager":"kubectl","operation":"Update","apiVersion":"v1"}`.
 */
export function managerIdentifier(info: ManagerInfo): string {
  let out = withMember('{', 'manager', info.manager);
  out = withMember(out, 'operation', info.operation);
  if (info.operation !== 'Apply') out = withMember(out, 'apiVersion', info.apiVersion);
  out = withMember(out, 'subresource', info.subresource);
  return `${out}}`;
}

/** `out` (an object's JSON so far, without its closing brace) with member `k` added when `v` is set. */
function withMember(out: string, k: string, v: string): string {
  return v ? `${out}${out.length > 1 ? ',' : ''}"${k}":${goJsonString(v, true)}` : out;
}

/** The identity a `managerIdentifier` encodes. */
export function parseManagerIdentifier(id: string): ManagerInfo {
  const o = JSON.parse(id) as Record<string, string | undefined>;
  return {
    manager: o.manager ?? '',
    operation: o.operation === 'Apply' ? 'Apply' : 'Update',
    apiVersion: o.apiVersion ?? '',
    subresource: o.subresource ?? '',
  };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** RFC 3339 in UTC with seconds, as `metav1.Time` re-serializes a parsed time. */
function normalizeTime(v: unknown): string | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) return undefined;
  return formatTime(new Date(ms));
}

/**
 * Reads `metadata.managedFields` (absent or null: no entries). A later entry with the same
 * identity replaces an earlier one, as kube's decoding does. Throws `ManagedFieldsDecodeError`.
 * `cache` (the caller's) saves re-parsing keys seen before.
 */
export function decodeManagedFields(entries: unknown, cache?: PathElementCache): Managed {
  const managed = emptyManaged();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new ManagedFieldsDecodeError('managedFields must be a list');
  entries.forEach((raw, i) => {
    const e = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const operation = str(e.operation);
    if (operation !== 'Apply' && operation !== 'Update') {
      throw new ManagedFieldsDecodeError('operation must be `Apply` or `Update`');
    }
    const apiVersion = str(e.apiVersion);
    if (apiVersion === '') throw new ManagedFieldsDecodeError('apiVersion must not be empty');
    const fieldsType = str(e.fieldsType);
    if (fieldsType === '') throw new ManagedFieldsDecodeError(`missing fieldsType in managed fields entry ${i}`);
    if (fieldsType !== 'FieldsV1') {
      throw new ManagedFieldsDecodeError(`invalid fieldsType ${goJsonString(fieldsType)} in managed fields entry ${i}`);
    }
    const info: ManagerInfo = { manager: str(e.manager), operation, apiVersion, subresource: str(e.subresource) };
    const id = managerIdentifier(info);
    let set: VersionedSet['set'];
    try {
      set = fromFieldsV1(e.fieldsV1, cache);
    } catch (err) {
      if (!(err instanceof FieldsV1Error)) throw err;
      throw new ManagedFieldsDecodeError(
        `error decoding versioned set from ${stringifyJson(raw)}: error decoding set: ${err.message}`,
      );
    }
    managed.sets.set(id, { set, apiVersion, applied: operation === 'Apply' });
    const time = normalizeTime(e.time);
    if (time) managed.times.set(id, time);
    else managed.times.delete(id);
  });
  return managed;
}

interface Encoded {
  readonly entry: JsonObject;
  readonly info: ManagerInfo;
  readonly seconds: number;
}

/**
 * Writes `metadata.managedFields`: entries sorted by operation (`Apply` first), time (oldest
 * first, none counting as the epoch), manager, API version and sub-resource; keys in kube's
 * order (`manager`, `operation`, `apiVersion`, `time`, `fieldsType`, `fieldsV1`, `subresource`).
 * Returns undefined when there is nothing to write (kube then omits the field).
 */
export function encodeManagedFields(managed: Managed): JsonObject[] | undefined {
  if (managed.sets.size === 0) return undefined;
  const encoded: Encoded[] = [];
  for (const [id, vs] of managed.sets) {
    const parsed = parseManagerIdentifier(id);
    const info: ManagerInfo = {
      ...parsed,
      operation: vs.applied ? 'Apply' : parsed.operation,
      apiVersion: vs.apiVersion,
    };
    const entry: JsonObject = {};
    if (info.manager) entry.manager = info.manager;
    entry.operation = info.operation;
    if (info.apiVersion) entry.apiVersion = info.apiVersion;
    const time = managed.times.get(id);
    if (time) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = toFieldsV1(vs.set);
    if (info.subresource) entry.subresource = info.subresource;
    encoded.push({ entry, info, seconds: time ? Math.floor(Date.parse(time) / 1000) : 0 });
  }
  encoded.sort(
    (p, q) =>
      compareGoStrings(p.info.operation, q.info.operation) ||
      p.seconds - q.seconds ||
      compareGoStrings(p.info.manager, q.info.manager) ||
      compareGoStrings(p.info.apiVersion, q.info.apiVersion) ||
      compareGoStrings(p.info.subresource, q.info.subresource),
  );
  return encoded.map((e) => e.entry);
}
