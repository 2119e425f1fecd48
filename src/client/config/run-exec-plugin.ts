import { spawn } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { ApiDomain } from '../../apis/api-domain.js';
import type { ExecConfig } from './client-config-file.js';
import type { ExecCluster, ExecRuntime } from './exec-credential-provider.js';

/** A failed plugin run, worded as client-go words it; never holds the credential. */
export class ExecPluginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExecPluginError';
  }
}

/** What one plugin run returned. */
export interface ExecResult {
  readonly token?: string;
  readonly cert?: string;
  readonly key?: string;
  /** From `status.expirationTimestamp`; absent: valid until a 401. */
  readonly expiresAt?: number;
}

/** Shown after "not found" (client-go prints a comparable note). */
const INSTALL_HINT_HELP =
  '\n\nIt looks like you are trying to use a client credential plugin that is not installed.' +
  '\n\nTo learn more about this feature, read about client credential plugins in the authentication documentation.';

/** Whether the plugin gets standard input (`spec.interactive`), by the interactiveMode rules. */
export function interactiveFor(exec: ExecConfig, stdinIsTerminal: boolean): boolean {
  switch (exec.interactiveMode ?? 'IfAvailable') {
    case 'Never':
      return false;
    case 'IfAvailable':
      return stdinIsTerminal;
    case 'Always':
      if (!stdinIsTerminal)
        throw new ExecPluginError('exec plugin cannot support interactive mode: standard input is not a terminal');
      return true;
  }
}

/** The ExecCredential request put in `<PRODUCT>_EXEC_INFO`. */
export function execCredentialRequest(exec: ExecConfig, cluster: ExecCluster, interactive: boolean): unknown {
  const spec: Record<string, unknown> = { interactive };
  if (exec.provideClusterInfo) {
    const c: Record<string, unknown> = { server: cluster.server };
    if (cluster.tlsServerName) c['tls-server-name'] = cluster.tlsServerName;
    if (cluster.insecureSkipTlsVerify) c['insecure-skip-tls-verify'] = true;
    if (cluster.certificateAuthorityData)
      c['certificate-authority-data'] = Buffer.from(cluster.certificateAuthorityData).toString('base64');
    if (cluster.config !== undefined) c.config = cluster.config;
    spec.cluster = c;
  }
  return { kind: 'ExecCredential', apiVersion: exec.apiVersion, spec };
}

/** Runs the plugin once and checks its answer. */
export async function runExecPlugin(o: {
  readonly exec: ExecConfig;
  readonly domain: ApiDomain;
  readonly cluster: ExecCluster;
  readonly runtime: ExecRuntime;
}): Promise<ExecResult> {
  const { exec, runtime } = o;
  const interactive = interactiveFor(exec, (runtime.stdinIsTerminal ?? (() => process.stdin.isTTY === true))());
  const env: Record<string, string | undefined> = { ...(runtime.environ ?? process.env) };
  for (const e of exec.env) env[e.name] = e.value;
  env[o.domain.envVar('EXEC_INFO')] = JSON.stringify(execCredentialRequest(exec, o.cluster, interactive));
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn(exec.command, [...exec.args], {
      env,
      stdio: [interactive ? 'inherit' : 'ignore', 'pipe', runtime.stderr ?? 'inherit'],
    });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') {
        const hint = exec.installHint ? `\n\n${exec.installHint}` : '';
        reject(new ExecPluginError(`exec: executable ${exec.command} not found${INSTALL_HINT_HELP}${hint}`));
      } else reject(new ExecPluginError(`exec: cannot start ${exec.command}: ${e.code ?? 'error'}`));
    });
    child.on('close', (code, sig) => {
      if (code === 0) resolve(Buffer.concat(chunks).toString('utf8'));
      else
        reject(new ExecPluginError(`exec: executable ${exec.command} failed with exit code ${code ?? (sig ? -1 : 1)}`));
    });
  });
  return decodeExecCredential(exec.apiVersion, stdout);
}

/**
 * Checks a plugin's standard output: an ExecCredential of the configured version with a token
 * or a certificate and key pair. Errors never quote the output (it holds the credential).
 */
export function decodeExecCredential(apiVersion: string, stdout: string): ExecResult {
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch {
    throw new ExecPluginError('decoding stdout: the plugin did not print a JSON ExecCredential');
  }
  const d = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
  if (typeof d.apiVersion !== 'string' || d.apiVersion === '' || d.kind !== 'ExecCredential') {
    throw new ExecPluginError(`decoding stdout: couldn't get version/kind of an ExecCredential`);
  }
  if (d.apiVersion !== apiVersion)
    throw new ExecPluginError(
      `exec plugin is configured to use API version ${apiVersion}, plugin returned version ${d.apiVersion}`,
    );
  const s = d.status;
  if (typeof s !== 'object' || s === null) throw new ExecPluginError(`exec plugin didn't return a status field`);
  const st = s as Record<string, unknown>;
  const str = (k: string) => {
    const v = st[k];
    if (v !== undefined && v !== null && typeof v !== 'string')
      throw new ExecPluginError(`decoding stdout: status.${k} must be a string`);
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const token = str('token');
  const cert = str('clientCertificateData');
  const key = str('clientKeyData');
  if (!token && !cert && !key) throw new ExecPluginError(`exec plugin didn't return a token or cert/key pair`);
  if (!cert !== !key) throw new ExecPluginError('exec plugin returned only certificate or key, not both');
  if (cert && key) {
    try {
      new X509Certificate(cert);
      createPrivateKey(key);
    } catch {
      throw new ExecPluginError('failed parsing client key/certificate: not a PEM certificate and private key');
    }
  }
  const exp = str('expirationTimestamp');
  let expiresAt: number | undefined;
  if (exp !== undefined) {
    expiresAt = Date.parse(exp);
    if (!Number.isFinite(expiresAt) || !/^\d{4}-\d\d-\d\dT/.test(exp))
      throw new ExecPluginError(`decoding stdout: status.expirationTimestamp ${JSON.stringify(exp)} is not RFC 3339`);
  }
  return { token, cert, key, expiresAt };
}
