/**
 * The state of one allocation range (kube's `AllocationBitmap`): bit `i` set means offset `i`
 * is taken. Offsets below `staticSize` form the static band, which dynamic allocation uses only
 * once the rest is full, so values users request explicitly (usually low ones) rarely collide
 * with allocated ones (kube's ServiceIPStaticSubrange / ServiceNodePortStaticSubrange).
 *
 * Values are immutable: operations return a new bitmap.
 */
export class AllocationBitmap {
  private constructor(
    /** Number of allocatable offsets, `[0, size)`. */
    readonly size: number,
    /** Offsets `[0, staticSize)` are the static band. */
    readonly staticSize: number,
    /** Bit `i` is bit `i % 8` of byte `i >> 3`. Never mutated once the bitmap is built. */
    private readonly bits: Uint8Array,
    /** Number of set bits. */
    readonly count: number,
  ) {}

  static empty(size: number, staticSize: number): AllocationBitmap {
    return new AllocationBitmap(size, Math.min(staticSize, size), new Uint8Array(Math.ceil(size / 8)), 0);
  }

  /**
   * A bitmap from its stored bytes (the bits as one big-endian number, as Go's `big.Int.Bytes()`
   * writes kube's snapshots). Bits at or beyond `size` are dropped (a range that shrank).
   */
  static fromBytes(size: number, staticSize: number, bytes: Uint8Array): AllocationBitmap {
    const bits = new Uint8Array(Math.ceil(size / 8));
    let count = 0;
    for (let i = 0; i < bytes.length; i++) {
      // The last stored byte holds bits 0-7.
      const byteIndex = bytes.length - 1 - i;
      for (let b = 0; b < 8; b++) {
        const offset = byteIndex * 8 + b;
        if (offset >= size) break;
        if ((bytes[i] >> b) & 1) {
          bits[offset >> 3] |= 1 << (offset & 7);
          count++;
        }
      }
    }
    return new AllocationBitmap(size, Math.min(staticSize, size), bits, count);
  }

  /** The stored form: big-endian, without leading zero bytes. */
  toBytes(): Uint8Array {
    let last = this.bits.length - 1;
    while (last >= 0 && this.bits[last] === 0) last--;
    const out = new Uint8Array(last + 1);
    for (let i = 0; i <= last; i++) out[last - i] = this.bits[i];
    return out;
  }

  get free(): number {
    return this.size - this.count;
  }

  has(offset: number): boolean {
    return offset >= 0 && offset < this.size && ((this.bits[offset >> 3] >> (offset & 7)) & 1) === 1;
  }

  /** The bitmap with `offset` set; `undefined` when it was set already. */
  set(offset: number): AllocationBitmap | undefined {
    if (offset < 0 || offset >= this.size) throw new RangeError(`offset ${offset} outside [0, ${this.size})`);
    if (this.has(offset)) return undefined;
    const bits = this.bits.slice();
    bits[offset >> 3] |= 1 << (offset & 7);
    return new AllocationBitmap(this.size, this.staticSize, bits, this.count + 1);
  }

  /** The bitmap with `offset` clear (itself when it was clear or out of range). */
  clear(offset: number): AllocationBitmap {
    if (!this.has(offset)) return this;
    const bits = this.bits.slice();
    bits[offset >> 3] &= ~(1 << (offset & 7));
    return new AllocationBitmap(this.size, this.staticSize, bits, this.count - 1);
  }

  /** Every set offset, ascending. */
  offsets(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.size; i++) if (this.has(i)) out.push(i);
    return out;
  }

  /**
   * A free offset chosen as kube's random scan with offset does: a random start in the dynamic
   * band `[staticSize, size)` scanning forward (wrapping within the band), then the same in the
   * static band. `random` returns values in [0, 1). Undefined when the range is full.
   */
  pickFree(random: () => number): number | undefined {
    if (this.count >= this.size) return undefined;
    const bands: [number, number][] = [
      [this.staticSize, this.size],
      [0, this.staticSize],
    ];
    for (const [lo, hi] of bands) {
      const span = hi - lo;
      if (span <= 0) continue;
      const start = Math.floor(random() * span) % span;
      for (let i = 0; i < span; i++) {
        const at = lo + ((start + i) % span);
        if (!this.has(at)) return at;
      }
    }
    return undefined;
  }
}
