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
    const chunks: Buffer[] = [];
    let total = 0;
    const cleanup = (): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > limitBytes) {
        cleanup();
        stream.pause();
        onOverflow();
        reject(new RequestBodyTooLargeError(limitBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0] : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, total));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(new RequestAbortedError({ cause: err }));
    };
    // 'close' before 'end' means the peer vanished mid-body.
    const onClose = (): void => {
      cleanup();
      reject(new RequestAbortedError());
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}
