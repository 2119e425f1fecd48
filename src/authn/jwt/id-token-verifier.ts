import { decodeProtectedHeader } from 'jose';
import { goQuote } from '../../util/go-strconv.js';
import { goQuoteList, goTime } from './go-format.js';
import type { RemoteKeySet } from './remote-key-set.js';

/** The signing algorithms kube-apiserver allows (`oidc.AllValidSigningAlgorithms`). */
export const ALL_VALID_SIGNING_ALGORITHMS: readonly string[] = [
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
];

/** go-oidc v2 accepts a token up to this long before its `nbf`. */
const NOT_BEFORE_LEEWAY_MS = 60_000;

export interface IdTokenVerifierOptions {
  /** `iss` every token must carry. */
  readonly issuer: string;
  /** The acceptable audiences (at least one); a token must name one of them. */
  readonly audiences: readonly string[];
  readonly signingAlgs: readonly string[];
  readonly keySet: RemoteKeySet;
  readonly now: () => Date;
}

/** A verified token's claims (decoded JSON) and audiences. */
export interface VerifiedIdToken {
  readonly claims: Readonly<Record<string, unknown>>;
  readonly audience: readonly string[];
}

/**
 * Verifies an ID token as kube-apiserver does with go-oidc v2: issuer, audience, expiry and
 * not-before (one minute of leeway) first, then the algorithm and the signature; several
 * audiences are matched after the signature (`MatchAny`). `iat` is not checked. Errors carry
 * go-oidc's texts and never the token.
 */
export class IdTokenVerifier {
  readonly #o: IdTokenVerifierOptions;

  constructor(options: IdTokenVerifierOptions) {
    this.#o = options;
  }

  /** @throws Error naming the first check the token fails. */
  async verify(token: string): Promise<VerifiedIdToken> {
    const o = this.#o;
    const parts = token.split('.');
    if (parts.length !== 3) {
      throw new Error('oidc: malformed jwt: square/go-jose: compact JWS format must have three parts');
    }
    let header: { alg?: string; kid?: string };
    try {
      header = decodeProtectedHeader(token);
    } catch (e) {
      throw new Error(`oidc: malformed jwt: ${e instanceof Error ? e.message : String(e)}`);
    }
    let claims: Record<string, unknown>;
    try {
      const decoded: unknown = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8'));
      if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) {
        throw new Error('json: cannot unmarshal non-object into Go value of type oidc.idToken');
      }
      claims = decoded as Record<string, unknown>;
    } catch (e) {
      throw new Error(`oidc: failed to unmarshal claims: ${e instanceof Error ? e.message : String(e)}`);
    }
    const audience = audienceOf(claims.aud);
    const expiry = timeClaim(claims, 'exp');
    const notBefore = timeClaim(claims, 'nbf');
    timeClaim(claims, 'iat');
    const iss = typeof claims.iss === 'string' ? claims.iss : '';
    if (iss !== o.issuer && !(o.issuer === 'https://accounts.google.com' && iss === 'accounts.google.com')) {
      throw new Error(
        `oidc: id token issued by a different provider, expected ${goQuote(o.issuer)} got ${goQuote(iss)}`,
      );
    }
    const single = o.audiences.length === 1 ? (o.audiences[0] as string) : undefined;
    if (single !== undefined && !audience.includes(single)) {
      throw new Error(`oidc: expected audience ${goQuote(single)} got ${goQuoteList(audience)}`);
    }
    const now = o.now();
    if (expiry === undefined || expiry.getTime() < now.getTime()) {
      // A token without `exp` expired at Go's zero time.
      const shown = expiry === undefined ? '0001-01-01 00:00:00 +0000 UTC' : goTime(expiry);
      throw new Error(`oidc: token is expired (Token Expiry: ${shown})`);
    }
    if (notBefore !== undefined && now.getTime() + NOT_BEFORE_LEEWAY_MS < notBefore.getTime()) {
      throw new Error(`oidc: current time ${goTime(now)} before the nbf (not before) time: ${goTime(notBefore)}`);
    }
    const alg = typeof header.alg === 'string' ? header.alg : '';
    if (!o.signingAlgs.includes(alg)) {
      throw new Error(
        `oidc: id token signed with unsupported algorithm, expected ${goQuoteList(o.signingAlgs)} got ${goQuote(alg)}`,
      );
    }
    try {
      await o.keySet.verify(token, alg, typeof header.kid === 'string' ? header.kid : undefined);
    } catch (e) {
      throw new Error(`failed to verify signature: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (single === undefined && !audience.some((a) => o.audiences.includes(a))) {
      const expected = [...new Set(o.audiences)].sort();
      throw new Error(`oidc: expected audience in ${goQuoteList(expected)} got ${goQuoteList(audience)}`);
    }
    return { claims, audience };
  }
}

/** `aud` as a list: a string is one audience (go-oidc's `audience` type). */
function audienceOf(aud: unknown): string[] {
  if (aud === undefined || aud === null) return [];
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) return aud as string[];
  throw new Error(
    `oidc: failed to unmarshal claims: json: cannot unmarshal ${typeof aud} into Go struct field idToken.aud of type []string`,
  );
}

/** A NumericDate claim (seconds since the epoch, possibly fractional), or undefined when absent. */
function timeClaim(claims: Readonly<Record<string, unknown>>, name: string): Date | undefined {
  const v = claims[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new Error(
      `oidc: failed to unmarshal claims: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go struct field idToken.${name} of type json.Number`,
    );
  }
  return new Date(Math.trunc(v * 1000));
}
