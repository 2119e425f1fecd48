import type { DocumentFetcher } from './https-fetcher.js';

/** The parts of an OpenID provider's discovery document the authenticator uses. */
export interface ProviderMetadata {
  readonly issuer: string;
  readonly jwksUri: string;
}

const WELL_KNOWN = '/.well-known/openid-configuration';

/** `{issuer}/.well-known/openid-configuration` (one trailing slash of the issuer dropped first). */
export function wellKnownUrl(issuer: string): string {
  return `${issuer.endsWith('/') ? issuer.slice(0, -1) : issuer}${WELL_KNOWN}`;
}

/**
 * Fetches and checks the discovery document of `issuer` (from `discoveryUrl` when set, used as
 * is): HTTP 200, JSON, its `issuer` exactly `issuer`. Errors carry go-oidc's texts.
 */
export async function discoverProvider(
  issuer: string,
  discoveryUrl: string,
  fetcher: DocumentFetcher,
  signal: AbortSignal,
): Promise<ProviderMetadata> {
  const url = discoveryUrl !== '' ? discoveryUrl : wellKnownUrl(issuer);
  const res = await fetcher(url, signal);
  if (res.status !== 200) throw new Error(`${res.statusLine}: ${res.body}`);
  let doc: unknown;
  try {
    doc = JSON.parse(res.body);
  } catch (e) {
    throw new Error(`oidc: failed to decode provider discovery object: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new Error('oidc: failed to decode provider discovery object: not a JSON object');
  }
  const d = doc as Record<string, unknown>;
  const got = typeof d.issuer === 'string' ? d.issuer : '';
  if (got !== issuer) {
    throw new Error(
      `oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(issuer)} got ${JSON.stringify(got)}`,
    );
  }
  return { issuer: got, jwksUri: typeof d.jwks_uri === 'string' ? d.jwks_uri : '' };
}
