import { createCertificateAuthority, issueClientCertificate } from '../../src/server/tls/certificate-factory.js';

/** A client certificate signed by a CA the server does not trust. */
export async function generateForeignClient(): Promise<{ cert: string; key: string }> {
  const ca = await createCertificateAuthority();
  const c = await issueClientCertificate({ ca, commonName: 'mallory', organizations: ['system:masters'] });
  return { cert: c.cert, key: c.key };
}
