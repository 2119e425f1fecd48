/**
 * `orchctl create -f FILE` (`<kind>/<name> created`, kubectl's `error when creating "<file>": …`)
 * and `orchctl create token SERVICEACCOUNT` (a TokenRequest; prints the token).
 */
import { StatusError } from '../../apis/meta/status.js';
import { resourceUrlPath } from '../../client/rest/rest-client.js';
import { boolFlag, durationFlag, stringListFlag } from '../flags/flag-spec.js';
import {
  CommandError,
  connectionFlags,
  dryRun,
  dryRunFlag,
  guarded,
  parseCommandFlags,
  withSession,
} from './cli-session.js';
import type { CommandIo, Subcommand } from './command-io.js';
import { forEachTarget, manifestTargets } from './manifest-targets.js';
import { sessionCatalog } from './resource-catalog.js';

/** The flags of `orchctl create -f`. */
export const CREATE_FLAGS = {
  filename: stringListFlag({
    name: 'filename',
    shorthand: 'f',
    usage: 'Filename, directory, or URL to files to use to create the resource',
  }),
  recursive: boolFlag({
    name: 'recursive',
    shorthand: 'R',
    usage: 'Process the directory used in -f, --filename recursively.',
  }),
  dryRun: dryRunFlag(),
  ...connectionFlags(),
};

/** The flags of `orchctl create token`. */
export const CREATE_TOKEN_FLAGS = {
  duration: durationFlag({
    name: 'duration',
    usage: 'Requested lifetime of the issued token. The server may return a token with a longer or shorter lifetime.',
    default: 0,
  }),
  audience: stringListFlag({ name: 'audience', usage: 'Audience of the requested token.' }),
  ...connectionFlags(),
};

async function createFromFiles(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandFlags(
    'orchctl create',
    'Create a resource from a file or from stdin.',
    CREATE_FLAGS,
    argv,
    io,
  );
  if (!parsed) return 0;
  const f = parsed.values;
  if (parsed.args.length > 0) throw new CommandError(`unknown command "${parsed.args[0]}" for "orchctl create"`);
  const dry = dryRun(f.dryRun);
  return withSession(f, io, async (s) => {
    const catalog = await sessionCatalog(s);
    const targets = await manifestTargets(f.filename, f.recursive, catalog, s, io, 'create');
    return await forEachTarget(
      targets,
      io,
      async (t) => {
        const r = t.resource;
        await s.client.rest.call(
          {
            method: 'POST',
            path: resourceUrlPath({ group: r.group, version: r.version, resource: r.resource, namespace: t.namespace }),
            query: { fieldManager: 'orchctl-create', dryRun: dry.query },
            body: t.namespace ? { ...t.object, metadata: { ...t.object.metadata, namespace: t.namespace } } : t.object,
          },
          s.signal,
        );
        io.stdout(`${t.kindName}/${t.name} created${dry.suffix}\n`);
      },
      (t, e) => `Error from server${e.reason ? ` (${e.reason})` : ''}: error when creating "${t.source}": ${e.message}`,
    );
  });
}

async function createToken(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandFlags(
    'orchctl create token',
    'Request a service account token.',
    CREATE_TOKEN_FLAGS,
    argv,
    io,
  );
  if (!parsed) return 0;
  const f = parsed.values;
  if (parsed.args.length !== 1) throw new CommandError('token expects exactly one argument: the service account name');
  return withSession(f, io, async (s) => {
    const seconds = Math.round(f.duration / 1000);
    if (f.duration < 0) throw new CommandError('--duration must be greater than or equal to 0');
    if (f.duration % 1000 !== 0) throw new CommandError('--duration must be an even number of seconds');
    const spec: Record<string, unknown> = { audiences: [...f.audience] };
    if (seconds > 0) spec.expirationSeconds = seconds;
    let out: { status?: { token?: string } };
    try {
      out = await s.client.rest.call(
        {
          method: 'POST',
          path: `${resourceUrlPath({ group: '', version: 'v1', resource: 'serviceaccounts', namespace: s.namespace, name: parsed.args[0] })}/token`,
          body: { apiVersion: `${s.domain.group('authentication')}/v1`, kind: 'TokenRequest', metadata: {}, spec },
        },
        s.signal,
      );
    } catch (e) {
      if (e instanceof StatusError) throw new CommandError(`failed to create token: ${e.message}`);
      throw e;
    }
    const token = out.status?.token;
    if (!token) throw new CommandError('failed to create token: no token in response');
    io.stdout(`${token}\n`);
    return 0;
  });
}

/** Runs `orchctl create`. */
export function runCreate(argv: readonly string[], io: CommandIo): Promise<number> {
  return guarded(io, () => (argv[0] === 'token' ? createToken(argv.slice(1), io) : createFromFiles(argv, io)));
}

/** `create` in orchctl's subcommand table. */
export const createSubcommand: Subcommand = {
  name: 'create',
  summary: 'Create a resource from a file or from stdin, or a service account token',
  run: runCreate,
};
