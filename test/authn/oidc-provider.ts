import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import {
  type CertificateKeyPair,
  createCertificateAuthority,
  issueServingCertificate,
} from '../../src/server/tls/certificate-factory.js';

interface SigningKey {
  readonly kid: string;
  readonly alg: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

/**
 * A loopback OpenID Connect provider for tests: HTTPS on 127.0.0.1 with its own CA, serving a
 * discovery document and a key set, signing tokens with `jose`. Keys can be added, published
 * and withdrawn to exercise rotation; every request is counted by path.
 */
export class TestOidcProvider {
  readonly #keys = new Map<string, SigningKey>();
  #published: string[] = [];
  /** Overrides the `issuer` the discovery document names (to test the mismatch). */
  discoveryIssuer: string | undefined;
  readonly hits = new Map<string, number>();

  private constructor(
    readonly ca: CertificateKeyPair,
    private readonly server: Server,
    /** `https://127.0.0.1:<port><path>`. */
    readonly issuer: string,
  ) {}

  /** Starts a provider whose issuer URL ends in `path` (default none). */
  static async start(options: { readonly path?: string } = {}): Promise<TestOidcProvider> {
    const ca = await createCertificateAuthority({ commonName: 'test-idp-ca' });
    const serving = await issueServingCertificate({ ca, hostNames: ['127.0.0.1'], commonName: 'test-idp' });
    let provider: TestOidcProvider | undefined;
    const server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      provider?.handle(req.url ?? '/', (status, body) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    provider = new TestOidcProvider(ca, server, `https://127.0.0.1:${port}${options.path ?? ''}`);
    return provider;
  }

  /** The origin serving every document (`https://127.0.0.1:<port>`). */
  get origin(): string {
    return new URL(this.issuer).origin;
  }

  private handle(url: string, reply: (status: number, body: unknown) => void): void {
    const path = url.split('?')[0] as string;
    this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
    const prefix = new URL(this.issuer).pathname.replace(/\/$/, '');
    if (path === `${prefix}/.well-known/openid-configuration` || path === '/custom-discovery') {
      reply(200, { issuer: this.discoveryIssuer ?? this.issuer, jwks_uri: `${this.origin}/keys` });
    } else if (path === '/keys') {
      const keys = this.#published.map((kid) => this.#keys.get(kid)?.publicJwk);
      reply(200, { keys });
    } else {
      reply(404, { error: 'not found' });
    }
  }

  /** Creates a key (published unless told otherwise). */
  async addKey(kid: string, options: { readonly alg?: string; readonly publish?: boolean } = {}): Promise<void> {
    const alg = options.alg ?? 'RS256';
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
    this.#keys.set(kid, { kid, alg, privateKey, publicJwk });
    if (options.publish !== false) this.publish(kid);
  }

  publish(kid: string): void {
    if (!this.#published.includes(kid)) this.#published.push(kid);
  }

  withdraw(kid: string): void {
    this.#published = this.#published.filter((k) => k !== kid);
  }

  /**
   * A token with `claims` over defaults (`iss` this issuer, `exp` in an hour, `iat` now), signed
   * with key `kid`; `undefined` claim values are left out.
   */
  async sign(kid: string, claims: Record<string, unknown>): Promise<string> {
    const key = this.#keys.get(kid);
    if (!key) throw new Error(`no key ${kid}`);
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = { iss: this.issuer, iat: now, exp: now + 3600, ...claims };
    for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
    return new SignJWT(payload as JWTPayload).setProtectedHeader({ alg: key.alg, kid }).sign(key.privateKey);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
