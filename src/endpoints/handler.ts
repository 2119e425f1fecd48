import type { StatusError } from '../apis/meta/status.js';
import type { RequestHead } from '../authn/authenticator.js';

/** The identity a request carries after authentication. */
export interface RequestUser {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** Where a request points, as parsed from its path and method. */
export interface RequestInfoLike {
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly verb: string;
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /**
   * Path segments from the resource on (`[resource, name, subresource, ...]`): a `name` with no
   * segment of its own came from a list or watch's `metadata.name` field selector.
   */
  readonly parts?: readonly string[];
}

/** A request as handlers and filters see it, independent of HTTP/1.1 or HTTP/2. */
export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Aborted when the client goes away or the request times out. */
  readonly signal: AbortSignal;
  /** Reads the whole body; rejects with a 413 StatusError past `limitBytes`. */
  readBody(limitBytes: number): Promise<Buffer>;
  /** Set by the request-info filter. */
  info?: RequestInfoLike;
  /** Set by the authentication filter. */
  user?: RequestUser;
  /** What authenticators may read: headers and the client certificate, never the body. */
  readonly head: RequestHead;
}

export type ResponseHeaders = Record<string, string | string[]>;

/** A complete response body. */
export interface BodyResponse {
  readonly kind: 'body';
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly body: Buffer | string;
}

/**
 * Writes one chunk of a streamed response: undefined when the transport took it, else a promise
 * that settles once the transport can take more (wait for it before writing again).
 */
export type StreamWrite = (chunk: Buffer | string) => Promise<void> | undefined;

/** A streamed response (watch): `pump` writes chunks until it resolves or `signal` aborts. */
export interface StreamResponse {
  readonly kind: 'stream';
  readonly status: number;
  readonly headers: ResponseHeaders;
  pump(write: StreamWrite, signal: AbortSignal): Promise<void>;
}

export type ApiResponse = BodyResponse | StreamResponse;

export type Handler = (req: ApiRequest) => Promise<ApiResponse>;
export type Filter = (next: Handler) => Handler;

/** Builds a handler from filters, outermost first. */
export function chain(filters: readonly Filter[], handler: Handler): Handler {
  return filters.reduceRight<Handler>((next, f) => f(next), handler);
}

export type { StatusError };
