/**
 * `orchctl config view|current-context|get-contexts|use-context`: kubectl config's views of the
 * client configuration file. `view` prints the file as kubectl normalizes it (sorted keys,
 * `preferences: {}`, relative paths made absolute) with certificate and key data shown as
 * `DATA+OMITTED` and tokens and passwords as `REDACTED` unless `--raw`; `--minify` keeps the
 * current context only. `use-context` rewrites the file.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { apiDomain } from '../../apis/api-domain.js';
import { isPlainObject } from '../../apis/schema/json-value.js';
import { boolFlag, stringFlag } from '../flags/flag-spec.js';
import { CommandError, connectionFlags, guarded, parseCommandFlags } from './cli-session.js';
import {
  type ConfigDocument,
  configFilePath,
  namedEntries,
  readConfigDocument,
  writeConfigDocument,
} from './client-config-file.js';
import type { CommandIo, Subcommand } from './command-io.js';
import { printObject } from './object-output.js';
import { alignColumns } from './tab-writer.js';

/** The flags of `orchctl config` subcommands. */
export const CONFIG_FLAGS = {
  minify: boolFlag({ name: 'minify', usage: 'Remove all information not used by current-context from the output' }),
  raw: boolFlag({ name: 'raw', usage: 'Display raw byte data and sensitive data' }),
  output: stringFlag({
    name: 'output',
    shorthand: 'o',
    usage: 'Output format. One of: (json, yaml).',
    default: 'yaml',
  }),
  noHeaders: boolFlag({
    name: 'no-headers',
    usage: "When using the default or custom-column output format, don't print headers.",
  }),
  ...connectionFlags(),
};

const DATA_FIELDS = ['certificate-authority-data', 'client-certificate-data', 'client-key-data'];
const SECRET_FIELDS = ['token', 'password'];
const PATH_FIELDS = ['certificate-authority', 'client-certificate', 'client-key', 'tokenFile'];

function section(entry: Record<string, unknown>, key: string): Record<string, unknown> {
  return isPlainObject(entry[key]) ? { ...entry[key] } : {};
}

/** The configuration as `kubectl config view` prints it. */
export function viewOf(
  doc: ConfigDocument,
  file: string,
  o: { raw: boolean; minify: boolean; context: string },
): Record<string, unknown> {
  const fix = (body: Record<string, unknown>) => {
    for (const k of PATH_FIELDS)
      if (typeof body[k] === 'string' && body[k] !== '' && !isAbsolute(body[k] as string))
        body[k] = resolve(dirname(file), body[k] as string);
    if (!o.raw) {
      for (const k of DATA_FIELDS) if (typeof body[k] === 'string' && body[k] !== '') body[k] = 'DATA+OMITTED';
      for (const k of SECRET_FIELDS) if (typeof body[k] === 'string' && body[k] !== '') body[k] = 'REDACTED';
    }
    return body;
  };
  const list = (name: string, key: string) =>
    namedEntries(doc, name).map((e) => ({ [key]: fix(section(e, key)), name: e.name }));
  let clusters = list('clusters', 'cluster');
  let contexts = list('contexts', 'context');
  let users = list('users', 'user');
  let current = typeof doc['current-context'] === 'string' ? (doc['current-context'] as string) : '';
  if (o.minify) {
    current = o.context || current;
    if (!current) throw new CommandError('current-context must exist in order to minify');
    const ctx = contexts.find((c) => c.name === current);
    if (!ctx) throw new CommandError(`cannot locate context ${current}`);
    const c = ctx.context as Record<string, unknown>;
    contexts = [ctx];
    clusters = clusters.filter((x) => x.name === c.cluster);
    users = users.filter((x) => x.name === c.user);
  }
  return {
    apiVersion: 'v1',
    clusters: clusters.length > 0 ? clusters : null,
    contexts: contexts.length > 0 ? contexts : null,
    'current-context': current,
    kind: 'Config',
    preferences: isPlainObject(doc.preferences) ? doc.preferences : {},
    users: users.length > 0 ? users : null,
  };
}

/** Member order of kubectl's Config types, which its JSON output follows. */
const JSON_ORDER: Record<string, readonly string[]> = {
  config: ['kind', 'apiVersion', 'preferences', 'clusters', 'users', 'contexts', 'current-context', 'extensions'],
  cluster: [
    'server',
    'tls-server-name',
    'insecure-skip-tls-verify',
    'certificate-authority',
    'certificate-authority-data',
    'proxy-url',
    'disable-compression',
    'extensions',
  ],
  user: [
    'client-certificate',
    'client-certificate-data',
    'client-key',
    'client-key-data',
    'token',
    'tokenFile',
    'as',
    'as-uid',
    'as-groups',
    'as-user-extra',
    'username',
    'password',
    'auth-provider',
    'exec',
    'extensions',
  ],
  context: ['cluster', 'user', 'namespace', 'extensions'],
};

function ordered(v: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of order) if (k in v) out[k] = v[k];
  for (const k of Object.keys(v).sort()) if (!(k in out)) out[k] = v[k];
  return out;
}

/** The view as `kubectl config view -o json` prints it (members in kubectl's struct order). */
export function viewJson(view: Record<string, unknown>): string {
  const entries = (list: unknown, key: string) =>
    Array.isArray(list)
      ? list.map((e: Record<string, unknown>) => ({
          name: e.name,
          [key]: ordered(e[key] as Record<string, unknown>, JSON_ORDER[key]),
        }))
      : list;
  const top = ordered(
    {
      ...view,
      clusters: entries(view.clusters, 'cluster'),
      users: entries(view.users, 'user'),
      contexts: entries(view.contexts, 'context'),
    },
    JSON_ORDER.config,
  );
  return `${JSON.stringify(top, null, 4)}\n`;
}

/** Runs `orchctl config`. */
export function runConfig(argv: readonly string[], io: CommandIo): Promise<number> {
  return guarded(io, async () => {
    const [sub, ...rest] = argv;
    const known = ['view', 'current-context', 'get-contexts', 'use-context'];
    if (sub === undefined || sub === '--help' || sub === '-h') {
      io.stdout(
        `Modify client configuration files.\n\nAvailable Commands:\n${known.map((k) => `  ${k}\n`).join('')}\nUsage:\n  orchctl config SUBCOMMAND [options]\n`,
      );
      return 0;
    }
    if (!known.includes(sub)) throw new CommandError(`unknown command "${sub}" for "orchctl config"`);
    const parsed = parseCommandFlags(`orchctl config ${sub}`, 'Client configuration.', CONFIG_FLAGS, rest, io);
    if (!parsed) return 0;
    const f = parsed.values;
    const domain = apiDomain(f.apiDomain);
    const file = configFilePath(f.kubeconfig, domain, io);
    const doc = await readConfigDocument(file);
    const current = typeof doc['current-context'] === 'string' ? (doc['current-context'] as string) : '';
    switch (sub) {
      case 'view': {
        if (!['yaml', 'json'].includes(f.output))
          throw new CommandError(
            `unable to match a printer suitable for the output format "${f.output}", allowed formats are: json,yaml`,
          );
        const view = viewOf(doc, file, { raw: f.raw, minify: f.minify, context: f.context });
        io.stdout(f.output === 'json' ? viewJson(view) : printObject(view, 'yaml'));
        return 0;
      }
      case 'current-context':
        if (!current) throw new CommandError('current-context is not set');
        io.stdout(`${current}\n`);
        return 0;
      case 'get-contexts': {
        const entries = namedEntries(doc, 'contexts')
          .filter((e) => parsed.args.length === 0 || parsed.args.includes(String(e.name)))
          .sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));
        for (const a of parsed.args) {
          if (!entries.some((e) => e.name === a)) throw new CommandError(`context ${a} not found`);
        }
        const rows: string[][] = f.noHeaders ? [] : [['CURRENT', 'NAME', 'CLUSTER', 'AUTHINFO', 'NAMESPACE']];
        for (const e of entries) {
          const c = section(e, 'context');
          rows.push([
            e.name === current ? '*' : '',
            String(e.name),
            String(c.cluster ?? ''),
            String(c.user ?? ''),
            String(c.namespace ?? ''),
          ]);
        }
        io.stdout(alignColumns(rows));
        return 0;
      }
      default: {
        const name = parsed.args[0];
        if (parsed.args.length !== 1 || !name) throw new CommandError('Unexpected args: []');
        if (!namedEntries(doc, 'contexts').some((e) => e.name === name))
          throw new CommandError(`no context exists with the name: "${name}"`);
        await writeConfigDocument(file, { ...doc, 'current-context': name });
        io.stdout(`Switched to context "${name}".\n`);
        return 0;
      }
    }
  });
}

/** `config` in orchctl's subcommand table. */
export const configSubcommand: Subcommand = {
  name: 'config',
  summary: 'Modify client configuration files',
  run: runConfig,
};
