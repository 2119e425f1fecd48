import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CertificateKeyPair,
  createCertificateAuthority,
  type IssueTiming,
  issueClientCertificate,
} from '../certificate-factory.js';
import { ensureCertificates, type ServingCertificates } from '../ensure-certificates.js';

/** Certificates for tests: a generated cert dir plus helpers to mint more client certificates. */
export interface TestPki {
  readonly dir: string;
  readonly certs: ServingCertificates;
  /** The generated CA (certificate and key). */
  readonly ca: CertificateKeyPair;
  /** A client certificate signed by the server's CA. */
  issueClient(commonName: string, organizations?: readonly string[], timing?: IssueTiming): Promise<CertificateKeyPair>;
  /** A client certificate from an unrelated CA, which the server must not trust. */
  issueForeignClient(commonName: string, organizations?: readonly string[]): Promise<CertificateKeyPair>;
  /** Removes the temporary directory. */
  cleanup(): Promise<void>;
}

/** Generates a fresh cert dir under the OS temp dir. Call `cleanup()` when done. */
export async function createTestPki(): Promise<TestPki> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-pki-'));
  const certs = await ensureCertificates({ certDir: dir });
  const ca = { cert: await readFile(join(dir, 'ca.crt'), 'utf8'), key: await readFile(join(dir, 'ca.key'), 'utf8') };
  let foreignCa: CertificateKeyPair | undefined;
  return {
    dir,
    certs,
    ca,
    issueClient: (commonName, organizations = [], timing = {}) =>
      issueClientCertificate({ ca, commonName, organizations, ...timing }),
    async issueForeignClient(commonName, organizations = []) {
      foreignCa ??= await createCertificateAuthority({ commonName: 'foreign-ca' });
      return issueClientCertificate({ ca: foreignCa, commonName, organizations });
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
