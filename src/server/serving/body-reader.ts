import type { Readable } from 'node:stream';
import { RequestAbortedError, RequestBodyTooLargeError } from './errors.js';

const EMPTY = Buffer.alloc(0);

/** Parses a Content-Length header; undefined when absent or malformed (the parser rejects malformed ones anyway). */
export function declaredLength(value: string | string[] | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Collects `stream` into one buffer of at most `limitBytes`.
 * - `knownEmpty`: the transport knows no body follows (no Content-Length/Transfer-Encoding, END_STREAM on HEADERS).
 * - On overflow, listeners are removed and the stream is paused so no further bytes are buffered; `onOverflow`
 *   lets the caller arrange for the connection or stream to close after its response.
 */
export function readBodyLimited(
  stream: Readable,
  limitBytes: number,
  declared: number | undefined,
  knownEmpty: boolean,
  onOverflow: () => void,
): Promise<Buffer> {
  if (declared !== undefined && declared > limitBytes) {
    onOverflow();
    return Promise.reject(new RequestBodyTooLargeError(limitBytes));
  }
  if (knownEmpty || declared === 0) return Promise.resolve(EMPTY);
  if (stream.readableEnded) return Promise.resolve(EMPTY);
  if (stream.destroyed) return Promise.reject(new RequestAbortedError());
  return new Promise<Buffer>((resolve, reject) => {
    new BodyCollector(stream, limitBytes, onOverflow, resolve, reject).listen();
  });
}

/**
 * One body being read. Its listeners are methods bound once, not closures: the server bundle
 * keeps function names (esbuild's `keepNames`), and a named closure made per request costs a
 * property definition on each function made.
 */
class BodyCollector {
  private readonly chunks: Buffer[] = [];
  private total = 0;

  constructor(
    private readonly stream: Readable,
    private readonly limitBytes: number,
    private readonly onOverflow: () => void,
    private readonly resolve: (body: Buffer) => void,
    private readonly reject: (err: Error) => void,
  ) {
    this.onData = this.onData.bind(this);
    this.onEnd = this.onEnd.bind(this);
    this.onError = this.onError.bind(this);
    this.onClose = this.onClose.bind(this);
  }

  listen(): void {
    this.stream.on('data', this.onData);
    this.stream.on('end', this.onEnd);
    this.stream.on('error', this.onError);
    this.stream.on('close', this.onClose);
  }

  private cleanup(): void {
    this.stream.off('data', this.onData);
    this.stream.off('end', this.onEnd);
    this.stream.off('error', this.onError);
    this.stream.off('close', this.onClose);
  }

  private onData(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.total > this.limitBytes) {
      this.cleanup();
      this.stream.pause();
      this.onOverflow();
      this.reject(new RequestBodyTooLargeError(this.limitBytes));
      return;
    }
    this.chunks.push(chunk);
  }

  private onEnd(): void {
    this.cleanup();
    const chunks = this.chunks;
    this.resolve(chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, this.total));
  }

  private onError(err: Error): void {
    this.cleanup();
    this.reject(new RequestAbortedError({ cause: err }));
  }

  /** 'close' before 'end' means the peer vanished mid-body. */
  private onClose(): void {
    this.cleanup();
    this.reject(new RequestAbortedError());
  }
}
