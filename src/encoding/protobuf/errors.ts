/**
 * Typed errors of the protobuf codec. Decode and encode errors carry the JSON field path of the
 * value being processed (`metadata.labels[app]`, `items[3].metadata.name`); the path is built
 * while the error travels outwards, so the success path pays nothing for it.
 */

/** What went wrong while decoding. */
export type ProtobufDecodeErrorReason =
  /** Empty input, or input without the `k8s\0` prefix. */
  | 'prefix'
  /** Input ends inside a varint, a length-delimited value or a fixed-size value. */
  | 'truncated'
  /** A field arrived with a wire type its schema does not allow. */
  | 'wire-type'
  /** Anything else that is not well-formed: varint overflow, illegal wire type, bad embedded JSON. */
  | 'malformed'
  /** The envelope names a different apiVersion/kind than the caller expected. */
  | 'kind-mismatch';

function withPath(detail: string, path: string): string {
  return path ? `${detail} (at ${path})` : detail;
}

/** Joins an outer path segment (`name`, `[3]`, `[key]`) in front of an inner path. */
function joinPath(segment: string, inner: string): string {
  if (!inner) return segment;
  return inner.startsWith('[') ? `${segment}${inner}` : `${segment}.${inner}`;
}

/** Malformed or unexpected protobuf input. `path` names the field being decoded ('' at the top). */
export class ProtobufDecodeError extends Error {
  path: string;
  constructor(
    readonly reason: ProtobufDecodeErrorReason,
    readonly detail: string,
    options?: { path?: string; cause?: unknown },
  ) {
    const path = options?.path ?? '';
    super(withPath(detail, path), options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProtobufDecodeError';
    this.path = path;
  }

  /** Prefixes the path with the enclosing field (a name, `[index]` or `[key]`); returns `this`. */
  within(segment: string): this {
    this.path = joinPath(segment, this.path);
    this.message = withPath(this.detail, this.path);
    return this;
  }
}

/** A JSON value that the schema's protobuf type cannot represent (wrong JSON type, bad timestamp). */
export class ProtobufEncodeError extends Error {
  path: string;
  constructor(
    readonly detail: string,
    options?: { path?: string; cause?: unknown },
  ) {
    const path = options?.path ?? '';
    super(withPath(detail, path), options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProtobufEncodeError';
    this.path = path;
  }

  /** Prefixes the path with the enclosing field; returns `this`. */
  within(segment: string): this {
    this.path = joinPath(segment, this.path);
    this.message = withPath(this.detail, this.path);
    return this;
  }
}

/** A schema shape that has no protobuf encoding (a programming error in a built-in schema). */
export class ProtobufSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufSchemaError';
  }
}

/** Adds `segment` to the path of codec errors passing through; other errors are left alone. */
export function annotate(err: unknown, segment: string): unknown {
  if (err instanceof ProtobufDecodeError || err instanceof ProtobufEncodeError) err.within(segment);
  return err;
}
