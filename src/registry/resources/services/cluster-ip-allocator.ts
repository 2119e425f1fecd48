import type { IpNetwork } from '../../../apis/core/ip-address.js';
import { formatIP, type IpAddress, type IpFamily, networkFamily, parseIP } from '../../../apis/core/ip-address.js';
import { addressAt, offsetInRange, type ServiceIPRange, serviceIPRange } from '../../../apis/core/service-ranges.js';
import type { Store } from '../../../storage/store.js';
import { AlreadyAllocatedError, NotInRangeError, RangeFullError } from './allocation-errors.js';
import { RangeAllocator } from './range-allocator.js';

/**
 * The cluster IPs of one family (kube's bitmap IP allocator): addresses of the service range,
 * kept in the store as a `RangeAllocation`. Dynamic allocation picks a random free address,
 * preferring the upper part of the range (the lower part is left for requested addresses).
 */
export class ClusterIPAllocator {
  readonly range: ServiceIPRange;
  readonly family: IpFamily;
  readonly allocator: RangeAllocator;

  constructor(o: {
    readonly store: Store;
    readonly key: string;
    readonly network: IpNetwork;
    /** Values in [0, 1); default `Math.random`. */
    readonly random?: () => number;
  }) {
    this.range = serviceIPRange(o.network);
    this.family = networkFamily(o.network);
    this.random = o.random ?? Math.random;
    this.allocator = new RangeAllocator({
      store: o.store,
      key: o.key,
      rangeSpec: this.range.spec,
      size: this.range.size,
      staticSize: this.range.staticSize,
      resource: 'serviceipallocations',
    });
  }

  private readonly random: () => number;

  /** The offset of an address, or `NotInRangeError` (kube's message naming the range). */
  offsetOf(ip: string): number {
    const parsed = parseIP(ip);
    const offset = parsed ? offsetInRange(this.range, parsed) : undefined;
    if (offset === undefined) throw NotInRangeError.ip(parsed ? formatIP(parsed) : ip, this.range.spec);
    return offset;
  }

  addressAt(offset: number): IpAddress {
    return addressAt(this.range, offset);
  }

  /** Reserves `ip`. @throws NotInRangeError, AlreadyAllocatedError, AllocatorNotReadyError. */
  async allocate(ip: string, signal?: AbortSignal): Promise<void> {
    const offset = this.offsetOf(ip);
    await this.allocator.update((b) => {
      const next = b.set(offset);
      if (!next) throw new AlreadyAllocatedError('IP');
      return { next, result: undefined };
    }, signal);
  }

  /** Reserves a free address. @throws RangeFullError, AllocatorNotReadyError. */
  allocateNext(signal?: AbortSignal): Promise<string> {
    return this.allocator.update((b) => {
      const offset = b.pickFree(this.random);
      if (offset === undefined) throw new RangeFullError();
      return { next: b.set(offset), result: formatIP(this.addressAt(offset)) };
    }, signal);
  }

  /** Frees addresses; ones outside the range or not allocated are ignored. */
  async release(ips: readonly string[], signal?: AbortSignal): Promise<void> {
    const offsets = ips.flatMap((ip) => {
      const parsed = parseIP(ip);
      const offset = parsed ? offsetInRange(this.range, parsed) : undefined;
      return offset === undefined ? [] : [offset];
    });
    if (offsets.length === 0) return;
    await this.allocator.update(
      (b) => ({ next: offsets.reduce((acc, o) => acc.clear(o), b), result: undefined }),
      signal,
    );
  }

  /** Whether `ip` is allocated now (read from the store). */
  async has(ip: string, signal?: AbortSignal): Promise<boolean> {
    const parsed = parseIP(ip);
    const offset = parsed ? offsetInRange(this.range, parsed) : undefined;
    if (offset === undefined) return false;
    return (await this.allocator.read(signal)).has(offset);
  }
}
