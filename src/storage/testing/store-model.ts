import assert from 'node:assert/strict';
import { compareGoStrings } from '../../util/go-strings.js';
import type { KeyValue, Store, StoreEvent } from '../store.js';
import { bytes, text } from './conformance-helpers.js';

/** A key-value as the suite compares it: text value, no corruption. */
export interface KvSummary {
  readonly key: string;
  readonly value: string;
  readonly createRevision: bigint;
  readonly modRevision: bigint;
}

/** A store event as the suite compares it; `kv` and `prev` are always present (maybe undefined). */
export interface EventSummary {
  readonly type: 'put' | 'delete';
  readonly key: string;
  readonly revision: bigint;
  readonly kv: KvSummary | undefined;
  readonly prev: KvSummary | undefined;
}

export function summarizeKv(kv: KeyValue | undefined): KvSummary | undefined {
  if (kv === undefined) return undefined;
  assert.equal(kv.corrupt, undefined, `unexpected corrupt item ${kv.key}: ${kv.corrupt?.message}`);
  return { key: kv.key, value: text(kv.value), createRevision: kv.createRevision, modRevision: kv.modRevision };
}

export function summarizeEvent(event: StoreEvent): EventSummary {
  return {
    type: event.type,
    key: event.key,
    revision: event.revision,
    kv: summarizeKv(event.kv),
    prev: summarizeKv(event.prev),
  };
}

export function describeEvent(event: StoreEvent): string {
  return `${event.type} ${event.key}@${event.revision}`;
}

/**
 * A reference model of what the store must contain: every write the test makes goes through it,
 * so expected values at any revision, snapshots and watch sequences follow from the write log.
 * Writes must be sequential (each awaited before the next); each write asserts that the store
 * returned a revision strictly greater than every earlier one.
 */
export class StoreModel {
  private readonly writes: EventSummary[] = [];

  constructor(private readonly store: Store) {}

  /** Revision of the newest write made through the model (0 when none). */
  get lastRevision(): bigint {
    return this.writes.at(-1)?.revision ?? 0n;
  }

  /** Every write made through the model, in revision order. */
  get log(): readonly EventSummary[] {
    return this.writes;
  }

  async create(key: string, value: string): Promise<bigint> {
    const { revision } = await this.store.create(key, bytes(value));
    this.record({
      type: 'put',
      key,
      revision,
      kv: { key, value, createRevision: revision, modRevision: revision },
      prev: undefined,
    });
    return revision;
  }

  /** Update `key`; `expected` defaults to the model's current modRevision (a fresh guard). */
  async update(key: string, value: string, expected: bigint | undefined | 'current' = 'current'): Promise<bigint> {
    const prev = this.at(key);
    assert.ok(prev, `model: update of absent key ${key}`);
    const guard = expected === 'current' ? prev.modRevision : expected;
    const { revision } = await this.store.update(key, bytes(value), guard);
    const kv = { key, value, createRevision: prev.createRevision, modRevision: revision };
    this.record({ type: 'put', key, revision, kv, prev });
    return revision;
  }

  async delete(key: string, expected: bigint | undefined | 'current' = 'current'): Promise<bigint> {
    const prev = this.at(key);
    assert.ok(prev, `model: delete of absent key ${key}`);
    const guard = expected === 'current' ? prev.modRevision : expected;
    const result = await this.store.delete(key, guard);
    assert.deepEqual(summarizeKv(result.prev), prev, `delete ${key}: DeleteResult.prev`);
    this.record({ type: 'delete', key, revision: result.revision, kv: undefined, prev });
    return result.revision;
  }

  /** The key as of `revision` (default: latest). */
  at(key: string, revision = this.lastRevision): KvSummary | undefined {
    let found: KvSummary | undefined;
    for (const w of this.writes) {
      if (w.revision > revision) break;
      if (w.key === key) found = w.kv;
    }
    return found;
  }

  /** Keys under `prefix` as of `revision` (default: latest), in ascending key order. */
  snapshot(prefix: string, revision = this.lastRevision): KvSummary[] {
    const live = new Map<string, KvSummary | undefined>();
    for (const w of this.writes) {
      if (w.revision > revision) break;
      if (w.key.startsWith(prefix)) live.set(w.key, w.kv);
    }
    return [...live.values()].filter((kv) => kv !== undefined).sort((a, b) => compareGoStrings(a.key, b.key));
  }

  /** The events a watch on `prefix` from `afterRevision` must deliver, in order. */
  eventsAfter(prefix: string, afterRevision: bigint): EventSummary[] {
    return this.writes.filter((w) => w.revision > afterRevision && w.key.startsWith(prefix));
  }

  private record(event: EventSummary): void {
    assert.ok(
      event.revision > this.lastRevision,
      `${event.type} ${event.key}: revision ${event.revision} does not exceed the previous write's ${this.lastRevision}`,
    );
    this.writes.push(event);
  }
}
