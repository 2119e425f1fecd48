import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import { loadServiceAccountConfig, ServiceAccountConfigError } from './service-account-config.js';

const domain = apiDomain();
const dir = mkdtempSync(join(tmpdir(), 'orch-sa-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const servingKeyPem = ec.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const file = (name: string, data: string) => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};
const rsaPrivate = file('rsa.key', rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string);
const rsaPublic = file('rsa.pub', rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string);
const ecPublic = file('ec.pub', ec.publicKey.export({ type: 'spki', format: 'pem' }) as string);
const junk = file('junk.pem', 'hello\n');
const defaults = { issuer: 'https://127.0.0.1:6443', servingKeyPem };

describe('loadServiceAccountConfig', () => {
  it('defaults: the server URL issues, the serving key signs and verifies, lookup and extension on', async () => {
    const c = await loadServiceAccountConfig({}, defaults, { domain });
    assert.deepEqual(c.issuers, ['https://127.0.0.1:6443']);
    assert.equal(c.signer.issuer, 'https://127.0.0.1:6443');
    assert.equal(c.signer.key.alg, 'ES256');
    assert.deepEqual(
      c.publicKeys.map((k) => k.kid),
      [c.signer.key.kid],
    );
    assert.deepEqual([c.lookup, c.extendExpiration, c.maxExpirationSeconds], [true, true, 0]);
  });

  it('takes the flags: first issuer signs, key files verify', async () => {
    const c = await loadServiceAccountConfig(
      {
        serviceAccountIssuers: ['https://a', 'https://b'],
        serviceAccountSigningKeyFile: rsaPrivate,
        serviceAccountKeyFiles: [ecPublic, rsaPublic],
        serviceAccountLookup: false,
        serviceAccountMaxTokenExpirationSeconds: 7200,
        serviceAccountExtendTokenExpiration: false,
      },
      defaults,
      { domain },
    );
    assert.deepEqual(c.issuers, ['https://a', 'https://b']);
    assert.equal(c.signer.issuer, 'https://a');
    assert.equal(c.signer.key.alg, 'RS256');
    assert.deepEqual(
      c.publicKeys.map((k) => k.alg),
      ['ES256', 'RS256'],
    );
    assert.deepEqual([c.lookup, c.extendExpiration, c.maxExpirationSeconds], [false, false, 7200]);
    assert.deepEqual(c.warnings, []);
  });

  it('warns, as kube-apiserver does, of a short cap with the extension on, and of a signing key nobody verifies', async () => {
    const c = await loadServiceAccountConfig(
      { serviceAccountMaxTokenExpirationSeconds: 3600, serviceAccountKeyFiles: [rsaPublic] },
      defaults,
      { domain },
    );
    assert.deepEqual(c.warnings, [
      `the service account signing key (kid ${c.signer.key.kid}) is not among the --service-account-key-file keys: tokens this server issues will not authenticate here`,
      'service-account-extend-token-expiration is true, in order to correctly trigger safe transition logic, service-account-max-token-expiration must be set longer than 3607 seconds (currently 1h0m0s)',
      'service-account-extend-token-expiration is true, enabling tokens valid up to 31536000 seconds, which is longer than service-account-max-token-expiration set to 1h0m0s',
    ]);
  });

  it('lists every problem', async () => {
    await assert.rejects(
      loadServiceAccountConfig(
        {
          serviceAccountIssuers: ['https://a', '', 'https://a', 'http://[::1'],
          serviceAccountSigningKeyFile: join(dir, 'missing.key'),
          serviceAccountKeyFiles: [junk, join(dir, 'missing.pub')],
          serviceAccountMaxTokenExpirationSeconds: 60,
        },
        defaults,
        { domain },
      ),
      (e: unknown) => {
        assert.ok(e instanceof ServiceAccountConfigError);
        assert.deepEqual(e.problems, [
          'service-account-issuer should not be an empty string',
          'service-account-issuer "https://a" is already specified',
          `service-account-issuer "http://[::1" contained a ':' but was not a valid URL: parse "http://[::1": invalid URL`,
          'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds',
          `failed to parse service-account-issuer-key-file: open ${join(dir, 'missing.key')}: no such file or directory`,
          `failed to parse key file "${junk}": error reading public key file ${junk}: data does not contain any valid RSA or ECDSA public keys`,
          `failed to parse key file "${join(dir, 'missing.pub')}": open ${join(dir, 'missing.pub')}: no such file or directory`,
        ]);
        return true;
      },
    );
  });

  it('refuses a signing key file without a private key', async () => {
    await assert.rejects(
      loadServiceAccountConfig({ serviceAccountSigningKeyFile: rsaPublic }, defaults, { domain }),
      /failed to parse service-account-issuer-key-file: data does not contain a valid RSA or ECDSA private key/,
    );
  });
});
