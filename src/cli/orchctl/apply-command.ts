import { resourceUrlPath } from '../../client/rest/rest-client.js';
import { boolFlag, stringFlag, stringListFlag } from '../flags/flag-spec.js';
import {
  CommandError,
  connectionFlags,
  dryRun,
  dryRunFlag,
  guarded,
  parseCommandFlags,
  serverErrorLine,
  withSession,
} from './cli-session.js';
import type { CommandIo, Subcommand } from './command-io.js';
import { forEachTarget, manifestTargets } from './manifest-targets.js';
import { sessionCatalog } from './resource-catalog.js';

/** The flags of `orchctl apply`. */
export const APPLY_FLAGS = {
  filename: stringListFlag({
    name: 'filename',
    shorthand: 'f',
    usage: 'The files that contain the configurations to apply.',
  }),
  recursive: boolFlag({
    name: 'recursive',
    shorthand: 'R',
    usage: 'Process the directory used in -f, --filename recursively.',
  }),
  serverSide: boolFlag({
    name: 'server-side',
    usage: 'Apply runs in the server. Always true: orchctl applies on the server only.',
    default: true,
  }),
  fieldManager: stringFlag({
    name: 'field-manager',
    usage: 'Name of the manager used to track field ownership.',
    default: 'orchctl',
  }),
  forceConflicts: boolFlag({
    name: 'force-conflicts',
    usage: 'If true, server-side apply will force the changes against conflicts.',
  }),
  dryRun: dryRunFlag(),
  ...connectionFlags(),
};

/** Runs `orchctl apply`. */
export function runApply(argv: readonly string[], io: CommandIo): Promise<number> {
  return guarded(io, async () => {
    const parsed = parseCommandFlags(
      'orchctl apply',
      'Apply a configuration to a resource by file name or stdin, on the server.',
      APPLY_FLAGS,
      argv,
      io,
    );
    if (!parsed) return 0;
    const f = parsed.values;
    if (!f.serverSide)
      throw new CommandError('orchctl applies on the server only: --server-side=false is not supported');
    if (parsed.args.length > 0)
      throw new CommandError(
        `Unexpected args: [${parsed.args.join(' ')}]\nSee 'orchctl apply -h' for help and examples`,
      );
    const dry = dryRun(f.dryRun);
    return withSession(
      f,
      io,
      async (s) => {
        const catalog = await sessionCatalog(s);
        const targets = await manifestTargets(f.filename, f.recursive, catalog, s, io, 'apply');
        return await forEachTarget(
          targets,
          io,
          async (t) => {
            const r = t.resource;
            await s.client.rest.call(
              {
                method: 'PATCH',
                path: resourceUrlPath({
                  group: r.group,
                  version: r.version,
                  resource: r.resource,
                  namespace: t.namespace,
                  name: t.name,
                }),
                query: {
                  fieldManager: f.fieldManager,
                  force: f.forceConflicts ? 'true' : undefined,
                  dryRun: dry.query,
                },
                body: JSON.stringify(t.object),
                contentType: 'application/apply-patch+yaml',
              },
              s.signal,
            );
            io.stdout(`${t.kindName}/${t.name} serverside-applied${dry.suffix}\n`);
          },
          (_t, e) => serverErrorLine(e),
        );
      },
      { fieldManager: f.fieldManager },
    );
  });
}

/** `apply` in orchctl's subcommand table. */
export const applySubcommand: Subcommand = {
  name: 'apply',
  summary: 'Apply a configuration to a resource by file name or stdin (server-side)',
  run: runApply,
};
