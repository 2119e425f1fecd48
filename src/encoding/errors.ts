/**
 * Typed errors of the encoding layer. Each carries kube-apiserver's exact message; the ones
 * that map one-to-one onto an HTTP answer offer `toStatusError()`.
 */
import { StatusError } from '../apis/meta/status.js';

/**
 * No media type in `Accept` can be served (HTTP 406). `supported` is the list kube prints:
 * every media type of the endpoint, or for a watch every streaming one.
 */
export class NotAcceptableError extends Error {
  constructor(
    readonly supported: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(`only the following media types are accepted: ${supported.join(', ')}`, options);
    this.name = 'NotAcceptableError';
  }

  /** The 406 `Status` kube answers with (no details). */
  toStatusError(): StatusError {
    return new StatusError(406, 'NotAcceptable', this.message, undefined, { cause: this });
  }
}

/** The request `Content-Type` names no decoder the endpoint has (HTTP 415). */
export class UnsupportedMediaTypeError extends Error {
  constructor(
    readonly contentType: string,
    readonly supported: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(
      `the body of the request was in an unknown format - accepted media types include: ${supported.join(', ')}`,
      options,
    );
    this.name = 'UnsupportedMediaTypeError';
  }

  /** The 415 `Status` kube answers with (no details). */
  toStatusError(): StatusError {
    return new StatusError(415, 'UnsupportedMediaType', this.message, undefined, { cause: this });
  }
}

/** A media type that Go's `mime.ParseMediaType` rejects; the message is Go's (`mime: ...`). */
export class MediaTypeParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MediaTypeParseError';
  }
}

/** Malformed JSON, worded like Go's `encoding/json` (`invalid character 'x' after object key`). */
export class JsonSyntaxError extends Error {
  /** UTF-16 offset in the text where the scanner stopped. */
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.name = 'JsonSyntaxError';
    this.offset = offset;
  }
}

/** Malformed YAML, worded like go-yaml v2 (`yaml: line 3: mapping values are not allowed ...`). */
export class YamlSyntaxError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'YamlSyntaxError';
  }
}

/**
 * Unknown or duplicate fields under `fieldValidation=Strict`. `errors` holds one text per
 * violation (`unknown field "spec.x"`, `duplicate field "a"`, or go-yaml's multi-line
 * duplicate-key report); the message is kube's `strict decoding error: e1, e2`.
 */
export class StrictDecodingError extends Error {
  constructor(readonly errors: readonly string[]) {
    super(`strict decoding error: ${errors.join(', ')}`);
    this.name = 'StrictDecodingError';
  }
}

/** A CBOR body kube's decoder would refuse; the message is fxamacker/cbor's (`cbor: ...`). */
export class CborDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CborDecodeError';
  }
}

/** A value with no CBOR form under kube's encoder options (NaN, infinities, functions...). */
export class CborEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CborEncodeError';
  }
}

/** A value with no JSON or YAML form (NaN, infinities, bigint, functions...). */
export class UnsupportedValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedValueError';
  }
}
