import { type CborDecodeOptions, decodeCbor, limitsOf } from './cbor-decode.js';
import { fail, Reader, wellFormed } from './cbor-wellformed.js';
import { CborDecodeError } from './errors.js';

/** The message of a data item cut off by the end of the input (more bytes may complete it). */
const UNEXPECTED_EOF = 'unexpected EOF';

/**
 * Splits an RFC 8742 CBOR sequence (`application/cbor-seq`, a CBOR watch stream) into its data
 * items as the bytes arrive, whatever the chunk boundaries, and decodes each as
 * {@link decodeCbor} does. Not safe for concurrent use; one reader per stream.
 */
export class CborSequenceReader {
  private pending: Uint8Array = new Uint8Array(0);
  private readonly limits: Required<CborDecodeOptions>;

  constructor(private readonly options: CborDecodeOptions = {}) {
    this.limits = limitsOf(options);
  }

  /** Bytes received but not yet returned as an item. */
  get buffered(): number {
    return this.pending.length;
  }

  /**
   * Adds a chunk and returns the items it completes, decoded. Throws `CborDecodeError` for an
   * item that is not well-formed or not accepted (kube's decoder options).
   */
  push(chunk: Uint8Array): unknown[] {
    if (chunk.length > 0) this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const items: unknown[] = [];
    let start = 0;
    while (start < this.pending.length) {
      const rest = this.pending.subarray(start);
      const r = new Reader(rest, this.limits);
      try {
        wellFormed(r, 0);
      } catch (e) {
        // An item cut off by the end of what arrived so far: wait for more bytes.
        if (e instanceof CborDecodeError && e.message === UNEXPECTED_EOF) break;
        throw e;
      }
      items.push(decodeCbor(rest.subarray(0, r.pos), this.options));
      start += r.pos;
    }
    this.pending = this.pending.subarray(start);
    return items;
  }

  /** Call at the end of the stream: throws `CborDecodeError` when an item was cut off. */
  finish(): void {
    if (this.pending.length > 0) throw fail(UNEXPECTED_EOF);
  }
}
