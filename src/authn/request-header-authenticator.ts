import { type Clock, systemClock } from '../util/clock.js';
import { type Authenticator, type AuthResult, NO_OPINION, type RequestHead, type UserInfo } from './authenticator.js';
import { type TrustBundle, validityError } from './x509-chain.js';

export interface RequestHeaderOptions {
  /** `--requestheader-client-ca-file`: the CAs that must vouch for the proxy's client certificate. */
  readonly trust: TrustBundle;
  /** `--requestheader-allowed-names`: CNs the proxy certificate may have; empty = any. */
  readonly allowedNames: readonly string[];
  /** `--requestheader-username-headers`, in order; the first with a non-empty value names the user. */
  readonly usernameHeaders: readonly string[];
  /** `--requestheader-group-headers`: every non-empty value of each is a group. */
  readonly groupHeaders: readonly string[];
  /** `--requestheader-extra-headers-prefix`: `<prefix><key>: value` headers become user extras. */
  readonly extraHeaderPrefixes: readonly string[];
  readonly clock?: Clock;
}

/** `url.PathUnescape`: `%XX` decoded; a malformed key is kept as it is. */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/**
 * The authenticating proxy (kube-apiserver's request-header authenticator behind its x509
 * verifier). The identity headers count only on a connection whose client certificate chains to
 * `trust` (checked here, not by the TLS layer, which also accepts the client CAs), is currently
 * valid, and has a CN in `allowedNames` when that is non-empty; a certificate that fails is an
 * `error` (so the x509 authenticator, tried next, may still identify it as a user), and no
 * certificate is `no-opinion`. Then the user is the first non-empty value of the username headers
 * (none → `no-opinion`), the groups every non-empty value of the group headers, and each header
 * starting with an extra prefix (case-insensitive) adds its values under the rest of its name,
 * lower-cased and percent-decoded. No credential-id extra is added.
 */
export function requestHeaderAuthenticator(options: RequestHeaderOptions): Authenticator {
  const clock = options.clock ?? systemClock;
  const allowed = new Set(options.allowedNames);
  const prefixes = options.extraHeaderPrefixes.map((p) => p.toLowerCase());
  return {
    async authenticate(req: RequestHead): Promise<AuthResult> {
      const cert = req.peerCertificate;
      if (cert === undefined) return NO_OPINION;
      const now = clock.now().getTime();
      const problem =
        validityError(cert.notBefore.getTime(), cert.notAfter.getTime(), now) ??
        ((v) => (v.ok ? validityError(v.validFrom, v.validTo, now) : v.message))(options.trust.verifyPeer(cert));
      if (problem !== undefined) return { kind: 'error', message: problem };
      if (allowed.size > 0 && !allowed.has(cert.commonName ?? '')) {
        return { kind: 'error', message: `x509: subject with cn=${cert.commonName ?? ''} is not in the allowed list` };
      }
      let name = '';
      for (const h of options.usernameHeaders) {
        const first = req.headerValues(h)[0];
        if (first) {
          name = first;
          break;
        }
      }
      if (name === '') return NO_OPINION;
      const groups: string[] = [];
      for (const h of options.groupHeaders) for (const v of req.headerValues(h)) if (v !== '') groups.push(v);
      const extra: Record<string, string[]> = {};
      let hasExtra = false;
      if (prefixes.length > 0) {
        for (const prefix of prefixes) {
          for (const header of Object.keys(req.headers)) {
            const lower = header.toLowerCase();
            if (!lower.startsWith(prefix)) continue;
            const key = unescapeExtraKey(lower.slice(prefix.length));
            let list = extra[key];
            if (list === undefined) {
              list = [];
              extra[key] = list;
            }
            list.push(...req.headerValues(header));
            hasExtra = true;
          }
        }
      }
      const user: UserInfo = hasExtra ? { name, groups, extra } : { name, groups };
      return { kind: 'user', user };
    },
  } satisfies Authenticator;
}
