import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import type { DocumentFetcher, FetchedDocument } from '../https-fetcher.js';

/**
 * An OpenID provider held in memory for unit tests: a {@link DocumentFetcher} answering its
 * discovery document and key set (or whatever a test sets in `documents`), and keys that sign
 * tokens. Counts fetches per URL.
 */
export class MemoryProvider {
  readonly documents = new Map<string, FetchedDocument>();
  readonly fetched = new Map<string, number>();
  readonly #keys = new Map<string, { alg: string; privateKey: CryptoKey; jwk: JWK }>();
  #published: string[] = [];

  constructor(readonly issuer = 'https://idp.example') {
    this.setDiscovery({ issuer, jwks_uri: `${issuer}/keys` });
  }

  get jwksUri(): string {
    return `${this.issuer}/keys`;
  }

  setDiscovery(doc: unknown, url = `${this.issuer}/.well-known/openid-configuration`): void {
    this.documents.set(url, { status: 200, statusLine: '200 OK', body: JSON.stringify(doc) });
  }

  readonly fetcher: DocumentFetcher = async (url) => {
    this.fetched.set(url, (this.fetched.get(url) ?? 0) + 1);
    if (url === this.jwksUri && !this.documents.has(url)) {
      const keys = this.#published.map((kid) => this.#keys.get(kid)?.jwk);
      return { status: 200, statusLine: '200 OK', body: JSON.stringify({ keys }) };
    }
    const doc = this.documents.get(url);
    if (doc === undefined) throw new Error(`Get ${JSON.stringify(url)}: dial tcp: connection refused`);
    return doc;
  };

  async addKey(kid: string, alg = 'RS256', publish = true): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    this.#keys.set(kid, { alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } });
    if (publish) this.#published.push(kid);
  }

  publish(kid: string): void {
    this.#published.push(kid);
  }

  /** Signs `claims` over `iss` (this issuer) and an `exp` an hour ahead; `undefined` values are dropped. */
  async sign(kid: string, claims: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
    const key = this.#keys.get(kid);
    if (!key) throw new Error(`no key ${kid}`);
    const payload: Record<string, unknown> = { iss: this.issuer, exp: Math.floor(Date.now() / 1000) + 3600, ...claims };
    for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
    return new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid, ...header }).sign(key.privateKey);
  }
}
