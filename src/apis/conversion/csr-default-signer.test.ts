import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../api-domain.js';
import { x509 } from '../certificates/x509-runtime.js';
import { conversionRegistry } from './conversion-registry.js';
import { defaultV1beta1Signer } from './csr-default-signer.js';

async function request(name: string, sans: { type: 'dns' | 'email' | 'ip'; value: string }[] = []): Promise<string> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256' };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const extensions = sans.length > 0 ? [new (x509().SubjectAlternativeNameExtension)(sans)] : [];
  const req = await x509().Pkcs10CertificateRequestGenerator.create(
    { name, keys, signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' }, extensions },
    webcrypto,
  );
  return Buffer.from(req.toString('pem')).toString('base64');
}

const CLIENT = `${ORCH_DOMAIN.key('', '')}${ORCH_DOMAIN.componentName('apiserver-client-kubelet')}`;
const SERVING = ORCH_DOMAIN.key('', 'kubelet-serving');
const LEGACY = ORCH_DOMAIN.key('', 'legacy-unknown');

describe("v1beta1's default signer", () => {
  const table: {
    name: string;
    subject: string;
    sans?: { type: 'dns' | 'email' | 'ip'; value: string }[];
    usages: string[];
    signer: string;
  }[] = [
    {
      name: "a node's client request",
      subject: 'CN=system:node:n1, O=system:nodes',
      usages: ['digital signature', 'key encipherment', 'client auth'],
      signer: CLIENT,
    },
    {
      name: "a node's client request without key encipherment",
      subject: 'CN=system:node:n1, O=system:nodes',
      usages: ['digital signature', 'client auth'],
      signer: CLIENT,
    },
    {
      name: "a node's serving request",
      subject: 'CN=system:node:n1, O=system:nodes',
      sans: [
        { type: 'dns', value: 'n1.example.com' },
        { type: 'ip', value: '10.0.0.1' },
      ],
      usages: ['digital signature', 'key encipherment', 'server auth'],
      signer: SERVING,
    },
    {
      name: 'a client request with a DNS name',
      subject: 'CN=system:node:n1, O=system:nodes',
      sans: [{ type: 'dns', value: 'n1.example.com' }],
      usages: ['digital signature', 'client auth'],
      signer: LEGACY,
    },
    {
      name: 'a serving request without names',
      subject: 'CN=system:node:n1, O=system:nodes',
      usages: ['digital signature', 'server auth'],
      signer: LEGACY,
    },
    {
      name: 'another organization',
      subject: 'CN=system:node:n1, O=devs',
      usages: ['digital signature', 'client auth'],
      signer: LEGACY,
    },
    {
      name: 'a user',
      subject: 'CN=alice, O=system:nodes',
      usages: ['digital signature', 'client auth'],
      signer: LEGACY,
    },
    {
      name: "v1beta1's default usages",
      subject: 'CN=system:node:n1, O=system:nodes',
      usages: ['digital signature', 'key encipherment'],
      signer: LEGACY,
    },
    {
      name: 'an e-mail name',
      subject: 'CN=system:node:n1, O=system:nodes',
      sans: [{ type: 'email', value: 'n1@example.com' }],
      usages: ['digital signature', 'client auth'],
      signer: LEGACY,
    },
  ];
  for (const c of table) {
    it(c.name, async () => {
      assert.equal(defaultV1beta1Signer(ORCH_DOMAIN, await request(c.subject, c.sans), c.usages), c.signer);
    });
  }
  it('an unreadable request is legacy-unknown', () => {
    assert.equal(defaultV1beta1Signer(ORCH_DOMAIN, 'bm90IGEgcmVxdWVzdA==', ['client auth']), LEGACY);
  });

  it("a node's client request without a signer converts with the node-agent client signer", async () => {
    const req = await request('CN=system:node:n1, O=system:nodes');
    const out = conversionRegistry(ORCH_DOMAIN).convert({
      apiVersion: `${ORCH_DOMAIN.group('certificates')}/v1beta1`,
      kind: 'CertificateSigningRequest',
      metadata: { name: 'node-csr' },
      spec: { request: req, usages: ['digital signature', 'client auth'] },
    });
    assert.deepEqual(out.spec, { request: req, usages: ['digital signature', 'client auth'], signerName: CLIENT });
  });
});
