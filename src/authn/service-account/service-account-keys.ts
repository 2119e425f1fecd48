import { createHash, createPrivateKey, createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';

/** JWS algorithms service-account tokens are signed with, chosen by key type as kube-apiserver does. */
export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

/** A public key that verifies service-account tokens. */
export interface VerificationKey {
  readonly key: KeyObject;
  /** kube's key ID: base64url (unpadded) of the SHA-256 of the key's PKIX (SPKI) DER. */
  readonly kid: string;
  readonly alg: SigningAlgorithm;
}

/** The private key that signs service-account tokens, with its public half. */
export interface SigningKey extends VerificationKey {
  readonly privateKey: KeyObject;
}

/** PEM data that holds no usable key; the message never contains key material. */
export class ServiceAccountKeyError extends Error {
  override readonly name = 'ServiceAccountKeyError';
}

const EC_ALGORITHMS: Readonly<Record<string, SigningAlgorithm>> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
  secp521r1: 'ES512',
};

/** The algorithm of an RSA or ECDSA (P-256/384/521) public key; undefined for any other key. */
export function algorithmOf(key: KeyObject): SigningAlgorithm | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') return EC_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''];
  return undefined;
}

/** kube-apiserver's key ID of a public key (`keyIDFromPublicKey`). */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

interface PemBlock {
  readonly type: string;
  readonly text: string;
}

function pemBlocks(data: string): PemBlock[] {
  return [...data.matchAll(PEM_BLOCK)].map((m) => ({ type: m[1] as string, text: m[0] }));
}

const PRIVATE_TYPES = new Set(['RSA PRIVATE KEY', 'EC PRIVATE KEY', 'PRIVATE KEY']);

/** The public key of one PEM block, or undefined when the block is not an RSA or ECDSA key or certificate. */
function publicKeyOfBlock(block: PemBlock): KeyObject | undefined {
  try {
    let key: KeyObject | undefined;
    if (block.type === 'CERTIFICATE') key = new X509Certificate(block.text).publicKey;
    else if (block.type === 'PUBLIC KEY' || block.type === 'RSA PUBLIC KEY') key = createPublicKey(block.text);
    else if (PRIVATE_TYPES.has(block.type)) key = createPublicKey(createPrivateKey(block.text));
    return key && algorithmOf(key) ? key : undefined;
  } catch {
    return undefined;
  }
}

function verificationKey(key: KeyObject): VerificationKey {
  return Object.freeze({ key, kid: keyIdOf(key), alg: algorithmOf(key) as SigningAlgorithm });
}

/**
 * Every RSA or ECDSA public key in PEM `data` (public keys, private keys, certificates), in
 * order, as kube's `ParsePublicKeysPEM` reads a `--service-account-key-file`.
 * @throws ServiceAccountKeyError when there is none.
 */
export function parsePublicKeys(data: string): VerificationKey[] {
  const keys: VerificationKey[] = [];
  for (const block of pemBlocks(data)) {
    const key = publicKeyOfBlock(block);
    if (key) keys.push(verificationKey(key));
  }
  if (keys.length === 0) {
    throw new ServiceAccountKeyError('data does not contain any valid RSA or ECDSA public keys');
  }
  return keys;
}

/**
 * The first RSA or ECDSA private key in PEM `data` (`--service-account-signing-key-file`).
 * @throws ServiceAccountKeyError when there is none.
 */
export function parseSigningKey(data: string): SigningKey {
  for (const block of pemBlocks(data)) {
    if (!PRIVATE_TYPES.has(block.type)) continue;
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey(block.text);
    } catch {
      continue;
    }
    const key = createPublicKey(privateKey);
    const alg = algorithmOf(key);
    if (!alg) continue;
    return Object.freeze({ privateKey, key, kid: keyIdOf(key), alg });
  }
  throw new ServiceAccountKeyError('data does not contain a valid RSA or ECDSA private key');
}

/** A key as a JWK of a JWKS document (`use: sig`, `kid`, `alg`), as kube serves `/openid/v1/jwks`. */
export function publicJwk(k: VerificationKey): Record<string, string> {
  const jwk = k.key.export({ format: 'jwk' }) as Record<string, string>;
  return { use: 'sig', kty: jwk.kty as string, kid: k.kid, alg: k.alg, ...withoutKty(jwk) };
}

function withoutKty(jwk: Record<string, string>): Record<string, string> {
  const { kty: _kty, ...rest } = jwk;
  return rest;
}
