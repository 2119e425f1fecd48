import type { ApiDomain } from '../apis/api-domain.js';
import type { StatusError } from '../apis/meta/status.js';
import type { RequestContext } from '../apis/request/request-context.js';
import type { RequestInfo } from '../apis/request/request-info.js';
import type { UserInfo } from '../apis/request/user-info.js';
import type { RequestHead } from '../authn/authenticator.js';
import type { RequestWarnings } from './request/request-warnings.js';

/**
 * A request as handlers and filters see it, independent of HTTP/1.1 or HTTP/2. The filters
 * complete it (request info, audit ID, user); handlers then work from the {@link RequestContext}
 * built from it ({@link requestContext}) and never read the transport.
 */
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
  info?: RequestInfo;
  /** Set by the authentication filter. */
  user?: UserInfo;
  /** Set by the audit filter: the client's `Audit-ID`, else generated. */
  auditId?: string;
  /** Warnings for the response's `Warning` headers, from every layer. */
  readonly warnings: RequestWarnings;
  /** Present while the request is audited: annotations later layers add to its audit events. */
  auditAnnotations?: Record<string, string>;
  /** Set by the resource handler for a deprecated API version (metrics and audit read it). */
  deprecatedApi?: { readonly removedRelease: string };
  /** The API domain profile of the server answering (names of groups and media types). */
  readonly domain: ApiDomain;
  /** What authenticators may read: headers and the client certificate, never the body. */
  readonly head: RequestHead;
}

/**
 * Response header names in lower case. Each response owns its header object: filters add to it
 * in place (never share one object between responses).
 */
export type ResponseHeaders = Record<string, string | string[]>;

/**
 * A body of known size made piece by piece while the transport sends it: a large list copies
 * its items' stored bytes into chunks of about a megabyte, each made once the transport took the
 * one before, instead of into one buffer of the whole list (100,000 objects: a 100 MB buffer,
 * and as much again in encrypted records, at once).
 */
export interface ChunkedBody {
  /** Total bytes, sent as Content-Length. */
  readonly size: number;
  /** Makes the chunks in order; each one is the caller's from then on. Call it at most once. */
  chunks(): Iterable<Uint8Array>;
}

/** A complete response body. */
export interface BodyResponse {
  readonly kind: 'body';
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly body: Buffer | string | ChunkedBody;
}

/** Whether a body is made in chunks. */
export function isChunkedBody(body: BodyResponse['body']): body is ChunkedBody {
  return typeof body === 'object' && !(body instanceof Uint8Array);
}

/** A body's size in bytes. */
export function bodySize(body: BodyResponse['body']): number {
  if (typeof body === 'string') return Buffer.byteLength(body);
  return isChunkedBody(body) ? body.size : body.length;
}

/**
 * A body as one buffer or string: a chunked body's chunks joined (for readers that need the
 * whole: audit's response object, the in-process test transport). Consumes a chunked body.
 */
export function bodyBytes(body: BodyResponse['body']): Buffer | string {
  if (!isChunkedBody(body)) return body;
  let out: Buffer | undefined;
  let at = 0;
  for (const chunk of body.chunks()) {
    // A body that fits one chunk is that chunk: nothing is copied.
    if (out === undefined && chunk.length === body.size)
      return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    out ??= Buffer.allocUnsafe(body.size);
    out.set(chunk, at);
    at += chunk.length;
  }
  if (out === undefined) return Buffer.alloc(0);
  return at === out.length ? out : out.subarray(0, at);
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

/**
 * Answers a request. A handler that can answer at once returns the response itself, without a
 * promise (a cached GET passes through every filter synchronously); one that waits returns a
 * promise. Callers handle both (`res instanceof Promise`) and must expect a synchronous throw
 * as well as a rejection.
 */
export type Handler = (req: ApiRequest) => ApiResponse | Promise<ApiResponse>;
export type Filter = (next: Handler) => Handler;

/** Builds a handler from filters, outermost first. */
export function chain(filters: readonly Filter[], handler: Handler): Handler {
  return filters.reduceRight<Handler>((next, f) => f(next), handler);
}

/**
 * The request context of a request that passed the filters, for a resource whose registry works
 * in `namespace` (empty for cluster-scoped resources and requests across namespaces).
 */
export function requestContext(req: ApiRequest, namespace: string): RequestContext {
  const info = req.info;
  const user = req.user;
  if (!info || !user) throw new Error('request context needs the request-info and authentication filters');
  return new ApiRequestContext(info, namespace, user, req);
}

/**
 * A request context for a read that neither keeps nor copies its context (the watch cache's
 * answer to a GET, `ResourceStore.getEncoded`): the same fields as {@link requestContext}'s,
 * but its `signal` is an accessor of the prototype instead of an own property, whose definition
 * costs a cached GET about as much as the cache read. A spread copy of it would not carry the
 * signal: hand it only to such reads.
 */
export function readContext(req: ApiRequest, namespace: string): RequestContext {
  const info = req.info;
  const user = req.user;
  if (!info || !user) throw new Error('request context needs the request-info and authentication filters');
  return new ReadContext(info, namespace, user, req);
}

class ReadContext implements RequestContext {
  /** The subclass's own `signal` (see ApiRequestContext), reading this class's request. */
  protected static readonly ownSignal: PropertyDescriptor = {
    enumerable: true,
    get(this: ReadContext): AbortSignal {
      return this.#req.signal;
    },
  };

  readonly info: RequestInfo;
  readonly namespace: string;
  readonly user: UserInfo;
  readonly auditId: string;
  readonly warnings: RequestWarnings;
  readonly #req: ApiRequest;

  constructor(info: RequestInfo, namespace: string, user: UserInfo, req: ApiRequest) {
    this.info = info;
    this.namespace = namespace;
    this.user = user;
    this.auditId = req.auditId ?? '';
    this.warnings = req.warnings;
    this.#req = req;
  }

  get signal(): AbortSignal {
    return this.#req.signal;
  }
}

/**
 * The context of a request that passed the filters. Its `signal` is read lazily (a per-request
 * AbortSignal costs more than serving a cached GET) through an own, enumerable accessor that every
 * context shares: copies (`{ ...ctx, namespace }`) still carry the signal, and the object keeps V8's
 * fast properties, which a literal with a getter of its own does not (about 1 µs per request).
 */
class ApiRequestContext extends ReadContext {
  constructor(info: RequestInfo, namespace: string, user: UserInfo, req: ApiRequest) {
    super(info, namespace, user, req);
    Object.defineProperty(this, 'signal', ReadContext.ownSignal);
  }
}

export type { StatusError };
