import { ORCH_DOMAIN } from '../apis/api-domain.js';
import { type Clock, systemClock } from '../util/clock.js';
import {
  type Authenticator,
  type AuthResult,
  NO_OPINION,
  type PeerCertificate,
  type RequestHead,
  type UserInfo,
} from './authenticator.js';

/** Extra key naming the credential a request authenticated with in the default profile (kube-apiserver's `authentication.kubernetes.io/credential-id`). */
export const CREDENTIAL_ID_KEY = ORCH_DOMAIN.credentialIdExtra;

export interface X509AuthenticatorOptions {
  /** Time source for the validity check; default the system clock. */
  readonly clock?: Clock;
  /** The user extra naming the credential (the API domain's); default the `orch.io` profile's. */
  readonly credentialIdExtra?: string;
}

/** Go's x509 error texts for the OpenSSL verification codes a client certificate can fail with. */
function describeVerifyError(code: string | undefined): string {
  switch (code) {
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'CERT_SIGNATURE_FAILURE':
      return 'x509: certificate signed by unknown authority';
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return 'x509: certificate has expired or is not yet valid';
    case 'INVALID_PURPOSE':
      return 'x509: certificate specifies an incompatible key usage';
    default:
      return `x509: ${code ?? 'certificate verification failed'}`;
  }
}

function certificateIdentifier(cert: PeerCertificate): string {
  let serial = cert.serialNumber;
  try {
    serial = BigInt(`0x${cert.serialNumber}`).toString(10);
  } catch {
    // keep the hex form
  }
  return `SN=${serial}`;
}

/**
 * Authenticates by TLS client certificate (`--client-ca-file`): user name = subject CN, groups = every subject
 * O, extra `authentication.orch.io/credential-id` = `X509SHA256=<hex fingerprint>`. Trusts the TLS layer's chain verification against the client CA bundle (`authorized`); a certificate
 * that failed it (foreign CA, expired at handshake, wrong key usage) is an `error`, and so is one that has
 * expired since the connection was established. No certificate, or one without a CN, is `no-opinion`.
 * `system:authenticated` is added by `authenticatedGroupAdder`, not here.
 */
export class X509Authenticator implements Authenticator {
  private readonly clock: Clock;
  private readonly credentialIdKey: string;
  /** The identity derived from a certificate never changes; the certificate object is cached per connection. */
  private readonly users = new WeakMap<PeerCertificate, AuthResult>();

  constructor(options: X509AuthenticatorOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.credentialIdKey = options.credentialIdExtra ?? CREDENTIAL_ID_KEY;
  }

  async authenticate(req: RequestHead): Promise<AuthResult> {
    const cert = req.peerCertificate;
    if (cert === undefined) return NO_OPINION;
    if (!cert.authorized) {
      return {
        kind: 'error',
        message: `verifying certificate ${certificateIdentifier(cert)} failed: ${describeVerifyError(cert.authorizationError)}`,
      };
    }
    const now = this.clock.now().getTime();
    if (now < cert.notBefore.getTime() || now > cert.notAfter.getTime()) {
      return {
        kind: 'error',
        message:
          `verifying certificate ${certificateIdentifier(cert)} failed: x509: certificate has expired or is not yet valid: ` +
          `current time ${new Date(now).toISOString()} is outside ${cert.notBefore.toISOString()} - ${cert.notAfter.toISOString()}`,
      };
    }
    let result = this.users.get(cert);
    if (result === undefined) {
      if (!cert.commonName) {
        result = NO_OPINION;
      } else {
        const credentialId = `X509SHA256=${cert.fingerprint256.replaceAll(':', '').toLowerCase()}`;
        const user: UserInfo = Object.freeze({
          name: cert.commonName,
          groups: cert.organizations,
          extra: Object.freeze({ [this.credentialIdKey]: Object.freeze([credentialId]) }),
        });
        result = Object.freeze({ kind: 'user' as const, user });
      }
      this.users.set(cert, result);
    }
    return result;
  }
}
