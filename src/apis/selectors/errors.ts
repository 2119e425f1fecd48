/**
 * Typed errors of the selector libraries. Every one carries the message kube-apiserver puts in
 * the `400 BadRequest` Status it answers with, so the request layer can pass `message` through.
 */

/** Base of every selector error: the caller answers 400 BadRequest with `message`. */
export abstract class SelectorError extends Error {}

/** A label or field selector that does not parse, or a requirement kube would reject. */
export class SelectorParseError extends SelectorError {
  override readonly name = 'SelectorParseError';
  constructor(
    /** Which grammar rejected the text. */
    readonly selector: 'label' | 'field',
    message: string,
  ) {
    super(message);
  }
}

/**
 * A field selector naming a field the kind does not support. The message depends on the kind:
 * kinds with their own field label conversion answer `field label not supported: <label>`,
 * the others `"<label>" is not a known field selector: only "metadata.name", "metadata.namespace"`.
 */
export class UnsupportedFieldLabelError extends SelectorError {
  override readonly name = 'UnsupportedFieldLabelError';
  constructor(
    readonly label: string,
    message: string,
  ) {
    super(message);
  }
}
