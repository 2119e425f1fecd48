import { formatPortRange, nodePortStaticSize, type PortRange } from '../../../apis/core/service-ranges.js';
import type { Store } from '../../../storage/store.js';
import type { AllocationBitmap } from './allocation-bitmap.js';
import { AlreadyAllocatedError, NotInRangeError, RangeFullError } from './allocation-errors.js';
import { RangeAllocator } from './range-allocator.js';

/** A request for one service's node ports, handled in one write. */
export interface NodePortRequest {
  /** Ports asked for by number, in the order they should be checked. */
  readonly specific: readonly number[];
  /** How many more ports to pick. */
  readonly next: number;
}

/**
 * What a `NodePortRequest` got: the requested ports, then the picked ones. On failure, the index
 * in `specific` of the port that failed (absent when the range ran out) and why.
 */
export type NodePortOutcome =
  | { readonly ok: true; readonly allocated: readonly number[] }
  | { readonly ok: false; readonly index?: number; readonly error: Error };

/**
 * The node ports of `--service-node-port-range` (kube's port allocator), kept in the store as a
 * `RangeAllocation`. Dynamic allocation picks a random free port, preferring the upper part of
 * the range.
 */
export class NodePortAllocator {
  readonly allocator: RangeAllocator;
  readonly rangeText: string;

  constructor(o: {
    readonly store: Store;
    readonly key: string;
    readonly range: PortRange;
    readonly random?: () => number;
  }) {
    this.range = o.range;
    this.rangeText = formatPortRange(o.range);
    this.random = o.random ?? Math.random;
    this.allocator = new RangeAllocator({
      store: o.store,
      key: o.key,
      rangeSpec: this.rangeText,
      size: o.range.size,
      staticSize: nodePortStaticSize(o.range),
      resource: 'servicenodeportallocations',
    });
  }

  readonly range: PortRange;
  private readonly random: () => number;

  /** The offset of a port, or `NotInRangeError`. */
  offsetOf(port: number): number {
    const offset = port - this.range.base;
    if (offset < 0 || offset >= this.range.size) throw NotInRangeError.port(this.rangeText);
    return offset;
  }

  contains(port: number): boolean {
    return port - this.range.base >= 0 && port - this.range.base < this.range.size;
  }

  /**
   * Reserves the requested ports and `next` free ones in one write, or none of them. A failure
   * of a requested port gives its index (out of range, already allocated, or asked for twice);
   * running out is `RangeFullError` without one. AllocatorNotReadyError and storage errors are
   * thrown.
   */
  async allocateMany(request: NodePortRequest, signal?: AbortSignal): Promise<NodePortOutcome> {
    try {
      const allocated = await this.allocator.update((b) => {
        let bitmap: AllocationBitmap = b;
        const out: number[] = [];
        for (const [index, port] of request.specific.entries()) {
          let offset: number;
          try {
            offset = this.offsetOf(port);
          } catch (e) {
            throw new PortFailure(index, e as Error);
          }
          const next = bitmap.set(offset);
          if (!next) throw new PortFailure(index, new AlreadyAllocatedError('port'));
          bitmap = next;
          out.push(port);
        }
        for (let i = 0; i < request.next; i++) {
          const offset = bitmap.pickFree(this.random);
          if (offset === undefined) throw new PortFailure(undefined, new RangeFullError());
          bitmap = bitmap.set(offset)!;
          out.push(this.range.base + offset);
        }
        return { next: bitmap, result: out };
      }, signal);
      return { ok: true, allocated };
    } catch (e) {
      if (e instanceof PortFailure) return { ok: false, index: e.index, error: e.error };
      throw e;
    }
  }

  /** Frees ports; ones outside the range or not allocated are ignored. */
  async release(ports: readonly number[], signal?: AbortSignal): Promise<void> {
    const offsets = ports.filter((p) => this.contains(p)).map((p) => p - this.range.base);
    if (offsets.length === 0) return;
    await this.allocator.update(
      (b) => ({ next: offsets.reduce((acc, o) => acc.clear(o), b), result: undefined }),
      signal,
    );
  }

  /** Whether `port` is allocated now (read from the store). */
  async has(port: number, signal?: AbortSignal): Promise<boolean> {
    if (!this.contains(port)) return false;
    return (await this.allocator.read(signal)).has(port - this.range.base);
  }
}

/** A refusal inside an update, carried out of it with the port it concerns. */
class PortFailure extends Error {
  constructor(
    readonly index: number | undefined,
    readonly error: Error,
  ) {
    super(error.message);
  }
}
