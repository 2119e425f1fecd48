/** Raised when certificate material cannot be loaded, generated or written; `cause` carries the underlying error. */
export class TlsConfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TlsConfigError';
  }
}
