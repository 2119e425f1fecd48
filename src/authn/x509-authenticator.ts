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
import { type TrustBundle, validityError } from './x509-chain.js';

/** Extra key naming the credential a request authenticated with in the default profile (kube-apiserver's `authentication.kubernetes.io/credential-id`). */
export const CREDENTIAL_ID_KEY = ORCH_DOMAIN.credentialIdExtra;

export interface X509AuthenticatorOptions {
  /** Time source for the validity check; default the system clock. */
  readonly clock?: Clock;
  /** The user extra naming the credential (the API domain's); default the `orch.io` profile's. */
  readonly credentialIdExtra?: string;
  /**
   * The client CAs (`--client-ca-file`). When given, the chain is verified against these alone, so a
   * certificate the TLS layer accepted for another purpose (a request-header proxy's) is no user;
   * without it the TLS layer's verdict is trusted.
   */
  readonly trust?: TrustBundle;
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

function failed(cert: PeerCertificate, reason: string): AuthResult {
  return { kind: 'error', message: `verifying certificate ${certificateIdentifier(cert)} failed: ${reason}` };
}

/**
 * Authenticates by TLS client certificate (`--client-ca-file`): user name = subject CN, groups = every subject
 * O, extra `authentication.orch.io/credential-id` = `X509SHA256=<hex fingerprint>`. With `trust`, verifies
 * the presented chain against the client CAs itself; otherwise trusts the TLS layer's verification
 * (`authorized`). A certificate that fails (foreign CA, expired or not yet valid, wrong key usage) is
 * an `error`, and so is one that has expired since the connection was established. No certificate, or one without a CN, is `no-opinion`.
 * `system:authenticated` is added by `authenticatedGroupAdder`, not here.
 */
export class X509Authenticator implements Authenticator {
  private readonly clock: Clock;
  private readonly credentialIdKey: string;
  private readonly trust: TrustBundle | undefined;
  /** The identity derived from a certificate never changes; the certificate object is cached per connection. */
  private readonly users = new WeakMap<PeerCertificate, AuthResult>();

  constructor(options: X509AuthenticatorOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.credentialIdKey = options.credentialIdExtra ?? CREDENTIAL_ID_KEY;
    this.trust = options.trust;
  }

  authenticate(req: RequestHead): AuthResult {
    const cert = req.peerCertificate;
    if (cert === undefined) return NO_OPINION;
    const now = this.clock.now().getTime();
    if (this.trust !== undefined) {
      const leafProblem = validityError(cert.notBefore.getTime(), cert.notAfter.getTime(), now);
      if (leafProblem !== undefined) return failed(cert, leafProblem);
      const chain = this.trust.verifyPeer(cert);
      if (!chain.ok) return failed(cert, chain.message);
      const chainProblem = validityError(chain.validFrom, chain.validTo, now);
      if (chainProblem !== undefined) return failed(cert, chainProblem);
    } else {
      if (!cert.authorized) return failed(cert, describeVerifyError(cert.authorizationError));
      if (now < cert.notBefore.getTime() || now > cert.notAfter.getTime()) {
        return failed(
          cert,
          `x509: certificate has expired or is not yet valid: current time ${new Date(now).toISOString()} is outside ${cert.notBefore.toISOString()} - ${cert.notAfter.toISOString()}`,
        );
      }
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
