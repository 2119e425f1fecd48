/**
 * The `iss` of a compact JWT, read without verifying anything (kube-apiserver's
 * `untrustedIssuer`): only to route a token to the authenticator of its issuer. `undefined` when
 * the token is not a compact JWT with a JSON payload. The legacy Google issuer
 * `accounts.google.com` reads as `https://accounts.google.com`.
 */
export function untrustedIssuer(token: string): string | undefined {
  if (token.trimStart().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const payload = parts[1] as string;
  if (!/^[A-Za-z0-9_-]*$/.test(payload)) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) return undefined;
  const iss = (claims as Record<string, unknown>).iss;
  if (iss === undefined) return '';
  if (typeof iss !== 'string') return undefined;
  return iss === 'accounts.google.com' ? 'https://accounts.google.com' : iss;
}
