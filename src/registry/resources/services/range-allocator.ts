import { ConflictError, KeyExistsError, NotFoundError } from '../../../storage/errors.js';
import type { KeyValue, Store } from '../../../storage/store.js';
import { AllocationBitmap } from './allocation-bitmap.js';
import { AllocatorNotReadyError, RangeMismatchError } from './allocation-errors.js';

/** How one range is kept in the store. */
export interface RangeAllocatorOptions {
  readonly store: Store;
  /** Storage key of the range's state, e.g. `/registry/ranges/serviceips`. */
  readonly key: string;
  /** The range as stored beside its bitmap (`10.0.0.0/24`, `30000-32767`). */
  readonly rangeSpec: string;
  readonly size: number;
  readonly staticSize: number;
  /** Resource name in the not-ready message (`serviceipallocations`). */
  readonly resource: string;
}

/** The stored state of a range: kube's `RangeAllocation` (range and bitmap) with its revision. */
export interface RangeSnapshot {
  readonly rangeSpec: string;
  /** The bitmap bytes as stored (big-endian). */
  readonly data: Uint8Array;
  readonly modRevision: bigint;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Lost compare-and-swaps an update retries before giving up (each loss means another writer won). */
const MAX_ATTEMPTS = 64;

/** Encodes a range's state as kube's `RangeAllocation` object, in JSON. */
export function encodeRangeAllocation(rangeSpec: string, data: Uint8Array): Uint8Array {
  return encoder.encode(
    JSON.stringify({
      kind: 'RangeAllocation',
      apiVersion: 'v1',
      metadata: {},
      range: rangeSpec,
      data: Buffer.from(data).toString('base64'),
    }),
  );
}

/** Decodes a stored `RangeAllocation`; undefined when the value is not one. */
export function decodeRangeAllocation(kv: KeyValue): RangeSnapshot | undefined {
  if (kv.corrupt) return undefined;
  try {
    const obj = JSON.parse(decoder.decode(kv.value)) as { range?: unknown; data?: unknown };
    if (typeof obj.range !== 'string' || typeof obj.data !== 'string') return undefined;
    return {
      rangeSpec: obj.range,
      data: Uint8Array.from(Buffer.from(obj.data, 'base64')),
      modRevision: kv.modRevision,
    };
  } catch {
    return undefined;
  }
}

/**
 * One allocation range whose state lives in the store, so that every API server sharing the
 * store (several processes on one etcd) sees the same allocations: each change is a
 * compare-and-swap on the state's revision, retried against the fresher state when another
 * writer got there first. Within one process changes are applied one at a time (they would only
 * conflict with each other); the last state read is cached and only re-read after a lost race.
 *
 * The state must exist before values can be handed out (`AllocatorNotReadyError`): the repair
 * at start writes it from the stored services, so a lost or missing state never hands out a
 * value a service holds.
 */
export class RangeAllocator {
  private cached: KeyValue | undefined;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly options: RangeAllocatorOptions) {}

  get rangeSpec(): string {
    return this.options.rangeSpec;
  }

  /**
   * Applies `change` to the current bitmap and stores the bitmap it returns (nothing is written
   * when it returns the same bitmap or none). `change` may run several times (once per lost race)
   * and must be pure; what it throws ends the update and is rethrown.
   * @throws AllocatorNotReadyError, RangeMismatchError, or what `change` throws.
   */
  update<T>(
    change: (bitmap: AllocationBitmap) => { readonly next?: AllocationBitmap; readonly result: T },
    signal?: AbortSignal,
  ): Promise<T> {
    const run = this.tail.then(() => this.updateNow(change, signal));
    this.tail = run.catch(() => {});
    return run;
  }

  private async updateNow<T>(
    change: (bitmap: AllocationBitmap) => { readonly next?: AllocationBitmap; readonly result: T },
    signal?: AbortSignal,
  ): Promise<T> {
    const { store, key } = this.options;
    // A refusal computed from the cached state is checked again against the stored one: another
    // server may have released the value meanwhile.
    let fromCache = this.cached !== undefined;
    let kv = this.cached ?? (await store.get(key, { signal }));
    for (let attempt = 1; ; attempt++) {
      let outcome: { readonly next?: AllocationBitmap; readonly result: T };
      let bitmap: AllocationBitmap;
      try {
        bitmap = this.bitmapOf(kv);
        outcome = change(bitmap);
      } catch (e) {
        if (!fromCache) throw e;
        fromCache = false;
        kv = await store.get(key, { signal });
        this.cached = kv;
        continue;
      }
      const { next, result } = outcome;
      if (!next || next === bitmap) return result;
      const value = encodeRangeAllocation(this.options.rangeSpec, next.toBytes());
      try {
        const { revision } = await store.update(key, value, kv!.modRevision, signal);
        this.cached = { key, value, createRevision: kv!.createRevision, modRevision: revision };
        return result;
      } catch (e) {
        if (attempt >= MAX_ATTEMPTS) throw e;
        fromCache = false;
        if (e instanceof ConflictError) kv = e.current;
        else if (e instanceof NotFoundError) kv = undefined;
        else {
          this.cached = undefined;
          throw e;
        }
        this.cached = kv;
      }
    }
  }

  /** The current bitmap, read from the store. */
  async read(signal?: AbortSignal): Promise<AllocationBitmap> {
    const kv = await this.options.store.get(this.options.key, { signal });
    this.cached = kv;
    return this.bitmapOf(kv);
  }

  private bitmapOf(kv: KeyValue | undefined): AllocationBitmap {
    if (!kv) {
      this.cached = undefined;
      throw new AllocatorNotReadyError(this.options.resource);
    }
    const snap = decodeRangeAllocation(kv);
    if (!snap) throw new AllocatorNotReadyError(this.options.resource);
    if (snap.rangeSpec !== this.options.rangeSpec) throw new RangeMismatchError();
    return AllocationBitmap.fromBytes(this.options.size, this.options.staticSize, snap.data);
  }

  /** The stored state as it is (any range), for the repair; undefined when there is none. */
  async readSnapshot(signal?: AbortSignal): Promise<RangeSnapshot | undefined> {
    const kv = await this.options.store.get(this.options.key, { signal });
    if (!kv) return undefined;
    // An unreadable state is rewritten by the repair like a missing one, guarded by its revision.
    return decodeRangeAllocation(kv) ?? { rangeSpec: '', data: new Uint8Array(0), modRevision: kv.modRevision };
  }

  /**
   * Replaces the stored state with `bitmap` for this range, if it is still at `expected`'s
   * revision (or still absent when `expected` is undefined).
   * @returns false when another writer changed it meanwhile.
   */
  async replace(bitmap: AllocationBitmap, expected: RangeSnapshot | undefined, signal?: AbortSignal): Promise<boolean> {
    const value = encodeRangeAllocation(this.options.rangeSpec, bitmap.toBytes());
    const { store, key } = this.options;
    try {
      const { revision } = expected
        ? await store.update(key, value, expected.modRevision, signal)
        : await store.create(key, value, signal);
      this.cached = { key, value, createRevision: revision, modRevision: revision };
      return true;
    } catch (e) {
      if (e instanceof ConflictError || e instanceof KeyExistsError || e instanceof NotFoundError) {
        this.cached = undefined;
        return false;
      }
      throw e;
    }
  }

  /** An empty bitmap of this range's shape. */
  emptyBitmap(): AllocationBitmap {
    return AllocationBitmap.empty(this.options.size, this.options.staticSize);
  }

  /** A bitmap of this range's shape from stored bytes. */
  bitmapFromBytes(data: Uint8Array): AllocationBitmap {
    return AllocationBitmap.fromBytes(this.options.size, this.options.staticSize, data);
  }
}
