/**
 * `orchctl get`: kubectl get over the server's Table output. `get TYPE [NAME...]` (TYPE may be a
 * category such as `all`, or several types separated by commas),
 * `get TYPE/NAME...`; `-o wide|yaml|json|name`, `--no-headers`, `-A`, `-l`, `--field-selector`,
 * `-w` (the list or the named object, then one row per watch event, in the columns printed so
 * far as kubectl's tabwriter remembers them; tables only). Names not found are reported after what was
 * found, and the exit code is then 1, as kubectl does.
 */
import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { decodeWatchLine } from '../../client/api/json-watch.js';
import { resourceUrlPath } from '../../client/rest/rest-client.js';
import { boolFlag, stringFlag } from '../flags/flag-spec.js';
import {
  CommandError,
  connectionFlags,
  guarded,
  parseCommandFlags,
  type Session,
  serverErrorLine,
  withSession,
} from './cli-session.js';
import type { CommandIo, Subcommand } from './command-io.js';
import { listOf, objectName, printObject, withoutManagedFields } from './object-output.js';
import {
  type CatalogResource,
  categoryMembers,
  findResource,
  kindName,
  resolveResource,
  sessionCatalog,
} from './resource-catalog.js';
import { formatTable, type ServerTable, type ServerTableRow, tableAccept } from './server-table.js';

/** The flags of `orchctl get`, named as kubectl's. */
export const GET_FLAGS = {
  output: stringFlag({ name: 'output', shorthand: 'o', usage: 'Output format. One of: (json, yaml, name, wide).' }),
  noHeaders: boolFlag({
    name: 'no-headers',
    usage: "When using the default or custom-column output format, don't print headers.",
  }),
  allNamespaces: boolFlag({
    name: 'all-namespaces',
    shorthand: 'A',
    usage: 'List the requested object(s) across all namespaces.',
  }),
  selector: stringFlag({ name: 'selector', shorthand: 'l', usage: 'Selector (label query) to filter on.' }),
  fieldSelector: stringFlag({ name: 'field-selector', usage: 'Selector (field query) to filter on.' }),
  watch: boolFlag({
    name: 'watch',
    shorthand: 'w',
    usage: 'After listing/getting the requested object, watch for changes.',
  }),
  ...connectionFlags(),
};

const FORMATS = ['', 'wide', 'yaml', 'json', 'name'];

interface Request {
  readonly resource: CatalogResource;
  /** Empty: the list. */
  readonly names: readonly string[];
}

function requests(catalog: readonly CatalogResource[], args: readonly string[]): Request[] {
  if (args.length === 0) {
    throw new CommandError(
      'Required resource not specified.\nUse "orchctl explain <resource>" for a detailed description of that resource (e.g. orchctl explain pods).\nSee \'orchctl get -h\' for help and examples',
    );
  }
  if (args[0].includes('/')) {
    const out: Request[] = [];
    for (const a of args) {
      const slash = a.indexOf('/');
      const name = a.slice(slash + 1);
      if (slash < 0 || !name)
        throw new CommandError(`arguments in resource/name form must have a single resource and name`);
      const r = resolveResource(catalog, a.slice(0, slash));
      const last = out[out.length - 1];
      if (last && last.resource === r) out[out.length - 1] = { resource: r, names: [...last.names, name] };
      else out.push({ resource: r, names: [name] });
    }
    return out;
  }
  if (args.slice(1).some((a) => a.includes('/'))) {
    throw new CommandError(
      "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'orchctl get resource/<resource_name>' instead of 'orchctl get resource resource/<resource_name>'",
    );
  }
  const [type, ...names] = args;
  return type.split(',').flatMap((t) => {
    const inCategory = findResource(catalog, t) ? [] : categoryMembers(catalog, t);
    if (inCategory.length > 0 && names.length === 0) return inCategory.map((resource) => ({ resource, names }));
    return [{ resource: resolveResource(catalog, t), names }];
  });
}

/** Runs `orchctl get`. */
export async function runGet(argv: readonly string[], io: CommandIo, signal?: AbortSignal): Promise<number> {
  return guarded(io, async () => {
    const parsed = parseCommandFlags('orchctl get', 'Display one or many resources.', GET_FLAGS, argv, io);
    if (!parsed) return 0;
    const f = parsed.values;
    if (!FORMATS.includes(f.output)) {
      throw new CommandError(
        `unable to match a printer suitable for the output format "${f.output}", allowed formats are: json,name,wide,yaml`,
      );
    }
    if (f.watch && ['yaml', 'json', 'name'].includes(f.output)) {
      throw new CommandError(`orchctl get --watch prints tables only; -o ${f.output} is not supported with it`);
    }
    return withSession(
      f,
      io,
      async (s) => {
        const catalog = await sessionCatalog(s);
        const reqs = requests(catalog, parsed.args);
        if (f.allNamespaces && reqs.some((q) => q.names.length > 0)) {
          throw new CommandError('a resource cannot be retrieved by name across all namespaces');
        }
        if (f.output === 'yaml' || f.output === 'json' || f.output === 'name') {
          return await printObjects(s, reqs, f, io);
        }
        return await printTables(s, reqs, f, io);
      },
      { signal },
    );
  });
}

interface GetFlags {
  readonly output: string;
  readonly noHeaders: boolean;
  readonly allNamespaces: boolean;
  readonly selector: string;
  readonly fieldSelector: string;
  readonly watch: boolean;
}

function namespaceOf(s: Session, r: CatalogResource, f: GetFlags): string | undefined {
  if (!r.namespaced) return undefined;
  return f.allNamespaces ? undefined : s.namespace;
}

function query(f: GetFlags): Record<string, string | undefined> {
  return { labelSelector: f.selector || undefined, fieldSelector: f.fieldSelector || undefined };
}

function noneFound(io: CommandIo, s: Session, reqs: readonly Request[], f: GetFlags): void {
  const namespaced = reqs.some((r) => r.resource.namespaced);
  io.stderr(
    namespaced && !f.allNamespaces ? `No resources found in ${s.namespace} namespace.\n` : 'No resources found\n',
  );
}

async function printObjects(s: Session, reqs: readonly Request[], f: GetFlags, io: CommandIo): Promise<number> {
  const found: { obj: ApiObject; group: string }[] = [];
  const errors: string[] = [];
  let single = false;
  for (const { resource: r, names } of reqs) {
    const base = { group: r.group, version: r.version, resource: r.resource, namespace: namespaceOf(s, r, f) };
    if (names.length === 0) {
      const list = await s.client.rest.call<{ items?: ApiObject[] }>(
        { method: 'GET', path: resourceUrlPath(base), query: query(f) },
        s.signal,
      );
      const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
      for (const o of list.items ?? [])
        found.push({ obj: withoutManagedFields({ ...o, apiVersion, kind: r.kind }), group: r.group });
      continue;
    }
    single = reqs.length === 1 && names.length === 1;
    for (const name of names) {
      try {
        const obj = await s.client.rest.call<ApiObject>(
          { method: 'GET', path: resourceUrlPath({ ...base, name }) },
          s.signal,
        );
        found.push({ obj: withoutManagedFields(obj), group: r.group });
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        errors.push(serverErrorLine(e));
      }
    }
  }
  if (f.output === 'name') {
    io.stdout(found.map(({ obj, group }) => `${objectName(obj, group)}\n`).join(''));
  } else if (single && found.length === 1) {
    io.stdout(printObject(found[0].obj, f.output as 'yaml' | 'json'));
  } else if (found.length > 0 || errors.length === 0) {
    io.stdout(printObject(listOf(found.map((x) => x.obj)), f.output as 'yaml' | 'json'));
  }
  for (const e of errors) io.stderr(`${e}\n`);
  return errors.length > 0 ? 1 : 0;
}

async function printTables(s: Session, reqs: readonly Request[], f: GetFlags, io: CommandIo): Promise<number> {
  const errors: string[] = [];
  const accept = tableAccept(s.domain.metaGroup);
  // Each table has its own column widths (kubectl starts a new tabwriter block at each header);
  // a watch goes on in the widths of the table printed before it.
  let widths: number[] = [];
  const opts = { wide: f.output === 'wide', headers: !f.noHeaders, withNamespace: false };
  let printedAny = false;
  let lastTable: { r: CatalogResource; table: ServerTable } | undefined;
  const withKind = new Set(reqs.map((q) => q.resource)).size > 1;
  for (const { resource: r, names } of reqs) {
    const base = { group: r.group, version: r.version, resource: r.resource, namespace: namespaceOf(s, r, f) };
    const withNamespace = f.allNamespaces && r.namespaced;
    let table: ServerTable | undefined;
    const rows: ServerTableRow[] = [];
    if (names.length === 0) {
      table = await s.client.rest.call<ServerTable>(
        { method: 'GET', path: resourceUrlPath(base), query: query(f), accept },
        s.signal,
      );
      rows.push(...(table.rows ?? []));
    } else {
      for (const name of names) {
        try {
          const t = await s.client.rest.call<ServerTable>(
            { method: 'GET', path: resourceUrlPath({ ...base, name }), accept },
            s.signal,
          );
          table ??= t;
          rows.push(...(t.rows ?? []));
        } catch (e) {
          if (!(e instanceof StatusError)) throw e;
          errors.push(serverErrorLine(e));
        }
      }
    }
    if (table) lastTable = { r, table };
    if (rows.length === 0) continue;
    if (printedAny) io.stdout('\n');
    widths = [];
    io.stdout(
      formatTable(table?.columnDefinitions, rows, {
        ...opts,
        widths,
        withNamespace,
        kind: withKind ? kindName(r.kind, r.group) : undefined,
      }),
    );
    printedAny = true;
  }
  if (!printedAny && errors.length === 0 && !f.watch) noneFound(io, s, reqs, f);
  for (const e of errors) io.stderr(`${e}\n`);
  if (f.watch && lastTable && reqs.length === 1 && reqs[0].names.length <= 1) {
    await watchRows(s, lastTable.r, lastTable.table, f, io, { header: !printedAny, widths, name: reqs[0].names[0] });
  }
  return errors.length > 0 ? 1 : 0;
}

async function watchRows(
  s: Session,
  r: CatalogResource,
  initial: ServerTable,
  f: GetFlags,
  io: CommandIo,
  o: { readonly header: boolean; readonly widths: number[]; readonly name?: string },
): Promise<void> {
  const base = { group: r.group, version: r.version, resource: r.resource, namespace: namespaceOf(s, r, f) };
  const res = await s.client.rest.stream(
    {
      method: 'GET',
      path: resourceUrlPath(base),
      query: {
        ...query(f),
        fieldSelector:
          [o.name ? `metadata.name=${o.name}` : '', f.fieldSelector].filter(Boolean).join(',') || undefined,
        watch: 'true',
        resourceVersion:
          initial.metadata?.resourceVersion ||
          (initial.rows?.[0]?.object?.metadata as { resourceVersion?: string } | undefined)?.resourceVersion,
      },
      accept: tableAccept(s.domain.metaGroup),
    },
    s.signal,
  );
  res.setEncoding('utf8');
  const opts = { wide: f.output === 'wide', withNamespace: f.allNamespaces && r.namespaced, widths: o.widths };
  let needHeader = o.header && !f.noHeaders;
  let buf = '';
  try {
    for await (const chunk of res as AsyncIterable<string>) {
      buf += chunk;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line) continue;
        const event = decodeWatchLine(line);
        if (event.type === 'BOOKMARK') continue;
        if (event.type === 'ERROR')
          throw new CommandError(String((event.object as { message?: string }).message ?? 'watch error'));
        const table = event.object as unknown as ServerTable;
        io.stdout(
          formatTable(table.columnDefinitions ?? initial.columnDefinitions, table.rows ?? [], {
            ...opts,
            headers: needHeader,
          }),
        );
        needHeader = false;
      }
    }
  } catch (e) {
    if (!s.signal.aborted) throw e;
  }
}

/** `get` in orchctl's subcommand table. */
export const getSubcommand: Subcommand = {
  name: 'get',
  summary: 'Display one or many resources',
  run: (argv, io) => runGet(argv, io),
};
