/**
 * What every server-facing orchctl subcommand shares: kubectl's connection flags
 * (`--kubeconfig`, `--context`, `-n/--namespace`, plus `--api-domain`), flag parsing with
 * kubectl's error lines, a connected {@link HttpApiClient}, and errors printed as kubectl prints
 * them (`Error from server (NotFound): …`, exit code 1).
 */
import { type ApiDomain, type ApiDomainName, apiDomain } from '../../apis/api-domain.js';
import { StatusError } from '../../apis/meta/status.js';
import { HttpApiClient } from '../../client/api/http-api-client.js';
import { clientApiDomainFlag } from '../flags/client-api-domain-flag.js';
import { FlagError } from '../flags/errors.js';
import { type FlagTable, type ParsedFlags, parseFlags } from '../flags/flag-parser.js';
import { enumFlag, stringFlag } from '../flags/flag-spec.js';
import { formatHelp } from '../flags/flag-usage.js';
import { configFilePath, contextNamespace, loadRestConfig, readConfigDocument } from './client-config-file.js';
import type { CommandIo } from './command-io.js';

/** The connection flags of every server-facing subcommand. */
export function connectionFlags() {
  return {
    kubeconfig: stringFlag({
      name: 'kubeconfig',
      usage: 'Path to the client configuration file to use for CLI requests.',
    }),
    context: stringFlag({ name: 'context', usage: 'The name of the client configuration context to use' }),
    namespace: stringFlag({
      name: 'namespace',
      shorthand: 'n',
      usage: 'If present, the namespace scope for this CLI request',
    }),
    apiDomain: clientApiDomainFlag(),
  };
}

/** kubectl's `--dry-run` of writing commands; orchctl has no client-side mode. */
export function dryRunFlag() {
  return enumFlag({
    name: 'dry-run',
    values: ['none', 'server', 'client'] as const,
    default: 'none',
    usage:
      'Must be "none" or "server". If server strategy, submit server-side request without persisting the resource.',
  });
}

/**
 * The `dryRun` query parameter and output suffix of a `--dry-run` value.
 * @throws CommandError for `client`, which orchctl does not implement.
 */
export function dryRun(value: 'none' | 'server' | 'client'): { query: string | undefined; suffix: string } {
  if (value === 'client') throw new CommandError('orchctl has no client-side dry run: use --dry-run=server');
  return value === 'server' ? { query: 'All', suffix: ' (server dry run)' } : { query: undefined, suffix: '' };
}

/** A flag problem: its message is printed as is (kubectl's `Error: unknown flag: …` and usage hint). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure printed as `error: <message>` (kubectl's non-server errors). */
export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

/**
 * Parses `argv` against `table`; prints help (and returns undefined) for `--help`.
 * @throws UsageError for a bad flag.
 */
export function parseCommandFlags<T extends FlagTable>(
  command: string,
  description: string,
  table: T,
  argv: readonly string[],
  io: CommandIo,
): ParsedFlags<T> | undefined {
  let parsed: ParsedFlags<T>;
  try {
    parsed = parseFlags(table, argv);
  } catch (e) {
    if (e instanceof FlagError) throw new UsageError(`Error: ${e.message}\nSee '${command} --help' for usage.`);
    throw e;
  }
  if (parsed.help) {
    io.stdout(formatHelp({ command, description, table }));
    return undefined;
  }
  return parsed;
}

/** A connected client and what the flags and configuration file decided. */
export interface Session {
  readonly client: HttpApiClient;
  readonly domain: ApiDomain;
  /** `-n`, else the context's namespace, else `default`. */
  readonly namespace: string;
  /** `-n` was given. */
  readonly explicitNamespace: boolean;
  readonly signal: AbortSignal;
}

/** Flags of {@link openSession}. */
export interface SessionFlags {
  readonly kubeconfig: string;
  readonly context: string;
  readonly namespace: string;
  readonly apiDomain: ApiDomainName;
}

/** Connects as the configuration file's context says; the caller closes `session.client`. */
export async function openSession(
  flags: SessionFlags,
  io: CommandIo,
  o: { readonly fieldManager?: string; readonly signal?: AbortSignal } = {},
): Promise<Session> {
  const domain = apiDomain(flags.apiDomain);
  const file = configFilePath(flags.kubeconfig, domain, io);
  const config = await loadRestConfig(file, flags.context).catch((e: Error) => {
    throw new CommandError(e.message);
  });
  const doc = await readConfigDocument(file);
  const signal = o.signal ?? new AbortController().signal;
  const client = await HttpApiClient.connect(
    { config, domain, fieldManager: o.fieldManager ?? 'orchctl', discoveryPeriodMs: 0, userAgent: 'orchctl/v1.32.0' },
    signal,
  );
  return {
    client,
    domain,
    namespace: flags.namespace || contextNamespace(doc, flags.context),
    explicitNamespace: flags.namespace !== '',
    signal,
  };
}

/** Runs `run` with a session opened as {@link openSession} does, closing its client after. */
export async function withSession<T>(
  flags: SessionFlags,
  io: CommandIo,
  run: (s: Session) => Promise<T>,
  o: { readonly fieldManager?: string; readonly signal?: AbortSignal } = {},
): Promise<T> {
  const s = await openSession(flags, io, o);
  try {
    return await run(s);
  } finally {
    s.client.close();
  }
}

/** kubectl's line for a server error: `Error from server (<Reason>): <message>`. */
export function serverErrorLine(e: StatusError): string {
  return e.reason ? `Error from server (${e.reason}): ${e.message}` : `Error from server: ${e.message}`;
}

/** `host:port` of a refused connection, else undefined. */
function refused(e: unknown): string | undefined {
  const err = e as { code?: string; address?: string; port?: number } | undefined;
  return err?.code === 'ECONNREFUSED' && err.address ? `${err.address}:${err.port}` : undefined;
}

/** Prints `e` as kubectl does and returns the exit code (1). */
export function reportError(io: CommandIo, e: unknown): number {
  if (e instanceof StatusError) io.stderr(`${serverErrorLine(e)}\n`);
  else if (e instanceof UsageError) io.stderr(`${e.message}\n`);
  else if (e instanceof CommandError) io.stderr(`error: ${e.message}\n`);
  else if (refused(e)) {
    io.stderr(`The connection to the server ${refused(e)} was refused - did you specify the right host or port?\n`);
  } else io.stderr(`error: ${e instanceof Error ? e.message : String(e)}\n`);
  return 1;
}

/** Runs `body` and turns its errors into kubectl's output and exit code. */
export async function guarded(io: CommandIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    return reportError(io, e);
  }
}
