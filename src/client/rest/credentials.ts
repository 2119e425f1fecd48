/** Credentials a request is sent with; PEM strings. Never logged, never in errors. */
export interface ClientCredentials {
  /** Bearer token. */
  readonly token?: string;
  /** Client certificate (with optional intermediates) and its private key; both or neither. */
  readonly cert?: string;
  readonly key?: string;
}

/**
 * Where a client's credentials come from when they can change while the client runs (an exec
 * credential plugin). {@link RestClient} asks before every request and rebuilds its TLS agent
 * when the certificate or key differs from the one it connected with.
 */
export interface CredentialSource {
  /** The credentials to send now (cached by the source until they expire). */
  current(): Promise<ClientCredentials>;
  /**
   * The server answered 401 to a request sent with `used`: the source fetches new credentials
   * unless it already has since. The client then sends the request once more.
   */
  unauthorized(used: ClientCredentials): Promise<void>;
}
