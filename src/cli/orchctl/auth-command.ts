/**
 * `orchctl auth can-i VERB TYPE[/NAME] | NONRESOURCEURL` (a SelfSubjectAccessReview; prints
 * `yes`, or `no` with the server's reason, exit code 0 or 1 as kubectl) and `orchctl auth whoami`
 * (a SelfSubjectReview; kubectl's ATTRIBUTE/VALUE table or `-o yaml|json`). Both reach the
 * `authorization` and `authentication` groups of the server's domain.
 */
import { boolFlag, stringFlag } from '../flags/flag-spec.js';
import { formatRulesReview, type RulesReviewStatus } from './can-i-list.js';
import {
  CommandError,
  connectionFlags,
  guarded,
  parseCommandFlags,
  type SessionFlags,
  withSession,
} from './cli-session.js';
import type { CommandIo, Subcommand } from './command-io.js';
import { printObject } from './object-output.js';
import { findResource, sessionCatalog } from './resource-catalog.js';
import { alignColumns } from './tab-writer.js';

/** The flags of `orchctl auth can-i`. */
export const CAN_I_FLAGS = {
  allNamespaces: boolFlag({
    name: 'all-namespaces',
    shorthand: 'A',
    usage: 'If true, check the specified action in all namespaces.',
  }),
  subresource: stringFlag({ name: 'subresource', usage: 'SubResource such as pod/log or deployment/scale' }),
  list: boolFlag({ name: 'list', usage: 'If true, prints all allowed actions.' }),
  noHeaders: boolFlag({ name: 'no-headers', usage: 'If true, prints allowed actions without headers' }),
  quiet: boolFlag({ name: 'quiet', shorthand: 'q', usage: 'If true, suppress output and just return the exit code.' }),
  ...connectionFlags(),
};

/** The flags of `orchctl auth whoami`. */
export const WHOAMI_FLAGS = {
  output: stringFlag({ name: 'output', shorthand: 'o', usage: 'Output format. One of: (json, yaml).' }),
  ...connectionFlags(),
};

interface AccessReview {
  status?: { allowed?: boolean; reason?: string; evaluationError?: string };
}

async function canI(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandFlags('orchctl auth can-i', 'Check whether an action is allowed.', CAN_I_FLAGS, argv, io);
  if (!parsed) return 0;
  const f = parsed.values;
  const args = parsed.args;
  if (f.list) return listRules(f, args, io);
  if (args.length < 2)
    throw new CommandError('you must specify two arguments: verb resource or verb resource/resourceName.');
  if (args.length > 2) throw new CommandError(`too many arguments: [${args.join(' ')}]`);
  const [verb, target] = args as [string, string];
  return withSession(f, io, async (s) => {
    let spec: Record<string, unknown>;
    if (target.startsWith('/')) {
      spec = { nonResourceAttributes: { verb, path: target } };
    } else {
      const slash = target.indexOf('/');
      const type = slash >= 0 ? target.slice(0, slash) : target;
      const name = slash >= 0 ? target.slice(slash + 1) : '';
      const catalog = await sessionCatalog(s);
      const r = findResource(catalog, type);
      let group = '';
      let resource = type;
      if (r) {
        group = r.group;
        resource = r.resource;
        if (!r.namespaced && !f.allNamespaces && s.namespace !== '') {
          const inGroup = r.group ? ` in group '${r.group}'` : '';
          io.stderr(`Warning: resource '${r.resource}' is not namespace scoped${inGroup}\n\n`);
        }
      } else {
        io.stderr(`Warning: the server doesn't have a resource type '${type}'\n\n`);
        const dot = type.indexOf('.');
        if (dot >= 0) [resource, group] = [type.slice(0, dot), type.slice(dot + 1)];
      }
      spec = {
        resourceAttributes: {
          namespace: f.allNamespaces ? '' : s.namespace,
          verb,
          group,
          resource,
          subresource: f.subresource,
          name,
        },
      };
    }
    const review = await s.client.rest.call<AccessReview>(
      {
        method: 'POST',
        path: `/apis/${s.domain.group('authorization')}/v1/selfsubjectaccessreviews`,
        body: {
          kind: 'SelfSubjectAccessReview',
          apiVersion: `${s.domain.group('authorization')}/v1`,
          metadata: {},
          spec,
        },
      },
      s.signal,
    );
    const allowed = review.status?.allowed === true;
    if (!f.quiet) {
      if (allowed) io.stdout('yes\n');
      else {
        let line = 'no';
        if (review.status?.reason) line += ` - ${review.status.reason}`;
        if (review.status?.evaluationError) line += ` - ${review.status.evaluationError}`;
        io.stdout(`${line}\n`);
      }
    }
    return allowed ? 0 : 1;
  });
}

async function listRules(
  f: SessionFlags & { readonly noHeaders: boolean },
  args: readonly string[],
  io: CommandIo,
): Promise<number> {
  if (args.length > 0) throw new CommandError('list option must be specified with no arguments');
  return withSession(f, io, async (s) => {
    const group = s.domain.group('authorization');
    const review = await s.client.rest.call<{ status?: RulesReviewStatus }>(
      {
        method: 'POST',
        path: `/apis/${group}/v1/selfsubjectrulesreviews`,
        body: {
          kind: 'SelfSubjectRulesReview',
          apiVersion: `${group}/v1`,
          metadata: {},
          spec: { namespace: s.namespace },
        },
      },
      s.signal,
    );
    const status = review.status ?? {};
    if (status.incomplete) io.stderr(`warning: the list may be incomplete: ${status.evaluationError ?? ''}\n`);
    io.stdout(formatRulesReview(status, { headers: !f.noHeaders }));
    return 0;
  });
}

interface SelfSubjectReview {
  status?: { userInfo?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> } };
}

async function whoami(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandFlags(
    'orchctl auth whoami',
    'Show the subject attributes of the current user.',
    WHOAMI_FLAGS,
    argv,
    io,
  );
  if (!parsed) return 0;
  const f = parsed.values;
  if (!['', 'yaml', 'json'].includes(f.output)) {
    throw new CommandError(
      `unable to match a printer suitable for the output format "${f.output}", allowed formats are: json,yaml`,
    );
  }
  return withSession(f, io, async (s) => {
    const group = s.domain.group('authentication');
    const review = await s.client.rest.call<SelfSubjectReview>(
      {
        method: 'POST',
        path: `/apis/${group}/v1/selfsubjectreviews`,
        body: { kind: 'SelfSubjectReview', apiVersion: `${group}/v1`, metadata: { creationTimestamp: null } },
      },
      s.signal,
    );
    if (f.output === 'json') {
      io.stdout(`${JSON.stringify(review, null, 4)}\n`);
      return 0;
    }
    if (f.output === 'yaml') {
      io.stdout(printObject(review, 'yaml'));
      return 0;
    }
    const u = review.status?.userInfo ?? {};
    const rows: string[][] = [['ATTRIBUTE', 'VALUE']];
    if (u.username) rows.push(['Username', u.username]);
    if (u.uid) rows.push(['UID', u.uid]);
    if (u.groups && u.groups.length > 0) rows.push(['Groups', `[${u.groups.join(' ')}]`]);
    for (const k of Object.keys(u.extra ?? {}).sort())
      rows.push([`Extra: ${k}`, `[${(u.extra?.[k] ?? []).join(' ')}]`]);
    io.stdout(alignColumns(rows));
    return 0;
  });
}

/** Runs `orchctl auth`. */
export function runAuth(argv: readonly string[], io: CommandIo): Promise<number> {
  return guarded(io, async () => {
    const [sub, ...rest] = argv;
    if (sub === 'can-i') return canI(rest, io);
    if (sub === 'whoami') return whoami(rest, io);
    if (sub === undefined || sub === '--help' || sub === '-h') {
      io.stdout(
        'Inspect authorization.\n\nAvailable Commands:\n  can-i    Check whether an action is allowed\n  whoami   Experimental: Check self subject attributes\n\nUsage:\n  orchctl auth [flags] [options]\n',
      );
      return 0;
    }
    throw new CommandError(`unknown command "${sub}" for "orchctl auth"`);
  });
}

/** `auth` in orchctl's subcommand table. */
export const authSubcommand: Subcommand = {
  name: 'auth',
  summary: 'Inspect authorization',
  run: runAuth,
};
