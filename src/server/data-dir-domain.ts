import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiDomainName } from '../apis/api-domain.js';
import { isApiDomainName, ORCH_DOMAIN } from '../apis/api-domain.js';
import { writeFileAtomic } from './tls/pem-files.js';

const FILE = 'api-domain';

/** The data directory was made with another API domain than the one asked for. */
export class ApiDomainMismatchError extends Error {
  constructor(
    readonly dataDir: string,
    readonly stored: string,
    readonly requested: ApiDomainName,
  ) {
    super(
      `data directory ${dataDir} holds objects of --api-domain=${stored}; it cannot be served with --api-domain=${requested} (names of groups, namespaces and finalizers differ): start it with --api-domain=${stored}, or use another --data-dir`,
    );
    this.name = 'ApiDomainMismatchError';
  }
}

/**
 * Checks the API domain a data directory was created with (`<dataDir>/api-domain`), recording
 * it on first start. Objects carry domain-derived names (groups in their keys, namespace
 * finalizers, labels), so serving them under the other profile would silently mismatch: refuse.
 * @throws ApiDomainMismatchError
 */
export async function checkDataDirDomain(dataDir: string, domain: ApiDomainName): Promise<void> {
  const path = join(dataDir, FILE);
  let stored: string | undefined;
  try {
    stored = (await readFile(path, 'utf8')).trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  // A data directory from before domains were recorded can only hold `orch.io` objects.
  if (stored === undefined && (await holdsData(dataDir))) stored = ORCH_DOMAIN.name;
  if (stored === undefined || stored === domain) {
    await writeFileAtomic(path, `${domain}\n`, 0o644);
    return;
  }
  if (!isApiDomainName(stored) || stored !== domain) throw new ApiDomainMismatchError(dataDir, stored, domain);
}

/** The directory already has a store or certificates (it was used before). */
async function holdsData(dataDir: string): Promise<boolean> {
  const entries = await readdir(dataDir).catch(() => [] as string[]);
  return entries.includes('store') || entries.includes('pki');
}
