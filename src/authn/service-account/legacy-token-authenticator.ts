import { timingSafeEqual } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import type { ApiDomain } from '../../apis/api-domain.js';
import type { ApiObject } from '../../apis/object.js';
import { type Clock, systemClock } from '../../util/clock.js';
import { goQuote } from '../../util/go-strconv.js';
import type { Logger } from '../../util/logger.js';
import type { UserInfo } from '../authenticator.js';
import type { ObjectReader, ResourceRef } from '../object-reader.js';
import {
  TOKEN_NO_OPINION,
  type TokenAuthenticator,
  type TokenAuthResult,
  type TokenRequestContext,
} from '../token-authenticator.js';
import { unverifiedIssuer, verifyTokenSignature } from './service-account-authenticator.js';
import type { VerificationKey } from './service-account-keys.js';
import { legacyClaimNames } from './token-signer.js';

const SECRETS: ResourceRef = { group: '', version: 'v1', resource: 'secrets' };
const SERVICE_ACCOUNTS: ResourceRef = { group: '', version: 'v1', resource: 'serviceaccounts' };
const INVALIDATED = 'Token has been invalidated';

/** Writes labels of Secrets (kube-apiserver's secrets writer for legacy token tracking). */
export interface SecretLabelWriter {
  /** Adds `labels` to the Secret `namespace/name` if it still has `uid` (a merge patch). */
  setLabels(
    namespace: string,
    name: string,
    uid: string,
    labels: Readonly<Record<string, string>>,
    signal: AbortSignal,
  ): Promise<void>;
}

export interface LegacyTokenAuthenticatorOptions {
  /** Every public key a token may be signed with (`--service-account-key-file`). */
  readonly keys: readonly VerificationKey[];
  /** The server's own audiences: a legacy token carries none, so it is valid for these. */
  readonly implicitAudiences: readonly string[];
  /** `--service-account-lookup`: the Secret must still hold the token and the account exist. */
  readonly lookup: boolean;
  readonly objects: ObjectReader;
  /** Names the issuer, the claims and the invalid-since label. */
  readonly domain: ApiDomain;
  /**
   * Records the day a token was used in its Secret's `legacy-token-last-used` label (with lookup
   * only); without it nothing is recorded.
   */
  readonly secretLabels?: SecretLabelWriter;
  readonly clock?: Clock;
  /** Where a failed label write is reported. */
  readonly logger?: Logger;
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function secretData(secret: ApiObject, key: string): Buffer {
  const data = secret.data;
  const v = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0);
}

/**
 * kube-apiserver's authenticator of legacy Secret-based service-account tokens (those kube's
 * token controller writes into `<domain>/service-account-token` Secrets): a JWS whose unverified
 * `iss` is `ApiDomain.legacyServiceAccountIssuer` (else `no-opinion`), signed by one of the keys,
 * with `sub` `system:serviceaccount:<ns>:<name>` matching the private claims. With lookup the
 * Secret must exist, not be deleting, hold this very token (constant-time compare) and not carry
 * the `legacy-token-invalid-since` label, and the account must exist with the claimed uid and not
 * be deleting. The token has no audience: it is valid for the server's own audiences.
 * The last-used label kube-apiserver writes is not written here.
 */
export class LegacyServiceAccountTokenAuthenticator implements TokenAuthenticator {
  constructor(private readonly options: LegacyTokenAuthenticatorOptions) {}

  async authenticateToken(token: string, ctx: TokenRequestContext): Promise<TokenAuthResult> {
    if (unverifiedIssuer(token) !== this.options.domain.legacyServiceAccountIssuer) return TOKEN_NO_OPINION;
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return TOKEN_NO_OPINION;
    }
    const claims = await verifyTokenSignature(token, kid, this.options.keys);
    if (typeof claims === 'string') return { kind: 'error', message: claims };
    const implicit = this.options.implicitAudiences;
    const requested = ctx.audiences.length > 0 ? ctx.audiences : implicit;
    const audiences = implicit.filter((a, i) => requested.includes(a) && implicit.indexOf(a) === i);
    if (audiences.length === 0 && implicit.length > 0) {
      return {
        kind: 'error',
        message: `token audiences ${goQuoteList(implicit)} is invalid for the target audiences ${goQuoteList(requested)}`,
      };
    }
    try {
      const user = await this.validate(token, claims, ctx);
      return typeof user === 'string' ? { kind: 'error', message: user } : { kind: 'user', user, audiences };
    } catch (e) {
      return { kind: 'error', message: e instanceof Error ? e.message : String(e) };
    }
  }

  private async validate(
    token: string,
    claims: Record<string, unknown>,
    ctx: TokenRequestContext,
  ): Promise<UserInfo | string> {
    const n = legacyClaimNames(this.options.domain.serviceAccountClaim);
    const sub = str(claims.sub);
    const namespace = str(claims[n.namespace]);
    const secretName = str(claims[n.secretName]);
    const saName = str(claims[n.serviceAccountName]);
    const saUid = str(claims[n.serviceAccountUid]);
    if (sub === '') return 'sub claim is missing';
    if (namespace === '') return 'namespace claim is missing';
    if (secretName === '') return 'secretName claim is missing';
    if (saName === '') return 'serviceAccountName claim is missing';
    if (saUid === '') return 'serviceAccountUID claim is missing';
    if (sub !== `system:serviceaccount:${namespace}:${saName}`) return 'sub claim is invalid';
    if (this.options.lookup) {
      const secret = await this.options.objects.get(SECRETS, namespace, secretName, ctx.signal);
      if (!secret || secret.metadata.deletionTimestamp) return INVALIDATED;
      const stored = secretData(secret, 'token');
      const given = Buffer.from(token, 'utf8');
      if (stored.length !== given.length || !timingSafeEqual(stored, given))
        return "Token does not match server's copy";
      const sa = await this.options.objects.get(SERVICE_ACCOUNTS, namespace, saName, ctx.signal);
      if (!sa) return `serviceaccounts "${saName}" not found`;
      if (sa.metadata.deletionTimestamp) return `ServiceAccount ${namespace}/${saName} has been deleted`;
      if ((sa.metadata.uid ?? '') !== saUid) {
        return `ServiceAccount UID (${sa.metadata.uid ?? ''}) does not match claim (${saUid})`;
      }
      const label = this.options.domain.key('', 'legacy-token-invalid-since');
      await this.markUsed(secret, ctx.signal);
      if (secret.metadata.labels?.[label]) {
        return `the token in secret ${namespace}/${secretName} for service account ${namespace}/${saName} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${label}' label from the secret to temporarily allow use of this token`;
      }
    }
    return {
      name: sub,
      uid: saUid,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
    };
  }

  /** kube's `patchSecretWithLastUsedDate`. */
  private async markUsed(secret: ApiObject, signal: AbortSignal): Promise<void> {
    const writer = this.options.secretLabels;
    if (!writer) return;
    const now = (this.options.clock ?? systemClock).now();
    const today = now.toISOString().slice(0, 10);
    const tomorrow = new Date(now.getTime() + 24 * 3600_000).toISOString().slice(0, 10);
    const label = this.options.domain.key('', 'legacy-token-last-used');
    const lastUsed = secret.metadata.labels?.[label];
    if (lastUsed === today || lastUsed === tomorrow) return;
    const { namespace = '', name = '', uid = '' } = secret.metadata;
    try {
      await writer.setLabels(namespace, name, uid, { [label]: today }, signal);
    } catch (e) {
      this.options.logger?.error(
        `Failed to label legacy service account token ${name}/${namespace} with last-used date`,
        {
          error: e instanceof Error ? e.message : String(e),
        },
      );
    }
  }
}
