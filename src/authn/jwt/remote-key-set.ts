import { type CryptoKey, compactVerify, importJWK, type JWK } from 'jose';
import { type Clock, systemClock } from '../../util/clock.js';
import type { DocumentFetcher } from './https-fetcher.js';

export interface RemoteKeySetOptions {
  readonly jwksUri: string;
  readonly fetcher: DocumentFetcher;
  /** Stops fetches in flight when the key set is dropped. */
  readonly lifetime: AbortSignal;
  /**
   * Least time between two fetches caused by tokens no cached key verifies (an unknown `kid`):
   * bounds what random key ids can make the server send to the provider. Default 5 s.
   */
  readonly refreshCooldownMs?: number;
  readonly clock?: Clock;
}

interface CachedKey {
  readonly jwk: JWK;
  /** Imported keys by algorithm; `null` when the key cannot be used with that algorithm. */
  readonly imported: Map<string, CryptoKey | null>;
}

/**
 * An issuer's JSON Web Key Set, fetched on first use and again when a token names a key the
 * cached set lacks (or none of its keys verifies the token), at most once per cooldown;
 * concurrent refreshes share one fetch. Errors carry go-oidc's texts and never the token.
 */
export class RemoteKeySet {
  readonly #options: RemoteKeySetOptions;
  readonly #clock: Clock;
  readonly #cooldownMs: number;
  #keys: CachedKey[] = [];
  #lastFetchAt: number | undefined;
  #inFlight: Promise<void> | undefined;
  /** Number of fetches so far (for tests and metrics). */
  fetches = 0;

  constructor(options: RemoteKeySetOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#cooldownMs = options.refreshCooldownMs ?? 5_000;
  }

  /**
   * Verifies the compact JWS `token` signed with `alg` (already checked against the allowed
   * algorithms) and returns its payload.
   * @throws Error `failed to verify id token signature` or `fetching keys ...`
   */
  async verify(token: string, alg: string, kid: string | undefined): Promise<Uint8Array> {
    const cached = await this.#tryKeys(token, alg, kid);
    if (cached !== undefined) return cached;
    const now = this.#clock.now().getTime();
    if (this.#lastFetchAt !== undefined && now - this.#lastFetchAt < this.#cooldownMs && this.#inFlight === undefined) {
      throw new Error('failed to verify id token signature');
    }
    try {
      await this.#refresh();
    } catch (e) {
      throw new Error(`fetching keys ${e instanceof Error ? e.message : String(e)}`);
    }
    const fresh = await this.#tryKeys(token, alg, kid);
    if (fresh !== undefined) return fresh;
    throw new Error('failed to verify id token signature');
  }

  async #tryKeys(token: string, alg: string, kid: string | undefined): Promise<Uint8Array | undefined> {
    for (const key of this.#keys) {
      if (kid !== undefined && kid !== '' && key.jwk.kid !== kid) continue;
      const imported = await importFor(key, alg);
      if (imported === null) continue;
      try {
        const { payload } = await compactVerify(token, imported, { algorithms: [alg] });
        return payload;
      } catch {
        // Another key may verify it.
      }
    }
    return undefined;
  }

  #refresh(): Promise<void> {
    if (this.#inFlight !== undefined) return this.#inFlight;
    this.#lastFetchAt = this.#clock.now().getTime();
    this.fetches++;
    const p = this.#fetch().finally(() => {
      this.#inFlight = undefined;
    });
    this.#inFlight = p;
    return p;
  }

  async #fetch(): Promise<void> {
    const res = await this.#options.fetcher(this.#options.jwksUri, this.#options.lifetime);
    if (res.status !== 200) throw new Error(`oidc: get keys failed: ${res.statusLine} ${res.body}`);
    let doc: unknown;
    try {
      doc = JSON.parse(res.body);
    } catch (e) {
      throw new Error(`oidc: failed to decode keys: ${e instanceof Error ? e.message : String(e)} ${res.body}`);
    }
    const keys = (doc as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(keys)) throw new Error(`oidc: failed to decode keys: no "keys" array ${res.body}`);
    this.#keys = keys
      .filter((k): k is JWK => k !== null && typeof k === 'object' && typeof (k as JWK).kty === 'string')
      .filter((k) => k.kty !== 'oct' && (k.use === undefined || k.use === 'sig'))
      .map((jwk) => ({ jwk, imported: new Map() }));
  }
}

async function importFor(key: CachedKey, alg: string): Promise<CryptoKey | null> {
  const hit = key.imported.get(alg);
  if (hit !== undefined) return hit;
  let imported: CryptoKey | null;
  try {
    const k = await importJWK({ ...key.jwk, alg }, alg);
    imported = k instanceof Uint8Array ? null : k;
  } catch {
    imported = null;
  }
  key.imported.set(alg, imported);
  return imported;
}
