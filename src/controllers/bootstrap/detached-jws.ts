import { CompactSign } from 'jose';

/**
 * kube's detached JWS of the cluster-info `kubeconfig` (cluster-bootstrap's
 * `ComputeDetachedSignature`): HS256 over `content` with the whole token `<id>.<secret>` as the
 * key, protected header `{"alg":"HS256","kid":"<id>"}`, and the payload left out of the compact
 * form: `<header>..<signature>`.
 */
export async function detachedSignature(content: string, tokenId: string, tokenSecret: string): Promise<string> {
  const key = new TextEncoder().encode(`${tokenId}.${tokenSecret}`);
  const jws = await new CompactSign(new TextEncoder().encode(content))
    .setProtectedHeader({ alg: 'HS256', kid: tokenId })
    .sign(key);
  const [header, , signature] = jws.split('.');
  return `${header}..${signature}`;
}
