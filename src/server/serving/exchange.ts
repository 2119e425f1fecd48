import type { Readable } from 'node:stream';
import type { PeerCertificate, RequestHead, RequestHeaders } from '../../authn/authenticator.js';

/** Response header values; names must be lower-case and must not be hop-by-hop (connection, transfer-encoding, keep-alive, upgrade). */
export type ResponseHeaders = Readonly<Record<string, string | number | readonly string[]>>;

/** Negotiated application protocol. */
export type HttpProtocol = 'h2' | 'http/1.1';

/**
 * A response whose body is written incrementally (watch, chunked lists). Each `write` is handed to the
 * transport at once (HTTP/1.1 chunked encoding, HTTP/2 DATA frames), so the client sees it without waiting
 * for `end`.
 */
export interface ResponseStream {
  /** Queues a chunk. `false` means the transport buffer is full: await `drain()` before writing more. Ignored once closed. */
  write(chunk: Uint8Array | string): boolean;
  /** Resolves when the transport can take more data, or at once if the exchange has closed. */
  drain(): Promise<void>;
  /** Finishes the response normally. */
  end(chunk?: Uint8Array | string): void;
  /** Terminates the response abnormally: HTTP/1.1 destroys the connection, HTTP/2 resets the stream (INTERNAL_ERROR). */
  abort(): void;
  /** True once the response finished or the client went away. */
  readonly closed: boolean;
}

/**
 * One request/response pair, the same for HTTP/1.1 and HTTP/2. Exactly one of `respond` or `stream` must be
 * called. All methods are synchronous with respect to the transport and never throw for a vanished client
 * (writes to a closed exchange are dropped); they throw `ResponseStateError` on misuse.
 */
export interface HttpExchange extends RequestHead {
  readonly protocol: HttpProtocol;
  /** Upper-case method. */
  readonly method: string;
  /** Path and query as sent (`:path` for HTTP/2). */
  readonly url: string;
  /**
   * Lower-case header names. Repeated headers are joined with ", " (use `headerValues` for the unjoined list).
   * HTTP/2 pseudo-headers (`:method`, `:path`, `:authority`, `:scheme`) are present too; skip names starting with ':'.
   */
  readonly headers: RequestHeaders;
  headerValues(name: string): string[];
  /** The client certificate and the TLS layer's verification verdict; computed once per connection. */
  readonly peerCertificate: PeerCertificate | undefined;
  readonly remoteAddress: string | undefined;
  /** Raw request body stream. Consume it at most once, either directly or through `readBody`. */
  readonly body: Readable;
  /**
   * Reads the whole body into one buffer. Rejects with `RequestBodyTooLargeError` as soon as a declared
   * Content-Length or the bytes received exceed `limitBytes` (reading stops; the connection or stream is
   * closed after the response), and with `RequestAbortedError` if the client goes away first.
   */
  readBody(limitBytes: number): Promise<Buffer>;
  /** Sends a complete response; Content-Length is computed (HEAD, 204 and 304 carry no body). */
  respond(status: number, headers: ResponseHeaders, body?: Uint8Array | string): void;
  /** Sends the status and headers at once and returns the writer of a streamed body. */
  stream(status: number, headers: ResponseHeaders): ResponseStream;
  /** True once `respond` or `stream` was called. */
  readonly responded: boolean;
  /** True once the response completed or the client went away. */
  readonly closed: boolean;
  /**
   * Aborted when the client goes away (or the server force-closes the connection) before the response
   * completed. Created on first access (an AbortSignal costs about 2 µs), so read it only where needed.
   */
  readonly signal: AbortSignal;
}
