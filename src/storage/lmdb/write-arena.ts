/**
 * A bump allocator for the records of queued writes. Records live only until their batch
 * commits (lmdb copies them into the transaction), so carving them from shared chunks turns one
 * allocation per write into one per chunk, which keeps garbage collection off the write path.
 * Nothing that outlives a commit may keep a view into a region (watch events carry the caller's
 * value instead), or it would pin a whole chunk.
 */
export class WriteArena {
  private chunk: Buffer = Buffer.alloc(0);
  private used = 0;

  constructor(private readonly chunkBytes = 64 * 1024) {}

  /** A region of exactly `size` bytes; big regions get a buffer of their own. */
  take(size: number): Buffer {
    if (size > this.chunkBytes >> 2) return Buffer.allocUnsafeSlow(size);
    if (this.used + size > this.chunk.length) {
      this.chunk = Buffer.allocUnsafeSlow(this.chunkBytes);
      this.used = 0;
    }
    const region = this.chunk.subarray(this.used, this.used + size);
    // Keep regions 8-byte aligned.
    this.used += (size + 7) & ~7;
    return region;
  }
}
