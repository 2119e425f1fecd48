import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

/** One problem of a client configuration file: the file, the field path and what is wrong. */
export interface ConfigProblem {
  readonly file: string;
  /** Field path in the file, e.g. `users[0].user.exec.apiVersion`; '' for the whole file. */
  readonly path: string;
  readonly message: string;
}

/** `interactiveMode` of an exec plugin. */
export type InteractiveMode = 'Never' | 'IfAvailable' | 'Always';

export const INTERACTIVE_MODES: readonly InteractiveMode[] = ['Never', 'IfAvailable', 'Always'];

/** `user.exec` with its command path resolved against the file that names it. */
export interface ExecConfig {
  /** Absolute when the file gave a path with a separator; a bare name is looked up on `PATH`. */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly apiVersion: string;
  readonly installHint?: string;
  readonly provideClusterInfo: boolean;
  /** Absent: not set in the file (allowed in v1beta1 only, where it means `IfAvailable`). */
  readonly interactiveMode?: InteractiveMode;
}

/** A `clusters[].cluster` entry; file paths are absolute. */
export interface ClusterEntry {
  readonly server?: string;
  readonly certificateAuthority?: string;
  readonly certificateAuthorityData?: string;
  readonly insecureSkipTlsVerify: boolean;
  readonly tlsServerName?: string;
  readonly proxyUrl?: string;
  /** `extensions[]` by name. */
  readonly extensions: ReadonlyMap<string, unknown>;
  /** The file this entry came from. */
  readonly file: string;
}

/** A `users[].user` entry; file paths are absolute. */
export interface UserEntry {
  readonly token?: string;
  readonly tokenFile?: string;
  readonly clientCertificate?: string;
  readonly clientCertificateData?: string;
  readonly clientKey?: string;
  readonly clientKeyData?: string;
  readonly username?: string;
  readonly password?: string;
  readonly exec?: ExecConfig;
  readonly hasAuthProvider: boolean;
  readonly file: string;
}

/** A `contexts[].context` entry. */
export interface ContextEntry {
  readonly cluster: string;
  readonly user?: string;
  readonly namespace?: string;
  readonly file: string;
}

/** One file read and checked; entries keyed by name. */
export interface ConfigFile {
  readonly clusters: ReadonlyMap<string, ClusterEntry>;
  readonly users: ReadonlyMap<string, UserEntry>;
  readonly contexts: ReadonlyMap<string, ContextEntry>;
  readonly currentContext?: string;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Collects problems while reading one file. */
class Reader {
  readonly problems: ConfigProblem[] = [];
  constructor(readonly file: string) {}

  problem(path: string, message: string): void {
    this.problems.push({ file: this.file, path, message });
  }

  str(o: Obj, key: string, path: string): string | undefined {
    const v = o[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') {
      this.problem(`${path}.${key}`, 'must be a string');
      return undefined;
    }
    return v === '' ? undefined : v;
  }

  bool(o: Obj, key: string, path: string): boolean {
    const v = o[key];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') {
      this.problem(`${path}.${key}`, 'must be a boolean');
      return false;
    }
    return v;
  }

  /** A file path resolved against this file's directory. */
  filePath(o: Obj, key: string, path: string): string | undefined {
    const v = this.str(o, key, path);
    return v === undefined ? undefined : resolve(dirname(this.file), v);
  }

  /** `[{name, <body>}]` as a map of name → body object, reporting bad and duplicate entries. */
  namedList(doc: Obj, list: string, body: string, prefix = ''): Map<string, { value: Obj; path: string }> {
    const out = new Map<string, { value: Obj; path: string }>();
    const v = doc[list];
    if (v === undefined || v === null) return out;
    if (!Array.isArray(v)) {
      this.problem(`${prefix}${list}`, 'must be a list');
      return out;
    }
    for (const [i, e] of v.entries()) {
      const at = `${prefix}${list}[${i}]`;
      if (!isObj(e)) {
        this.problem(at, 'must be an object');
      } else if (typeof e.name !== 'string' || e.name === '') {
        this.problem(`${at}.name`, 'must be a non-empty string');
      } else if (out.has(e.name)) {
        this.problem(`${at}.name`, `duplicate name ${JSON.stringify(e.name)}`);
      } else if (!isObj(e[body])) {
        this.problem(`${at}.${body}`, 'must be an object');
      } else {
        out.set(e.name, { value: e[body] as Obj, path: `${at}.${body}` });
      }
    }
    return out;
  }
}

function readExec(r: Reader, o: Obj, path: string): ExecConfig | undefined {
  const command = r.str(o, 'command', path);
  const apiVersion = r.str(o, 'apiVersion', path);
  if (!command) r.problem(`${path}.command`, 'command must be specified to use exec authentication plugin');
  if (!apiVersion) r.problem(`${path}.apiVersion`, 'apiVersion must be specified to use exec authentication plugin');
  const args: string[] = [];
  if (o.args !== undefined && o.args !== null) {
    if (!Array.isArray(o.args)) r.problem(`${path}.args`, 'must be a list of strings');
    else
      o.args.forEach((a, i) => {
        if (typeof a === 'string') args.push(a);
        else r.problem(`${path}.args[${i}]`, 'must be a string');
      });
  }
  const env: { name: string; value: string }[] = [];
  if (o.env !== undefined && o.env !== null) {
    if (!Array.isArray(o.env)) r.problem(`${path}.env`, 'must be a list of name and value');
    else
      for (const [i, e] of o.env.entries()) {
        const at = `${path}.env[${i}]`;
        if (!isObj(e)) r.problem(at, 'must be an object with name and value');
        else if (typeof e.name !== 'string' || e.name === '')
          r.problem(`${at}.name`, 'env variable name must be specified to use exec authentication plugin');
        else if (e.value !== undefined && e.value !== null && typeof e.value !== 'string')
          r.problem(`${at}.value`, 'must be a string');
        else env.push({ name: e.name, value: typeof e.value === 'string' ? e.value : '' });
      }
  }
  const mode = r.str(o, 'interactiveMode', path);
  if (mode !== undefined && !INTERACTIVE_MODES.includes(mode as InteractiveMode)) {
    r.problem(
      `${path}.interactiveMode`,
      `invalid interactiveMode ${JSON.stringify(mode)}: valid values are ${INTERACTIVE_MODES.join(', ')}`,
    );
  }
  if (mode === undefined && apiVersion?.endsWith('/v1')) {
    r.problem(`${path}.interactiveMode`, 'interactiveMode must be specified to use exec authentication plugin');
  }
  const installHint = r.str(o, 'installHint', path);
  const provideClusterInfo = r.bool(o, 'provideClusterInfo', path);
  if (!command || !apiVersion) return undefined;
  // A path with a separator is relative to this file; a bare name is looked up on PATH.
  const resolved = isAbsolute(command) || !/[\\/]/.test(command) ? command : resolve(dirname(r.file), command);
  return {
    command: resolved,
    args,
    env,
    apiVersion,
    installHint,
    provideClusterInfo,
    interactiveMode: INTERACTIVE_MODES.includes(mode as InteractiveMode) ? (mode as InteractiveMode) : undefined,
  };
}

function readCluster(r: Reader, o: Obj, path: string): ClusterEntry {
  const extensions = new Map<string, unknown>();
  for (const [name, ext] of r.namedList(o, 'extensions', 'extension', `${path}.`)) extensions.set(name, ext.value);
  return {
    server: r.str(o, 'server', path),
    certificateAuthority: r.filePath(o, 'certificate-authority', path),
    certificateAuthorityData: r.str(o, 'certificate-authority-data', path),
    insecureSkipTlsVerify: r.bool(o, 'insecure-skip-tls-verify', path),
    tlsServerName: r.str(o, 'tls-server-name', path),
    proxyUrl: r.str(o, 'proxy-url', path),
    extensions,
    file: r.file,
  };
}

function readUser(r: Reader, o: Obj, path: string): UserEntry {
  let exec: ExecConfig | undefined;
  if (o.exec !== undefined && o.exec !== null) {
    if (isObj(o.exec)) exec = readExec(r, o.exec, `${path}.exec`);
    else r.problem(`${path}.exec`, 'must be an object');
  }
  return {
    token: r.str(o, 'token', path),
    tokenFile: r.filePath(o, 'tokenFile', path),
    clientCertificate: r.filePath(o, 'client-certificate', path),
    clientCertificateData: r.str(o, 'client-certificate-data', path),
    clientKey: r.filePath(o, 'client-key', path),
    clientKeyData: r.str(o, 'client-key-data', path),
    username: r.str(o, 'username', path),
    password: r.str(o, 'password', path),
    exec,
    hasAuthProvider: o['auth-provider'] !== undefined && o['auth-provider'] !== null,
    file: r.file,
  };
}

/**
 * Parses the text of one client configuration file (kubectl's `Config` format). Relative file
 * paths (`certificate-authority`, `client-certificate`, `client-key`, `tokenFile`, an exec
 * `command` with a separator) are resolved against `file`'s directory. Every structural problem
 * is returned with its field path; entries with problems are kept as far as they could be read.
 */
export function parseConfigFile(file: string, text: string): { config: ConfigFile; problems: ConfigProblem[] } {
  const r = new Reader(file);
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    r.problem('', `not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  const empty: ConfigFile = { clusters: new Map(), users: new Map(), contexts: new Map() };
  if (doc === undefined || doc === null) return { config: empty, problems: r.problems };
  if (!isObj(doc)) {
    r.problem('', 'not a client configuration: expected a mapping');
    return { config: empty, problems: r.problems };
  }
  const clusters = new Map<string, ClusterEntry>();
  for (const [name, e] of r.namedList(doc, 'clusters', 'cluster')) clusters.set(name, readCluster(r, e.value, e.path));
  const users = new Map<string, UserEntry>();
  for (const [name, e] of r.namedList(doc, 'users', 'user')) users.set(name, readUser(r, e.value, e.path));
  const contexts = new Map<string, ContextEntry>();
  for (const [name, e] of r.namedList(doc, 'contexts', 'context')) {
    const cluster = r.str(e.value, 'cluster', e.path);
    if (!cluster) r.problem(`${e.path}.cluster`, 'cluster must be specified');
    contexts.set(name, {
      cluster: cluster ?? '',
      user: r.str(e.value, 'user', e.path),
      namespace: r.str(e.value, 'namespace', e.path),
      file,
    });
  }
  const currentContext = r.str(doc, 'current-context', '');
  return { config: { clusters, users, contexts, currentContext }, problems: fixRootPaths(r.problems) };
}

/** `.current-context` → `current-context` (fields of the document root). */
function fixRootPaths(problems: ConfigProblem[]): ConfigProblem[] {
  return problems.map((p) => (p.path.startsWith('.') ? { ...p, path: p.path.slice(1) } : p));
}

/**
 * Merges files as kubectl merges a `KUBECONFIG` list: for clusters, users and contexts the first
 * file that names an entry wins; `current-context` comes from the first file that sets it.
 */
export function mergeConfigFiles(files: readonly ConfigFile[]): ConfigFile {
  const clusters = new Map<string, ClusterEntry>();
  const users = new Map<string, UserEntry>();
  const contexts = new Map<string, ContextEntry>();
  let currentContext: string | undefined;
  for (const f of files) {
    for (const [k, v] of f.clusters) if (!clusters.has(k)) clusters.set(k, v);
    for (const [k, v] of f.users) if (!users.has(k)) users.set(k, v);
    for (const [k, v] of f.contexts) if (!contexts.has(k)) contexts.set(k, v);
    currentContext ??= f.currentContext;
  }
  return { clusters, users, contexts, currentContext };
}
