import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { CredentialSource } from './credentials.js';

/** Where a server is and how to authenticate to it. PEM strings. */
export interface RestConfig {
  /** `https://host:port`. */
  readonly server: string;
  /** CA bundle that verifies the server; absent: the system roots. */
  readonly ca?: string;
  /** Client certificate and key. */
  readonly cert?: string;
  readonly key?: string;
  /** Bearer token. */
  readonly token?: string;
  /** `insecure-skip-tls-verify`: the server's certificate is not checked. */
  readonly insecureSkipTlsVerify?: boolean;
  /** `tls-server-name`: the name the server's certificate is checked against. */
  readonly tlsServerName?: string;
  /**
   * Credentials that change while the client runs (an exec plugin); asked before every request,
   * they replace `token`, `cert` and `key`.
   */
  readonly credentials?: CredentialSource;
}

/** A kubeconfig that cannot be used; the message names the file and the field. */
export class KubeconfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KubeconfigError';
  }
}

type Entry = Record<string, unknown>;

function named(list: unknown, name: string, what: string, file: string): Entry {
  if (!Array.isArray(list)) throw new KubeconfigError(`${file}: ${what}s: must be a list`);
  const found = list.find((e) => e && typeof e === 'object' && (e as Entry).name === name) as Entry | undefined;
  if (!found) throw new KubeconfigError(`${file}: ${what} ${JSON.stringify(name)} not found`);
  const body = found[what];
  if (!body || typeof body !== 'object')
    throw new KubeconfigError(`${file}: ${what} ${JSON.stringify(name)}: no ${what} section`);
  return body as Entry;
}

/** A `*-data` field (base64) or its file-path twin, resolved against the kubeconfig's directory. */
async function pem(section: Entry, field: string, file: string): Promise<string | undefined> {
  const data = section[`${field}-data`];
  if (typeof data === 'string' && data !== '') return Buffer.from(data, 'base64').toString('utf8');
  const path = section[field];
  if (typeof path !== 'string' || path === '') return undefined;
  try {
    return await readFile(resolve(dirname(file), path), 'utf8');
  } catch (e) {
    throw new KubeconfigError(`${file}: ${field}: cannot read ${path}: ${(e as Error).message}`, { cause: e });
  }
}

/**
 * Reads a kubeconfig file (kubectl's format) and returns the server and credentials of its
 * current context (or `context`): client certificate and key, bearer token or token file, CA.
 * @throws KubeconfigError naming the file and the missing or unreadable field.
 */
export async function loadKubeconfig(file: string, context?: string): Promise<RestConfig> {
  let doc: Entry;
  try {
    doc = parseYaml(await readFile(file, 'utf8')) as Entry;
  } catch (e) {
    throw new KubeconfigError(`${file}: ${(e as Error).message}`, { cause: e });
  }
  if (!doc || typeof doc !== 'object') throw new KubeconfigError(`${file}: not a kubeconfig`);
  const ctxName = context ?? doc['current-context'];
  if (typeof ctxName !== 'string' || ctxName === '') throw new KubeconfigError(`${file}: current-context is not set`);
  const ctx = named(doc.contexts, ctxName, 'context', file);
  const cluster = named(doc.clusters, String(ctx.cluster ?? ''), 'cluster', file);
  const server = cluster.server;
  if (typeof server !== 'string' || server === '')
    throw new KubeconfigError(`${file}: cluster ${ctx.cluster}: server is not set`);
  const user = ctx.user ? named(doc.users, String(ctx.user), 'user', file) : {};
  let token = typeof user.token === 'string' && user.token !== '' ? user.token : undefined;
  if (!token && typeof user.tokenFile === 'string' && user.tokenFile !== '') {
    token = (await pem({ tokenFile: user.tokenFile }, 'tokenFile', file))?.trim();
  }
  return {
    server,
    ca: await pem(cluster, 'certificate-authority', file),
    cert: await pem(user, 'client-certificate', file),
    key: await pem(user, 'client-key', file),
    token,
  };
}
