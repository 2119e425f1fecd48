import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { issueClientCertificate } from '../../src/server/tls/certificate-factory.js';

/**
 * A client certificate for user `commonName` in groups `organizations`, signed by the CA a server
 * generated in `<dataDir>/pki` (so the server authenticates it as that user).
 */
export async function issueUserCertificate(
  dataDir: string,
  commonName: string,
  organizations: readonly string[] = [],
): Promise<{ cert: string; key: string }> {
  const ca = {
    cert: await readFile(join(dataDir, 'pki', 'ca.crt'), 'utf8'),
    key: await readFile(join(dataDir, 'pki', 'ca.key'), 'utf8'),
  };
  const c = await issueClientCertificate({ ca, commonName, organizations });
  return { cert: c.cert, key: c.key };
}
