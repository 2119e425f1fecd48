import { randomUUID } from 'node:crypto';
import { CompactSign } from 'jose';
import { type Clock, systemClock } from '../../util/clock.js';
import type { SigningKey } from './service-account-keys.js';

/** Tokens made for a pod-bound request of this lifetime are extended (kube's `WarnOnlyBoundTokenExpirationSeconds`). */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 60 * 60 + 7;
/** The extended lifetime of such tokens: one year (kube's `ExpirationExtensionSeconds`). */
export const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;

/** `name` and `uid` of an object a token names. */
export interface ObjectClaim {
  readonly name: string;
  readonly uid: string;
}

/** What a token is for; see {@link ServiceAccountTokenSigner.sign}. */
export interface TokenClaimsInput {
  readonly namespace: string;
  readonly serviceAccount: ObjectClaim;
  /** At most one of `secret` and `pod`/`node` (a pod-bound token may name the pod's node too). */
  readonly pod?: ObjectClaim;
  readonly secret?: ObjectClaim;
  readonly node?: ObjectClaim;
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  /** When set, the token carries `warnafter` = issue time + this many seconds. */
  readonly warnAfterSeconds?: number;
}

/** What a legacy Secret-based token names; see {@link ServiceAccountTokenSigner.signLegacy}. */
export interface LegacyTokenClaimsInput {
  readonly namespace: string;
  readonly serviceAccount: ObjectClaim;
  /** The Secret of type `<domain>/service-account-token` the token is stored in. */
  readonly secretName: string;
}

/**
 * The private claim names of legacy Secret-based tokens under `claimName`
 * (`ApiDomain.serviceAccountClaim`): `kubernetes.io/serviceaccount/namespace`, ... in kube's profile.
 */
export function legacyClaimNames(claimName: string): {
  readonly namespace: string;
  readonly secretName: string;
  readonly serviceAccountName: string;
  readonly serviceAccountUid: string;
} {
  const p = `${claimName}/serviceaccount/`;
  return {
    namespace: `${p}namespace`,
    secretName: `${p}secret.name`,
    serviceAccountName: `${p}service-account.name`,
    serviceAccountUid: `${p}service-account.uid`,
  };
}

/** The claims of a signed token, as the JWT payload holds them. */
export type TokenClaims = Readonly<Record<string, unknown>>;

export interface SignedToken {
  readonly token: string;
  readonly claims: TokenClaims;
  /** The `iat` claim, as a Date (whole seconds). */
  readonly issuedAt: Date;
}

export interface ServiceAccountTokenSignerOptions {
  /** `iss` of every token: the first `--service-account-issuer`. */
  readonly issuer: string;
  readonly key: SigningKey;
  /** The private claim holding the namespace and objects (`ApiDomain.serviceAccountClaim`). */
  readonly claimName: string;
  readonly clock?: Clock;
  /** The `jti` of a new token; default a random UUID. */
  readonly newId?: () => string;
}

function ref(o: ObjectClaim): Record<string, string> {
  const out: Record<string, string> = {};
  if (o.name) out.name = o.name;
  if (o.uid) out.uid = o.uid;
  return out;
}

/**
 * Signs service-account tokens as kube-apiserver's JWT token generator does: `iss`, `sub`
 * (`system:serviceaccount:<ns>:<name>`), `aud`, `iat` = `nbf` = now, `exp`, a random `jti`, and the
 * private claim (`kubernetes.io` in kube's profile) with the namespace, the service account and the
 * bound object; RS256 or ES256/384/512 by key type, with kube's `kid` header.
 */
export class ServiceAccountTokenSigner {
  readonly issuer: string;
  readonly key: SigningKey;
  private readonly claimName: string;
  private readonly clock: Clock;
  private readonly newId: () => string;

  constructor(options: ServiceAccountTokenSignerOptions) {
    this.issuer = options.issuer;
    this.key = options.key;
    this.claimName = options.claimName;
    this.clock = options.clock ?? systemClock;
    this.newId = options.newId ?? randomUUID;
  }

  /** The claims of a token issued now (keys in the order Go's JSON encoder writes them). */
  claims(input: TokenClaimsInput): { claims: TokenClaims; issuedAt: Date } {
    if (input.secret && (input.pod || input.node)) {
      throw new Error('internal error, token can only be bound to one object type');
    }
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const priv: Record<string, unknown> = { namespace: input.namespace };
    if (input.node) priv.node = ref(input.node);
    if (input.pod) priv.pod = ref(input.pod);
    if (input.secret) priv.secret = ref(input.secret);
    priv.serviceaccount = ref(input.serviceAccount);
    if (input.warnAfterSeconds) priv.warnafter = now + input.warnAfterSeconds;
    const claims: Record<string, unknown> = {
      aud: [...input.audiences],
      exp: now + input.expirationSeconds,
      iat: now,
      iss: this.issuer,
      jti: this.newId(),
      [this.claimName]: priv,
      nbf: now,
      sub: `system:serviceaccount:${input.namespace}:${input.serviceAccount.name}`,
    };
    const sorted = Object.fromEntries(Object.entries(claims).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return { claims: sorted, issuedAt: new Date(now * 1000) };
  }

  /** A signed token for `input`. */
  async sign(input: TokenClaimsInput): Promise<SignedToken> {
    const { claims, issuedAt } = this.claims(input);
    return { token: await this.signClaims(claims), claims, issuedAt };
  }

  /**
   * The claims of a legacy Secret-based token, as kube's `LegacyClaims` with the generator's `iss`
   * (this signer's issuer, kube's `kubernetes/serviceaccount`): `sub` and the namespace, Secret
   * name, service account name and uid; no audience, no expiry, no `jti`.
   */
  legacyClaims(input: LegacyTokenClaimsInput): TokenClaims {
    const names = legacyClaimNames(this.claimName);
    const claims: Record<string, unknown> = {
      iss: this.issuer,
      [names.namespace]: input.namespace,
      [names.secretName]: input.secretName,
      [names.serviceAccountName]: input.serviceAccount.name,
      [names.serviceAccountUid]: input.serviceAccount.uid,
      sub: `system:serviceaccount:${input.namespace}:${input.serviceAccount.name}`,
    };
    return Object.fromEntries(Object.entries(claims).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** A signed legacy token (what kube's token controller stores in a service-account-token Secret). */
  signLegacy(input: LegacyTokenClaimsInput): Promise<string> {
    return this.signClaims(this.legacyClaims(input));
  }

  private signClaims(claims: TokenClaims): Promise<string> {
    return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: this.key.alg, kid: this.key.kid })
      .sign(this.key.privateKey);
  }
}
