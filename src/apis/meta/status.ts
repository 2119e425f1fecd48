import { type FieldError, formatFieldError } from './field-error.js';

/** `metav1.Status` as served, with `meta.orch.io`-style group names in details. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export type StatusReason =
  | ''
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'ServerTimeout'
  | 'Timeout'
  | 'TooManyRequests'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'ServiceUnavailable';

/** Identifies the resource an error is about: group (empty for core) and plural resource name. */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

function qualified(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

/**
 * An API error that maps one-to-one onto a `Status` body. Every layer above storage throws
 * these (or lets the handler translate other errors into an InternalError).
 */
export class StatusError extends Error {
  readonly headers: Record<string, string>;
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(message, options);
    this.name = 'StatusError';
    this.headers = options?.headers ?? {};
  }

  toStatus(): Status {
    const s: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details) s.details = this.details;
    if (!this.reason) delete s.reason;
    return s;
  }
}

export function successStatus(details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details) s.details = details;
  return s;
}

/** Constructors for the errors kube-apiserver returns, with its message wording. */
export const apiErrors = {
  notFound(gr: GroupResource, name: string): StatusError {
    return new StatusError(404, 'NotFound', `${qualified(gr)} "${name}" not found`, {
      name,
      group: gr.group || undefined,
      kind: gr.resource,
    });
  },
  /** A path that names no served resource or document. */
  pathNotFound(): StatusError {
    return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {
      causes: [{ reason: 'UnexpectedServerResponse', message: '404 page not found' }],
    });
  },
  alreadyExists(gr: GroupResource, name: string): StatusError {
    return new StatusError(409, 'AlreadyExists', `${qualified(gr)} "${name}" already exists`, {
      name,
      group: gr.group || undefined,
      kind: gr.resource,
    });
  },
  conflict(gr: GroupResource, name: string, detail: string): StatusError {
    return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${detail}`, {
      name,
      group: gr.group || undefined,
      kind: gr.resource,
    });
  },
  /** The optimistic-concurrency conflict message clients match on. */
  staleResourceVersion(gr: GroupResource, name: string): StatusError {
    return apiErrors.conflict(
      gr,
      name,
      'the object has been modified; please apply your changes to the latest version and try again',
    );
  },
  invalid(kindGroup: { group: string; kind: string }, name: string, errs: readonly FieldError[]): StatusError {
    const qualifiedKind = kindGroup.group ? `${kindGroup.kind}.${kindGroup.group}` : kindGroup.kind;
    const joined = errs.map(formatFieldError);
    const msg = joined.length === 1 ? joined[0] : `[${joined.join(', ')}]`;
    return new StatusError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${msg}`, {
      name: name || undefined,
      group: kindGroup.group || undefined,
      kind: kindGroup.kind,
      causes: errs.map((e) => ({ reason: e.type, message: e.message, field: e.field })),
    });
  },
  badRequest(message: string, causes?: StatusCause[]): StatusError {
    return new StatusError(400, 'BadRequest', message, causes ? { causes } : undefined);
  },
  /** kube's NewForbidden: `forbidden: …` when no resource is named (non-resource requests). */
  forbidden(gr: GroupResource, name: string, reason: string): StatusError {
    if (!gr.resource && !gr.group && !name) {
      return new StatusError(403, 'Forbidden', `forbidden: ${reason}`, {});
    }
    const what = name ? `${qualified(gr)} "${name}"` : qualified(gr);
    return new StatusError(403, 'Forbidden', `${what} is forbidden: ${reason}`, {
      name: name || undefined,
      group: gr.group || undefined,
      kind: gr.resource,
    });
  },
  methodNotAllowed(method: string): StatusError {
    return new StatusError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`, {
      causes: [{ message: method }],
    });
  },
  gone(message: string): StatusError {
    return new StatusError(410, 'Gone', message);
  },
  expired(message: string): StatusError {
    return new StatusError(410, 'Expired', message);
  },
  notAcceptable(supported: readonly string[]): StatusError {
    return new StatusError(
      406,
      'NotAcceptable',
      `only the following media types are accepted: ${supported.join(', ')}`,
    );
  },
  unsupportedMediaType(contentType: string, supported: readonly string[]): StatusError {
    return new StatusError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${supported.join(', ')}`,
      { causes: [{ reason: 'UnexpectedServerResponse', message: contentType }] },
    );
  },
  requestEntityTooLarge(limitBytes: number): StatusError {
    return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limitBytes}`);
  },
  tooLargeResourceVersion(gr: GroupResource, retryAfterSeconds = 1): StatusError {
    return new StatusError(
      504,
      'Timeout',
      'Too large resource version',
      {
        group: gr.group || undefined,
        kind: gr.resource,
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds,
      },
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    );
  },
  internal(err: unknown): StatusError {
    const detail = err instanceof Error ? err.message : String(err);
    return new StatusError(
      500,
      'InternalError',
      `Internal error occurred: ${detail}`,
      {
        causes: [{ message: detail }],
      },
      { cause: err },
    );
  },
  serviceUnavailable(message: string): StatusError {
    return new StatusError(503, 'ServiceUnavailable', message);
  },
};
