export type ServingErrorCode = 'BodyTooLarge' | 'RequestAborted' | 'ResponseState' | 'StartFailed';

/** Base class of the errors the secure-serving layer raises; `code` discriminates. */
export abstract class ServingError extends Error {
  abstract readonly code: ServingErrorCode;
}

/**
 * The request body exceeds the limit given to `readBody` (declared by Content-Length or counted while
 * reading). Reading has stopped; the connection (HTTP/1.1) or stream (HTTP/2) is closed after the response,
 * as Go's MaxBytesReader does. Callers answer 413 RequestEntityTooLarge.
 */
export class RequestBodyTooLargeError extends ServingError {
  readonly code = 'BodyTooLarge' as const;
  constructor(readonly limitBytes: number) {
    super(`request body exceeds the limit of ${limitBytes} bytes`);
    this.name = 'RequestBodyTooLargeError';
  }
}

/** The client went away (or the stream failed) before the whole request body arrived. */
export class RequestAbortedError extends ServingError {
  readonly code = 'RequestAborted' as const;
  constructor(options?: { cause?: unknown }) {
    super('the client closed the request before its body was complete', options);
    this.name = 'RequestAbortedError';
  }
}

/** A handler used the exchange out of order, e.g. responded twice. A programming error. */
export class ResponseStateError extends ServingError {
  readonly code = 'ResponseState' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ResponseStateError';
  }
}

/** The server could not start listening (address in use, bad TLS material, ...). */
export class ServerStartError extends ServingError {
  readonly code = 'StartFailed' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServerStartError';
  }
}
