import { readFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { ApiDomain } from '../../apis/api-domain.js';
import type { RestConfig } from '../rest/kubeconfig.js';
import {
  type ClusterEntry,
  type ConfigFile,
  type ConfigProblem,
  type ExecConfig,
  mergeConfigFiles,
  parseConfigFile,
} from './client-config-file.js';
import { ExecCredentialProvider, type ExecRuntime } from './exec-credential-provider.js';

/** A client configuration that cannot be used; `problems` lists every problem found. */
export class ClientConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(problems.map((p) => `${p.file}${p.path ? `: ${p.path}` : ''}: ${p.message}`).join('\n'));
    this.name = 'ClientConfigError';
  }
}

/** Options of {@link loadClientConfig}. */
export interface LoadClientConfigOptions {
  /** Names the exec credential API group and the environment variables. */
  readonly domain: ApiDomain;
  /** An explicit file (`--kubeconfig`): it must exist; the environment variable is then not read. */
  readonly file?: string;
  /** Environment (`ORCHCONFIG`, `HOME`); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** `--context`; default the merged `current-context`. */
  readonly context?: string;
  /** `--namespace`; default the context's namespace, else `default`. */
  readonly namespace?: string;
  /** How exec plugins run (terminal detection, clock, stderr). */
  readonly exec?: ExecRuntime;
}

/** The result of {@link loadClientConfig}. */
export interface ClientConfig {
  readonly contextName: string;
  readonly namespace: string;
  /** Server, TLS and credentials; `credentials` is set when the user runs an exec plugin. */
  readonly rest: RestConfig;
  /** The files read, in merge order. */
  readonly files: readonly string[];
}

/**
 * The variable holding a list of client configuration files: `ORCHCONFIG` | `KUBECONFIG`
 * (the product name, upper case, then `CONFIG`, as kubectl spells it).
 */
export function configEnvVar(domain: ApiDomain): string {
  return `${domain.componentName('x').slice(0, -2).toUpperCase()}CONFIG`;
}

/** The default file: `~/.orch/config` | `~/.kube/config`. */
export function defaultConfigFile(domain: ApiDomain, home: string): string {
  return join(home, `.${domain.componentName('x').slice(0, -2)}`, 'config');
}

async function readIfExists(file: string, required: boolean, problems: ConfigProblem[]): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (!required && code === 'ENOENT') return undefined;
    problems.push({ file, path: '', message: `cannot read: ${code ?? (e as Error).message}` });
    return undefined;
  }
}

/** The file list to read: the explicit file, else the variable's list, else the default file. */
function fileList(o: LoadClientConfigOptions): { files: string[]; required: boolean } {
  if (o.file) return { files: [o.file], required: true };
  const env = o.env ?? process.env;
  const list = env[configEnvVar(o.domain)];
  if (list) {
    const seen = new Set<string>();
    const files = list.split(delimiter).filter((f) => f !== '' && !seen.has(f) && seen.add(f));
    return { files, required: false };
  }
  return { files: [defaultConfigFile(o.domain, env.HOME ?? '')], required: false };
}

/**
 * Loads the client configuration as kubectl does: an explicit file, or every file of the
 * `ORCHCONFIG`-style variable (separated by the path delimiter) merged (first file wins per
 * entry, `current-context` from the first that sets it), or the default file; then resolves the
 * chosen context to server, TLS settings and credentials. Every problem of the files and of the
 * chosen context is reported at once, with its file and field path.
 * @throws ClientConfigError listing every problem.
 */
export async function loadClientConfig(o: LoadClientConfigOptions): Promise<ClientConfig> {
  const problems: ConfigProblem[] = [];
  const { files, required } = fileList(o);
  const parsed: ConfigFile[] = [];
  const read: string[] = [];
  for (const file of files) {
    const text = await readIfExists(file, required, problems);
    if (text === undefined) continue;
    const p = parseConfigFile(file, text);
    problems.push(...p.problems);
    parsed.push(p.config);
    read.push(file);
  }
  if (problems.length > 0) throw new ClientConfigError(problems);
  const merged = mergeConfigFiles(parsed);
  const where = read[0] ?? files[0] ?? '';
  const contextName = o.context ?? merged.currentContext;
  if (!contextName)
    throw new ClientConfigError([{ file: where, path: 'current-context', message: 'current-context is not set' }]);
  const ctx = merged.contexts.get(contextName);
  if (!ctx)
    throw new ClientConfigError([{ file: where, path: 'contexts', message: `context "${contextName}" not found` }]);
  const cluster = merged.clusters.get(ctx.cluster);
  const user = ctx.user === undefined ? undefined : merged.users.get(ctx.user);
  if (!cluster)
    problems.push({
      file: ctx.file,
      path: `contexts`,
      message: `cluster "${ctx.cluster}" of context "${contextName}" not found`,
    });
  if (ctx.user !== undefined && !user)
    problems.push({
      file: ctx.file,
      path: 'contexts',
      message: `user "${ctx.user}" of context "${contextName}" not found`,
    });
  if (!cluster) throw new ClientConfigError(problems);
  const rest = await restConfigOf(o, { clusterName: ctx.cluster, cluster, userName: ctx.user, user }, problems);
  if (problems.length > 0 || !rest) throw new ClientConfigError(problems);
  return { contextName, namespace: o.namespace ?? ctx.namespace ?? 'default', rest, files: read };
}

interface Selected {
  readonly clusterName: string;
  readonly cluster: ClusterEntry;
  readonly userName?: string;
  readonly user?: import('./client-config-file.js').UserEntry;
}

async function fileText(file: string, at: { file: string; path: string }, problems: ConfigProblem[]) {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    problems.push({ ...at, message: `cannot read ${file}: ${code}` });
    return undefined;
  }
}

/** A `*-data` field (base64) or its file twin; the data field wins, as in kubectl. */
async function pem(
  data: string | undefined,
  file: string | undefined,
  at: { file: string; path: string },
  problems: ConfigProblem[],
): Promise<string | undefined> {
  if (data !== undefined) return Buffer.from(data, 'base64').toString('utf8');
  if (file !== undefined) return fileText(file, at, problems);
  return undefined;
}

async function restConfigOf(
  o: LoadClientConfigOptions,
  s: Selected,
  problems: ConfigProblem[],
): Promise<RestConfig | undefined> {
  const c = s.cluster;
  const cAt = (field: string) => ({ file: c.file, path: `clusters[${s.clusterName}].cluster.${field}` });
  if (!c.server) problems.push({ ...cAt('server'), message: 'server is not set' });
  else if (!/^https:\/\/[^/]/.test(c.server))
    problems.push({ ...cAt('server'), message: `server must be an https URL, got ${JSON.stringify(c.server)}` });
  if (c.proxyUrl !== undefined)
    problems.push({ ...cAt('proxy-url'), message: 'proxy-url is not supported by this client' });
  if (c.insecureSkipTlsVerify && (c.certificateAuthority || c.certificateAuthorityData))
    problems.push({
      ...cAt('insecure-skip-tls-verify'),
      message: 'specifying a root certificates file with the insecure flag is not allowed',
    });
  const ca = await pem(c.certificateAuthorityData, c.certificateAuthority, cAt('certificate-authority'), problems);
  const u = s.user;
  let cert: string | undefined;
  let key: string | undefined;
  let token: string | undefined;
  let credentials: ExecCredentialProvider | undefined;
  if (u) {
    const uAt = (field: string) => ({ file: u.file, path: `users[${s.userName}].user.${field}` });
    if (u.username !== undefined || u.password !== undefined)
      problems.push({
        ...uAt(u.username !== undefined ? 'username' : 'password'),
        message:
          'basic authentication (username/password) is not supported by the server; use a token, a client certificate or an exec plugin',
      });
    if (u.hasAuthProvider)
      problems.push({ ...uAt('auth-provider'), message: 'auth-provider is not supported; use exec' });
    cert = await pem(u.clientCertificateData, u.clientCertificate, uAt('client-certificate'), problems);
    key = await pem(u.clientKeyData, u.clientKey, uAt('client-key'), problems);
    if ((cert === undefined) !== (key === undefined) && problems.length === 0)
      problems.push({
        ...uAt(cert === undefined ? 'client-certificate' : 'client-key'),
        message: 'client-certificate and client-key must be given together',
      });
    token = u.token;
    if (token === undefined && u.tokenFile !== undefined)
      token = (await fileText(u.tokenFile, uAt('tokenFile'), problems))?.trim() || undefined;
    // As client-go: a static token takes precedence and the plugin is not run.
    if (u.exec && token === undefined) {
      const e = checkExec(o.domain, u.exec, uAt('exec'), problems);
      if (e && c.server)
        credentials = new ExecCredentialProvider({
          exec: e,
          domain: o.domain,
          cluster: {
            server: c.server,
            certificateAuthorityData: ca,
            insecureSkipTlsVerify: c.insecureSkipTlsVerify,
            tlsServerName: c.tlsServerName,
            config: c.extensions.get(`client.authentication.${o.domain.name}/exec`),
          },
          runtime: o.exec,
        });
    }
  }
  if (!c.server || problems.length > 0) return undefined;
  return {
    server: c.server,
    ca,
    cert,
    key,
    token,
    ...(c.insecureSkipTlsVerify ? { insecureSkipTlsVerify: true } : {}),
    ...(c.tlsServerName ? { tlsServerName: c.tlsServerName } : {}),
    ...(credentials ? { credentials } : {}),
  };
}

/** The exec config when its apiVersion is one this client speaks. */
function checkExec(domain: ApiDomain, e: ExecConfig, at: { file: string; path: string }, problems: ConfigProblem[]) {
  const group = `client.authentication.${domain.name}`;
  if (e.apiVersion !== `${group}/v1` && e.apiVersion !== `${group}/v1beta1`) {
    problems.push({
      ...at,
      path: `${at.path}.apiVersion`,
      message: `exec plugin: invalid apiVersion ${JSON.stringify(e.apiVersion)}`,
    });
    return undefined;
  }
  return e;
}
