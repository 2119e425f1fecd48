import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { parsePublicKeys, parseSigningKey, publicJwk, ServiceAccountKeyError } from './service-account-keys.js';

// Key IDs computed independently: openssl pkey -pubout -outform DER | openssl dgst -sha256 -binary | base64url.
const EC_PUBLIC = `-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEoxcReu2qePKehb3MisR/kDFgGNCL
LvZe21bWgm6wvGJp6WRCMcrqLxDbxNv5lgI+QHsMVIufb3ErcG98usgirA==
-----END PUBLIC KEY-----
`;
const EC_KID = 'wqUy8Ro-pEpALLF1UjqWOwQkrDNGoVIFuoZ4rY7kTuA';
const RSA_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIC+TCCAeGgAwIBAgIUIUR6RGIC4vuodv4S8b+WykpNsvQwDQYJKoZIhvcNAQEL
BQAwDDEKMAgGA1UEAwwBdDAeFw0yNjExMjUxODQxNDdaFw0yNjExMjYxODQxNDda
MAwxCjAIBgNVBAMMAXQwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQDG
qmDkNh/nkUAjBjZt6aGsdYMzMma3yVvRlQJPSdmSsQLZaHRq+aAl2NmsOJKPV8P4
8y+oVuhevgestlsDtYaMP1fjAM+AMM2wV7ZNpls3e4LoLNgd0q2uqYnACC5gWGVh
qpSRxuaSccNoh/BrGqNYAQYV3VUR+vm0SMWfe+0HFW68PLNLbeBEF2lZEkpLIggn
2Ra9pgauyQ1s3s0mLT1egIU1J+bcNeyyRWUnFs7ARVSufevy2Rpe4CJW0bmxXDJD
F19eVngfRxwsB2KeqYgSPQKTJqBYszfED44SFk2v3KPRdxpeq+Yyzp4fLy5vPFd7
DVN3QVfUhmOfYvSiwsdJAgMBAAGjUzBRMB0GA1UdDgQWBBSxIfMCY6aEPzk+2w6w
gaR7LUZQjTAfBgNVHSMEGDAWgBSxIfMCY6aEPzk+2w6wgaR7LUZQjTAPBgNVHRMB
Af8EBTADAQH/MA0GCSqGSIb3DQEBCwUAA4IBAQCytsqh9BpvcnbBm16hDtGt1zLt
mSQrS5gbBUtVAwLEZd43LcK5tXBSNuHGzOjMcp/Bw7wRw0l8auwzuyy7MagpJsgm
pWNx9jFswEe0ZwOTUvbnNq8OZi47IlPJZsA0QjjVXX1f4vGmkx3XtttMt8Z1aMBB
hq1ixDxFX9d6pf6rEVU2UBF/F3YO7eKj344ChPPQ50zLOaMDDwqQQW67TzPk9x+v
Y/ANMWMNNFeRgEI+bpFpmoT/xAHmbwl9ZBF14KrZu91AeMHuxtU+Snz9qxPn5aDd
a43IpZ0Wt8+GDiGERqB4PiStvGDrN7mGVEZ8eV+oU2v0l1RXjZITYnUALer3
-----END CERTIFICATE-----
`;
const RSA_CERT_KID = '7c5DYAY6tjB30zIz9_XQBkv1s7o0-_lzUhQ3y9O3SJI';

const pem = (k: { export(o: object): string | Buffer }, type: string) => k.export({ type, format: 'pem' }) as string;

describe('parsePublicKeys', () => {
  it("derives kube's key ID from the public key (SHA-256 of the PKIX DER, base64url)", () => {
    assert.deepEqual(
      parsePublicKeys(EC_PUBLIC).map((k) => [k.kid, k.alg]),
      [[EC_KID, 'ES256']],
    );
    assert.deepEqual(
      parsePublicKeys(RSA_CERTIFICATE).map((k) => [k.kid, k.alg]),
      [[RSA_CERT_KID, 'RS256']],
    );
  });

  const ec384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const ec521 = generateKeyPairSync('ec', { namedCurve: 'P-521' });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ed = generateKeyPairSync('ed25519');
  const cases: { name: string; data: string; algs: string[] }[] = [
    { name: 'PKCS#1 RSA private key', data: pem(rsa.privateKey, 'pkcs1'), algs: ['RS256'] },
    { name: 'PKCS#8 private key', data: pem(ec384.privateKey, 'pkcs8'), algs: ['ES384'] },
    { name: 'SEC1 EC private key', data: pem(ec521.privateKey, 'sec1'), algs: ['ES512'] },
    { name: 'RSA PUBLIC KEY (PKCS#1)', data: pem(rsa.publicKey, 'pkcs1'), algs: ['RS256'] },
    {
      name: 'several blocks, unusable ones skipped, in order',
      data: [EC_PUBLIC, pem(ed.publicKey, 'spki'), 'junk', pem(rsa.publicKey, 'spki')].join('\n'),
      algs: ['ES256', 'RS256'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(
        parsePublicKeys(c.data).map((k) => k.alg),
        c.algs,
      );
    });
  }

  it("refuses data without an RSA or ECDSA key with kube's message", () => {
    for (const data of ['', 'not pem', pem(ed.publicKey, 'spki')]) {
      assert.throws(
        () => parsePublicKeys(data),
        (e: unknown) =>
          e instanceof ServiceAccountKeyError &&
          e.message === 'data does not contain any valid RSA or ECDSA public keys',
      );
    }
  });
});

describe('parseSigningKey', () => {
  it('takes the first RSA or ECDSA private key and ignores public keys', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const k = parseSigningKey(`${EC_PUBLIC}${pem(rsa.privateKey, 'pkcs8')}`);
    assert.equal(k.alg, 'RS256');
    assert.equal(k.privateKey.type, 'private');
    assert.equal(k.key.type, 'public');
  });

  it('refuses a file with no private key', () => {
    assert.throws(() => parseSigningKey(EC_PUBLIC), /data does not contain a valid RSA or ECDSA private key/);
  });
});

describe('publicJwk', () => {
  it('is a public JWK with use, kid and alg, without private members', () => {
    const [k] = parsePublicKeys(EC_PUBLIC);
    const jwk = publicJwk(k as never);
    assert.equal(jwk.use, 'sig');
    assert.equal(jwk.kty, 'EC');
    assert.equal(jwk.crv, 'P-256');
    assert.equal(jwk.kid, EC_KID);
    assert.equal(jwk.alg, 'ES256');
    assert.equal(jwk.d, undefined);
    const rsa = parseSigningKey(pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'pkcs1'));
    assert.deepEqual(Object.keys(publicJwk(rsa)).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });
});
