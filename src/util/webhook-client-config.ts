import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

/**
 * A webhook client configuration file cannot be read or is invalid. `problems` lists every
 * problem, each prefixed with the flag or field that names the file; never contains a secret.
 */
export class WebhookClientConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[], options?: ErrorOptions) {
    super(problems.length === 1 ? (problems[0] as string) : `[${problems.join(', ')}]`, options);
    this.name = 'WebhookClientConfigError';
    this.problems = Object.freeze([...problems]);
  }
}

/** Where and how the API server calls a webhook, read from a client configuration (kubeconfig) file. */
export interface WebhookClientConfig {
  /** `clusters[].cluster.server`: the URL POSTed to, as given (path and all). */
  readonly server: URL;
  /** PEM bundle to verify the webhook's serving certificate; undefined = the system roots. */
  readonly ca?: string;
  readonly insecureSkipTlsVerify: boolean;
  /** `tls-server-name`: name to verify instead of the URL's host. */
  readonly serverName?: string;
  /** Client certificate and key PEM the API server presents. */
  readonly clientCert?: string;
  readonly clientKey?: string;
  /** Bearer token the API server sends (`token` or the content of `tokenFile`). */
  readonly token?: string;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The named entries of a `clusters`/`users`/`contexts` list, each entry's field under `field`. */
function namedEntries(doc: Obj, list: string, field: string, problems: string[]): Map<string, Obj> {
  const out = new Map<string, Obj>();
  const raw = doc[list];
  if (raw === undefined || raw === null) return out;
  if (!Array.isArray(raw)) {
    problems.push(`${list}: must be a list`);
    return out;
  }
  raw.forEach((item, i) => {
    if (!isObj(item)) {
      problems.push(`${list}[${i}]: must be an object`);
      return;
    }
    const name = item.name;
    if (typeof name !== 'string' || name === '') {
      problems.push(`${list}[${i}].name: Required value`);
      return;
    }
    if (out.has(name)) problems.push(`${list}[${i}].name: Duplicate value: ${JSON.stringify(name)}`);
    const body = item[field];
    if (body !== undefined && body !== null && !isObj(body)) {
      problems.push(`${list}[${i}].${field}: must be an object`);
      return;
    }
    out.set(name, (body as Obj | undefined) ?? {});
  });
  return out;
}

function str(o: Obj, key: string, path: string, problems: string[]): string | undefined {
  const v = o[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') {
    problems.push(`${path}.${key}: must be a string`);
    return undefined;
  }
  return v;
}

/** Reads a file a field names (relative to the configuration's directory) or its `-data` twin (base64). */
async function material(
  o: Obj,
  fileKey: string,
  path: string,
  baseDir: string,
  problems: string[],
): Promise<string | undefined> {
  const file = str(o, fileKey, path, problems);
  const data = str(o, `${fileKey}-data`, path, problems);
  if (data !== undefined) {
    if (file !== undefined)
      problems.push(`${path}: ${fileKey}-data and ${fileKey} are both specified; only one is allowed`);
    const text = Buffer.from(data, 'base64').toString('utf8');
    if (text.trim() === '') problems.push(`${path}.${fileKey}-data: not valid base64 data`);
    return text;
  }
  if (file === undefined) return undefined;
  const full = isAbsolute(file) ? file : resolve(baseDir, file);
  try {
    return await readFile(full, 'utf8');
  } catch (e) {
    problems.push(
      `${path}.${fileKey}: unable to read ${full}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
    return undefined;
  }
}

/**
 * Parses a webhook's client configuration (kubeconfig format): `current-context` picks a context,
 * whose `cluster` gives `server` (https URL), `certificate-authority[-data]`,
 * `insecure-skip-tls-verify`, `tls-server-name`, and whose `user` gives
 * `client-certificate[-data]` + `client-key[-data]`, `token` or `tokenFile`. Relative file paths
 * are resolved against `baseDir` (the file's directory). `flag` names the source in messages (a flag, or a
 * configuration field).
 * @throws WebhookClientConfigError listing every problem found, with field paths.
 */
export async function parseWebhookClientConfig(
  text: string,
  baseDir: string,
  flag: string,
): Promise<WebhookClientConfig> {
  const problems: string[] = [];
  const fail = (): never => {
    throw new WebhookClientConfigError(problems.map((p) => `${flag}: ${p}`));
  };
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    problems.push(`not a valid client configuration: ${(e as Error).message.split('\n')[0]}`);
    return fail();
  }
  if (!isObj(doc)) {
    problems.push('invalid configuration: no configuration has been provided');
    return fail();
  }
  const clusters = namedEntries(doc, 'clusters', 'cluster', problems);
  const users = namedEntries(doc, 'users', 'user', problems);
  const contexts = namedEntries(doc, 'contexts', 'context', problems);
  const current = doc['current-context'];
  let context: Obj | undefined;
  if (typeof current !== 'string' || current === '') {
    if (contexts.size === 0 && clusters.size === 0)
      problems.push('invalid configuration: no configuration has been provided');
    else problems.push('current-context: Required value');
  } else {
    context = contexts.get(current);
    if (!context) problems.push(`current-context: context was not found for specified context: ${current}`);
  }
  let server: URL | undefined;
  let ca: string | undefined;
  let insecure = false;
  let serverName: string | undefined;
  let clientCert: string | undefined;
  let clientKey: string | undefined;
  let token: string | undefined;
  if (context) {
    const ctxPath = `contexts[${JSON.stringify(current)}].context`;
    const clusterName = str(context, 'cluster', ctxPath, problems);
    const cluster = clusterName === undefined ? undefined : clusters.get(clusterName);
    if (clusterName === undefined) problems.push(`${ctxPath}.cluster: Required value`);
    else if (!cluster) problems.push(`${ctxPath}.cluster: cluster was not found for specified context: ${clusterName}`);
    if (cluster) {
      const p = `clusters[${JSON.stringify(clusterName)}].cluster`;
      const raw = str(cluster, 'server', p, problems);
      if (raw === undefined) problems.push(`${p}.server: cluster has no server defined`);
      else {
        try {
          server = new URL(raw);
          if (server.protocol !== 'https:' && server.protocol !== 'http:') {
            problems.push(`${p}.server: unsupported scheme ${JSON.stringify(server.protocol.slice(0, -1))}; use https`);
          }
        } catch {
          problems.push(`${p}.server: not a valid URL: ${JSON.stringify(raw)}`);
        }
      }
      ca = await material(cluster, 'certificate-authority', p, baseDir, problems);
      const skip = cluster['insecure-skip-tls-verify'];
      if (skip !== undefined && typeof skip !== 'boolean')
        problems.push(`${p}.insecure-skip-tls-verify: must be a boolean`);
      insecure = skip === true;
      if (insecure && ca !== undefined) {
        problems.push(
          `${p}: certificate-authority and insecure-skip-tls-verify are both specified; only one is allowed`,
        );
      }
      serverName = str(cluster, 'tls-server-name', p, problems);
    }
    const userName = str(context, 'user', ctxPath, problems);
    if (userName !== undefined) {
      const user = users.get(userName);
      if (!user) problems.push(`${ctxPath}.user: user was not found for specified context: ${userName}`);
      else {
        const p = `users[${JSON.stringify(userName)}].user`;
        clientCert = await material(user, 'client-certificate', p, baseDir, problems);
        clientKey = await material(user, 'client-key', p, baseDir, problems);
        if ((clientCert === undefined) !== (clientKey === undefined)) {
          problems.push(`${p}: client-certificate and client-key must be given together`);
        }
        token = str(user, 'token', p, problems);
        const tokenFile = str(user, 'tokenFile', p, problems);
        if (tokenFile !== undefined) {
          if (token !== undefined) problems.push(`${p}: token and tokenFile are both specified; only one is allowed`);
          const full = isAbsolute(tokenFile) ? tokenFile : resolve(baseDir, tokenFile);
          try {
            token = (await readFile(full, 'utf8')).trim();
          } catch (e) {
            problems.push(
              `${p}.tokenFile: unable to read ${full}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
            );
          }
        }
      }
    }
  }
  if (problems.length > 0 || server === undefined) return fail();
  return { server, ca, insecureSkipTlsVerify: insecure, serverName, clientCert, clientKey, token };
}

/**
 * Reads a webhook client configuration file (see {@link parseWebhookClientConfig}).
 * @throws WebhookClientConfigError when it cannot be read or is invalid.
 */
export async function loadWebhookClientConfig(path: string, flag: string): Promise<WebhookClientConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new WebhookClientConfigError([`${flag}: ${(e as Error).message}`], { cause: e });
  }
  return parseWebhookClientConfig(text, dirname(resolve(path)), flag);
}
