import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCertificateAuthority } from './certificate-factory.js';
import { ensureCertificates } from './ensure-certificates.js';
import { TlsConfigError } from './errors.js';

describe('ensureCertificates with a request-header CA', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-rh-ca-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('trusts the client CA and the request-header CA at the TLS layer, and keeps them apart', async () => {
    const proxyCa = await createCertificateAuthority({ commonName: 'proxy' });
    const file = join(dir, 'proxy-ca.crt');
    await writeFile(file, proxyCa.cert.trimEnd());
    const certs = await ensureCertificates({ certDir: join(dir, 'pki'), requestHeaderClientCaFile: file });
    assert.equal(certs.requestHeaderClientCa, proxyCa.cert.trimEnd());
    assert.ok(!certs.clientCa.includes(proxyCa.cert.trimEnd()));
    assert.equal(certs.trustedClientCas, `${certs.clientCa}${proxyCa.cert}`);
  });

  it('trusts only the client CA without one', async () => {
    const certs = await ensureCertificates({ certDir: join(dir, 'pki2') });
    assert.equal(certs.requestHeaderClientCa, undefined);
    assert.equal(certs.trustedClientCas, certs.clientCa);
  });

  const bad: { name: string; text: string | undefined; message: RegExp }[] = [
    { name: 'a missing file', text: undefined, message: /--requestheader-client-ca-file/ },
    {
      name: 'a file without certificates',
      text: 'hello\n',
      message: /--requestheader-client-ca-file .*: no PEM certificate found/,
    },
  ];
  for (const c of bad) {
    it(`names the flag for ${c.name}`, async () => {
      const file = join(dir, `${c.name.replaceAll(' ', '-')}.crt`);
      if (c.text !== undefined) await writeFile(file, c.text);
      await assert.rejects(
        ensureCertificates({ certDir: join(dir, 'pki3'), requestHeaderClientCaFile: file }),
        (e: unknown) => e instanceof TlsConfigError && c.message.test(e.message),
      );
    });
  }
});
