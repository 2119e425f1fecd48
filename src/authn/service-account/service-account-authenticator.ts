import { compactVerify, decodeProtectedHeader } from 'jose';
import type { ApiDomain } from '../../apis/api-domain.js';
import type { ApiObject } from '../../apis/object.js';
import { type Clock, systemClock } from '../../util/clock.js';
import { goQuote } from '../../util/go-strconv.js';
import type { UserInfo } from '../authenticator.js';
import type { ObjectReader, ResourceRef } from '../object-reader.js';
import {
  TOKEN_NO_OPINION,
  type TokenAuthenticator,
  type TokenAuthResult,
  type TokenRequestContext,
} from '../token-authenticator.js';
import type { VerificationKey } from './service-account-keys.js';

/** go-jose's default leeway for `exp`, `nbf` and `iat`, which kube-apiserver uses. */
export const TOKEN_LEEWAY_SECONDS = 60;

/** go-jose's text for a signature no key verifies. */
const SIGNATURE_ERROR = 'go-jose/go-jose: error in cryptographic primitive';
const INVALIDATED = 'service account token has been invalidated';

const SERVICE_ACCOUNTS: ResourceRef = { group: '', version: 'v1', resource: 'serviceaccounts' };
const SECRETS: ResourceRef = { group: '', version: 'v1', resource: 'secrets' };
const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };
const NODES: ResourceRef = { group: '', version: 'v1', resource: 'nodes' };

export interface ServiceAccountAuthenticatorOptions {
  /** `--service-account-issuer` values: a token whose `iss` is none of them is not ours. */
  readonly issuers: readonly string[];
  /** Every public key a token may be signed with (`--service-account-key-file`). */
  readonly keys: readonly VerificationKey[];
  /** The server's own audiences: for tokens without `aud`, and when a request names none. */
  readonly implicitAudiences: readonly string[];
  /**
   * Check that the service account and the bound Secret, Pod or Node still exist with the uid
   * the token names and are not being deleted (`--service-account-lookup`, default true).
   */
  readonly lookup: boolean;
  readonly objects: ObjectReader;
  readonly domain: ApiDomain;
  readonly clock?: Clock;
}

interface Ref {
  readonly name: string;
  readonly uid: string;
}

interface PrivateClaims {
  readonly namespace: string;
  readonly serviceAccount: Ref;
  readonly pod?: Ref;
  readonly secret?: Ref;
  readonly node?: Ref;
}

/** Thrown inside validation with the message the authentication error carries. */
class TokenInvalid extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function refOf(v: unknown): Ref | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v))
    throw new TokenInvalid('service account token claims could not be validated due to unexpected private claim');
  return { name: str(v.name), uid: str(v.uid) };
}

/** The `iss` of a compact JWS, read without verifying it (kube's `hasCorrectIssuer`). */
export function unverifiedIssuer(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8'));
    return isObject(payload) && typeof payload.iss === 'string' ? payload.iss : undefined;
  } catch {
    return undefined;
  }
}

/** A NumericDate claim in seconds; undefined when absent. */
function numericDate(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new TokenInvalid('service account token claims could not be validated due to unexpected validation error');
  }
  return Math.trunc(v);
}

function audiencesOf(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((a) => typeof a === 'string')) return v as string[];
  throw new TokenInvalid('service account token claims could not be validated due to unexpected validation error');
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

/** Deleted (deletionTimestamp) before `before`, in ms since the epoch. */
function deletedBefore(obj: ApiObject, before: number): boolean {
  const ts = obj.metadata.deletionTimestamp;
  if (typeof ts !== 'string') return false;
  const t = Date.parse(ts);
  return Number.isFinite(t) && t < before;
}

/**
 * The verified claims of a service-account JWS signed by one of `keys` (those with the token's
 * `kid` first), or kube's error text when none verifies it or the payload is not a JSON object.
 */
export async function verifyTokenSignature(
  token: string,
  kid: unknown,
  keys: readonly VerificationKey[],
): Promise<Record<string, unknown> | string> {
  const matching = typeof kid === 'string' && kid !== '' ? keys.filter((k) => k.kid === kid) : [];
  const candidates = matching.length > 0 ? matching : keys;
  for (const k of candidates) {
    try {
      const { payload } = await compactVerify(token, k.key, { algorithms: [k.alg] });
      const claims: unknown = JSON.parse(new TextDecoder().decode(payload));
      if (!isObject(claims)) return 'go-jose/go-jose/jwt: error unmarshalling claims';
      return claims;
    } catch (e) {
      if (e instanceof SyntaxError) return 'go-jose/go-jose/jwt: error unmarshalling claims';
    }
  }
  return candidates.length === 0 ? 'no public keys' : SIGNATURE_ERROR;
}

/**
 * kube-apiserver's service-account token authenticator for bound tokens (TokenRequest): a compact
 * JWS whose unverified `iss` is one of the issuers (else `no-opinion`), signed by one of the keys
 * (those with the token's `kid` first), within `nbf`/`exp`/`iat` with a 60 s leeway, whose `aud`
 * (the server's audiences when absent) intersects the requested audiences; the result's audiences
 * are that intersection. With lookup, the service account and the bound object must still exist
 * with the token's uids and not have been deleting for longer than the leeway. The user is
 * `system:serviceaccount:<ns>:<name>` with the account's uid, groups `system:serviceaccounts` and
 * `system:serviceaccounts:<ns>`, and extras for the bound pod, its node and `JTI=<jti>`.
 */
export class ServiceAccountTokenAuthenticator implements TokenAuthenticator {
  private readonly issuers: ReadonlySet<string>;
  private readonly clock: Clock;

  constructor(private readonly options: ServiceAccountAuthenticatorOptions) {
    this.issuers = new Set(options.issuers);
    this.clock = options.clock ?? systemClock;
  }

  async authenticateToken(token: string, ctx: TokenRequestContext): Promise<TokenAuthResult> {
    const iss = unverifiedIssuer(token);
    if (iss === undefined || !this.issuers.has(iss)) return TOKEN_NO_OPINION;
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return TOKEN_NO_OPINION;
    }
    const payload = await this.verifySignature(token, kid);
    if (typeof payload === 'string') return { kind: 'error', message: payload };
    try {
      return await this.validate(payload, ctx);
    } catch (e) {
      // A failed read of the objects is a failed authentication (401), as kube's getter errors are.
      return { kind: 'error', message: e instanceof Error ? e.message : String(e) };
    }
  }

  private verifySignature(token: string, kid: unknown): Promise<Record<string, unknown> | string> {
    return verifyTokenSignature(token, kid, this.options.keys);
  }

  private async validate(claims: Record<string, unknown>, ctx: TokenRequestContext): Promise<TokenAuthResult> {
    const implicit = this.options.implicitAudiences;
    let tokenAudiences = audiencesOf(claims.aud);
    if (tokenAudiences.length === 0) tokenAudiences = [...implicit];
    const requested = ctx.audiences.length > 0 ? ctx.audiences : implicit;
    const wanted = new Set(requested);
    const audiences = tokenAudiences.filter((a, i) => wanted.has(a) && tokenAudiences.indexOf(a) === i);
    if (audiences.length === 0 && implicit.length > 0) {
      throw new TokenInvalid(
        `token audiences ${goQuoteList(tokenAudiences)} is invalid for the target audiences ${goQuoteList(requested)}`,
      );
    }

    const nowMs = this.clock.now().getTime();
    const now = nowMs / 1000;
    const nbf = numericDate(claims.nbf);
    const exp = numericDate(claims.exp);
    const iat = numericDate(claims.iat);
    if (nbf !== undefined && now + TOKEN_LEEWAY_SECONDS < nbf)
      throw new TokenInvalid('service account token is not valid yet');
    if (exp !== undefined && now - TOKEN_LEEWAY_SECONDS > exp)
      throw new TokenInvalid('service account token has expired');
    if (iat !== undefined && now + TOKEN_LEEWAY_SECONDS < iat) {
      throw new TokenInvalid('service account token is issued in the future');
    }

    const priv = this.privateClaims(claims);
    if (this.options.lookup) await this.checkObjects(priv, nowMs - TOKEN_LEEWAY_SECONDS * 1000, ctx);
    else if (!priv.namespace || !priv.serviceAccount.name) {
      throw new TokenInvalid('service account token claims could not be validated due to unexpected private claim');
    }
    return { kind: 'user', user: this.userOf(priv, str(claims.jti)), audiences };
  }

  private privateClaims(claims: Record<string, unknown>): PrivateClaims {
    const raw = claims[this.options.domain.serviceAccountClaim];
    if (raw !== undefined && !isObject(raw)) {
      throw new TokenInvalid('service account token claims could not be validated due to unexpected private claim');
    }
    const p = raw ?? {};
    return {
      namespace: str(p.namespace),
      serviceAccount: refOf(p.serviceaccount) ?? { name: '', uid: '' },
      pod: refOf(p.pod),
      secret: refOf(p.secret),
      node: refOf(p.node),
    };
  }

  private get(resource: ResourceRef, namespace: string, name: string, ctx: TokenRequestContext) {
    if (!name) return Promise.resolve(undefined);
    return this.options.objects.get(resource, namespace, name, ctx.signal);
  }

  /** kube's bound-token validator: the account and the bound object still exist, unchanged. */
  private async checkObjects(p: PrivateClaims, invalidIfDeletedBefore: number, ctx: TokenRequestContext) {
    const { namespace } = p;
    const sa = await this.get(SERVICE_ACCOUNTS, namespace, p.serviceAccount.name, ctx);
    if (!sa) throw new TokenInvalid(`serviceaccounts ${goQuote(p.serviceAccount.name)} not found`);
    if ((sa.metadata.uid ?? '') !== p.serviceAccount.uid) {
      throw new TokenInvalid(
        `service account UID (${sa.metadata.uid ?? ''}) does not match claim (${p.serviceAccount.uid})`,
      );
    }
    if (deletedBefore(sa, invalidIfDeletedBefore)) {
      throw new TokenInvalid(`service account ${namespace}/${p.serviceAccount.name} has been deleted`);
    }
    const bound: [ResourceRef, string, Ref | undefined, string][] = [
      [SECRETS, namespace, p.secret, 'secret UID (%s) does not match service account secret ref claim (%s)'],
      [PODS, namespace, p.pod, 'pod UID (%s) does not match service account pod ref claim (%s)'],
      // The node of a pod-bound token is only informational; a node-bound token is checked.
      [NODES, '', p.pod ? undefined : p.node, 'node UID (%s) does not match service account node ref claim (%s)'],
    ];
    for (const [resource, ns, ref, mismatch] of bound) {
      if (!ref) continue;
      const obj = await this.get(resource, ns, ref.name, ctx);
      if (!obj) throw new TokenInvalid(INVALIDATED);
      const uid = obj.metadata.uid ?? '';
      if (uid !== ref.uid) throw new TokenInvalid(mismatch.replace('%s', uid).replace('%s', ref.uid));
      if (deletedBefore(obj, invalidIfDeletedBefore)) throw new TokenInvalid(INVALIDATED);
    }
  }

  private userOf(p: PrivateClaims, jti: string): UserInfo {
    const d = this.options.domain;
    const extra: Record<string, string[]> = {};
    if (p.pod?.name && p.pod.uid) {
      extra[d.podNameExtra] = [p.pod.name];
      extra[d.podUidExtra] = [p.pod.uid];
    }
    if (jti) extra[d.credentialIdExtra] = [`JTI=${jti}`];
    if (p.node?.name) {
      extra[d.nodeNameExtra] = [p.node.name];
      if (p.node.uid) extra[d.nodeUidExtra] = [p.node.uid];
    }
    const user: UserInfo = {
      name: `system:serviceaccount:${p.namespace}:${p.serviceAccount.name}`,
      uid: p.serviceAccount.uid,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${p.namespace}`],
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    };
    return user;
  }
}
