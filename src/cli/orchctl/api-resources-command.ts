/**
 * `orchctl api-resources`: kubectl's listing of the server's preferred resources (NAME,
 * SHORTNAMES, APIVERSION, NAMESPACED, KIND; `-o wide` adds VERBS and CATEGORIES; `-o name`),
 * sorted by group and then name as kubectl sorts them, with `--api-group`, `--namespaced`, `--verbs` and
 * `--no-headers`.
 */
import { boolFlag, stringFlag, stringListFlag } from '../flags/flag-spec.js';
import { CommandError, connectionFlags, guarded, parseCommandFlags, withSession } from './cli-session.js';
import type { CommandIo, Subcommand } from './command-io.js';
import { apiVersionOf, type CatalogResource, sessionCatalog } from './resource-catalog.js';
import { alignColumns } from './tab-writer.js';

/** The flags of `orchctl api-resources`. */
export const API_RESOURCES_FLAGS = {
  output: stringFlag({ name: 'output', shorthand: 'o', usage: 'Output format. One of: (wide, name).' }),
  apiGroup: stringFlag({ name: 'api-group', usage: 'Limit to resources in the specified API group.' }),
  namespaced: boolFlag({
    name: 'namespaced',
    usage: 'If false, non-namespaced resources will be returned, otherwise returning namespaced resources by default.',
    default: true,
  }),
  verbs: stringListFlag({ name: 'verbs', usage: 'Limit to resources that support the specified verbs.' }),
  noHeaders: boolFlag({
    name: 'no-headers',
    usage: "When using the default or custom-column output format, don't print headers (default print headers).",
  }),
  ...connectionFlags(),
};

/** kubectl's ServerPreferredResources: each group's resources in the first (most preferred) version serving them. */
export function preferredResources(catalog: readonly CatalogResource[]): CatalogResource[] {
  const seen = new Set<string>();
  const out: CatalogResource[] = [];
  for (const r of catalog) {
    const key = `${r.group}/${r.resource}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r);
  }
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Runs `orchctl api-resources`. */
export function runApiResources(argv: readonly string[], io: CommandIo): Promise<number> {
  return guarded(io, async () => {
    const parsed = parseCommandFlags(
      'orchctl api-resources',
      'Print the supported API resources on the server.',
      API_RESOURCES_FLAGS,
      argv,
      io,
    );
    if (!parsed) return 0;
    const f = parsed.values;
    if (!['', 'wide', 'name'].includes(f.output)) throw new CommandError(`--output ${f.output} is not available`);
    if (parsed.args.length > 0) throw new CommandError(`unexpected arguments: [${parsed.args.join(' ')}]`);
    return withSession(f, io, async (s) => {
      const all = preferredResources(await sessionCatalog(s));
      const shown = all
        .filter((r) => !parsed.changed.has('apiGroup') || r.group === f.apiGroup)
        .filter((r) => !parsed.changed.has('namespaced') || r.namespaced === f.namespaced)
        .filter((r) => f.verbs.every((v) => r.verbs.includes(v)))
        .sort((a, b) => compare(a.group, b.group) || compare(a.resource, b.resource));
      if (f.output === 'name') {
        io.stdout(shown.map((r) => `${r.group ? `${r.resource}.${r.group}` : r.resource}\n`).join(''));
        return 0;
      }
      const wide = f.output === 'wide';
      const rows: string[][] = [];
      if (!f.noHeaders)
        rows.push(['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', ...(wide ? ['VERBS', 'CATEGORIES'] : [])]);
      for (const r of shown) {
        rows.push([
          r.resource,
          r.shortNames.join(','),
          apiVersionOf(r),
          String(r.namespaced),
          r.kind,
          ...(wide ? [[...r.verbs].sort().join(','), r.categories.join(',')] : []),
        ]);
      }
      io.stdout(alignColumns(rows));
      return 0;
    });
  });
}

/** `api-resources` in orchctl's subcommand table. */
export const apiResourcesSubcommand: Subcommand = {
  name: 'api-resources',
  summary: 'Print the supported API resources on the server',
  run: runApiResources,
};
