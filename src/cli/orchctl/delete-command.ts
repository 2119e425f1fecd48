/**
 * `orchctl delete TYPE NAME...`, `TYPE/NAME...` or `-f FILE`: kubectl delete's messages
 * (`configmap "a" deleted`, `error when deleting "<file>": …`) and `--cascade`
 * (background, foreground, orphan). With `--wait` (the default) it returns once each object is
 * gone, finalizers included, as kubectl does (by reading the object again every
 * {@link WAIT_POLL_MS} ms rather than by a watch).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { resourceUrlPath } from '../../client/rest/rest-client.js';
import { boolFlag, enumFlag, stringListFlag } from '../flags/flag-spec.js';
import {
  CommandError,
  connectionFlags,
  dryRun,
  dryRunFlag,
  guarded,
  parseCommandFlags,
  type Session,
  withSession,
} from './cli-session.js';
import type { CommandIo, Subcommand } from './command-io.js';
import { forEachTarget, manifestTargets } from './manifest-targets.js';
import { type CatalogResource, kindName, resolveResource, sessionCatalog } from './resource-catalog.js';

const CASCADE = { background: 'Background', foreground: 'Foreground', orphan: 'Orphan' } as const;

/** The flags of `orchctl delete`. */
export const DELETE_FLAGS = {
  filename: stringListFlag({ name: 'filename', shorthand: 'f', usage: 'containing the resource to delete.' }),
  recursive: boolFlag({
    name: 'recursive',
    shorthand: 'R',
    usage: 'Process the directory used in -f, --filename recursively.',
  }),
  cascade: enumFlag({
    name: 'cascade',
    values: ['background', 'foreground', 'orphan'] as const,
    default: 'background',
    usage: 'Must be "background", "orphan", or "foreground". Defaults to background.',
  }),
  wait: boolFlag({
    name: 'wait',
    usage: 'If true, wait for resources to be gone before returning. This waits for finalizers.',
    default: true,
  }),
  dryRun: dryRunFlag(),
  ...connectionFlags(),
};

/** How often `--wait` reads a deleted object again. */
export const WAIT_POLL_MS = 250;

/** Resolves once the object at `path` is gone or replaced by another of the same name (another uid). */
async function waitGone(s: Session, path: string, uid: string | undefined): Promise<void> {
  for (;;) {
    try {
      const now = await s.client.rest.call<ApiObject>({ method: 'GET', path }, s.signal);
      if (uid && now.metadata?.uid !== uid) return;
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return;
      throw e;
    }
    await sleep(WAIT_POLL_MS, undefined, { signal: s.signal });
  }
}

interface Target {
  readonly resource: CatalogResource;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly source?: string;
}

function argTargets(catalog: readonly CatalogResource[], args: readonly string[], s: Session): Target[] {
  const ns = (r: CatalogResource) => (r.namespaced ? s.namespace : undefined);
  if (args.length === 0) {
    throw new CommandError(
      "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'",
    );
  }
  if (args[0].includes('/')) {
    return args.map((a) => {
      const r = resolveResource(catalog, a.slice(0, a.indexOf('/')));
      return { resource: r, namespace: ns(r), name: a.slice(a.indexOf('/') + 1) };
    });
  }
  const [type, ...names] = args;
  const r = resolveResource(catalog, type);
  if (names.length === 0) throw new CommandError('resource(s) were provided, but no name was specified');
  return names.map((name) => ({ resource: r, namespace: ns(r), name }));
}

/** Runs `orchctl delete`. */
export function runDelete(argv: readonly string[], io: CommandIo): Promise<number> {
  return guarded(io, async () => {
    const parsed = parseCommandFlags(
      'orchctl delete',
      'Delete resources by file names, stdin, or resources and names.',
      DELETE_FLAGS,
      argv,
      io,
    );
    if (!parsed) return 0;
    const f = parsed.values;
    const dry = dryRun(f.dryRun);
    return withSession(f, io, async (s) => {
      const catalog = await sessionCatalog(s);
      let targets: Target[];
      if (f.filename.length > 0) {
        if (parsed.args.length > 0) throw new CommandError(`Unexpected args: [${parsed.args.join(' ')}]`);
        targets = (await manifestTargets(f.filename, f.recursive, catalog, s, io, 'delete')).map((t) => ({
          ...t,
          source: t.source,
        }));
      } else {
        targets = argTargets(catalog, parsed.args, s);
      }
      if (s.explicitNamespace && targets.some((t) => !t.resource.namespaced)) {
        io.stderr('Warning: deleting cluster-scoped resources, not scoped to the provided namespace\n');
      }
      return await forEachTarget(
        targets,
        io,
        async (t) => {
          const r = t.resource;
          const path = resourceUrlPath({
            group: r.group,
            version: r.version,
            resource: r.resource,
            namespace: t.namespace,
            name: t.name,
          });
          const answer = await s.client.rest.call<ApiObject>(
            {
              method: 'DELETE',
              path,
              body: {
                kind: 'DeleteOptions',
                apiVersion: 'v1',
                propagationPolicy: CASCADE[f.cascade],
                ...(dry.query ? { dryRun: [dry.query] } : {}),
              },
            },
            s.signal,
          );
          io.stdout(`${kindName(r.kind, r.group)} "${t.name}" deleted${dry.suffix}\n`);
          if (f.wait && !dry.query && answer.kind !== 'Status') await waitGone(s, path, answer.metadata?.uid);
        },
        (t, e) => {
          const where = t.source ? `error when deleting "${t.source}": ` : '';
          return `Error from server${e.reason ? ` (${e.reason})` : ''}: ${where}${e.message}`;
        },
      );
    });
  });
}

/** `delete` in orchctl's subcommand table. */
export const deleteSubcommand: Subcommand = {
  name: 'delete',
  summary: 'Delete resources by file names, stdin, resources and names',
  run: runDelete,
};
