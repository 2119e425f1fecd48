/**
 * `orchctl patch TYPE NAME -p PATCH [--type strategic|merge|json]` (or `TYPE/NAME`; the patch in
 * JSON or YAML, as kubectl takes it): reads the
 * object, patches it and prints `<kind>/<name> patched`, or `patched (no change)` when the object
 * came back unchanged, as kubectl does (kubectl 1.32 adds no dry-run suffix to it either).
 */
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml } from 'yaml';
import type { ApiObject } from '../../apis/object.js';
import { resourceUrlPath } from '../../client/rest/rest-client.js';
import { enumFlag, stringFlag } from '../flags/flag-spec.js';
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
import { kindName, resolveResource, sessionCatalog } from './resource-catalog.js';

const MEDIA = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
} as const;

/** The flags of `orchctl patch`. */
export const PATCH_FLAGS = {
  patch: stringFlag({ name: 'patch', shorthand: 'p', usage: 'The patch to be applied to the resource JSON file.' }),
  type: enumFlag({
    name: 'type',
    values: ['json', 'merge', 'strategic'] as const,
    default: 'strategic',
    usage: 'The type of patch being provided; one of [json merge strategic]',
  }),
  subresource: stringFlag({
    name: 'subresource',
    usage: 'If specified, patch will operate on the subresource of the requested object.',
  }),
  dryRun: dryRunFlag(),
  ...connectionFlags(),
};

/** Runs `orchctl patch`. */
export function runPatch(argv: readonly string[], io: CommandIo): Promise<number> {
  return guarded(io, async () => {
    const parsed = parseCommandFlags(
      'orchctl patch',
      'Update fields of a resource using a patch.',
      PATCH_FLAGS,
      argv,
      io,
    );
    if (!parsed) return 0;
    const f = parsed.values;
    if (f.patch === '') throw new CommandError('must specify -p to patch');
    // JSON is sent as given (the server judges it); YAML is turned into JSON first.
    let body: string;
    const text = f.patch.trim();
    if (text.startsWith('{') || text.startsWith('[')) body = f.patch;
    else {
      try {
        body = JSON.stringify(parseYaml(f.patch));
      } catch (e) {
        throw new CommandError(`unable to parse "${f.patch}": ${(e as Error).message.split('\n')[0]}`);
      }
    }
    const args = parsed.args;
    let type: string;
    let name: string;
    if (args.length === 1 && args[0].includes('/'))
      [type, name] = [args[0].slice(0, args[0].indexOf('/')), args[0].slice(args[0].indexOf('/') + 1)];
    else if (args.length === 2) [type, name] = args as [string, string];
    else throw new CommandError('exactly one identifying resource is required to patch');
    const dry = dryRun(f.dryRun);
    return withSession(f, io, async (s) => {
      const catalog = await sessionCatalog(s);
      const r = resolveResource(catalog, type);
      const path = resourceUrlPath({
        group: r.group,
        version: r.version,
        resource: r.resource,
        namespace: r.namespaced ? s.namespace : undefined,
        name,
      });
      const full = f.subresource ? `${path}/${f.subresource}` : path;
      const before = await s.client.rest.call<ApiObject>({ method: 'GET', path: full }, s.signal);
      const after = await s.client.rest.call<ApiObject>(
        {
          method: 'PATCH',
          path: full,
          query: { fieldManager: 'orchctl-patch', dryRun: dry.query },
          body,
          contentType: MEDIA[f.type],
        },
        s.signal,
      );
      const unchanged = isDeepStrictEqual(before, after);
      io.stdout(`${kindName(r.kind, r.group)}/${name} patched${unchanged ? ' (no change)' : ''}\n`);
      return 0;
    });
  });
}

/** `patch` in orchctl's subcommand table. */
export const patchSubcommand: Subcommand = {
  name: 'patch',
  summary: 'Update fields of a resource',
  run: runPatch,
};
