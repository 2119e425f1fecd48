/**
 * The objects of `-f` manifests matched to served resources, as kubectl's builder does: the
 * resource of each object's `apiVersion` and `kind`, its namespace (the object's, else the
 * command's) and kubectl's errors for unknown kinds and namespace mismatches.
 */
import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { CommandError, type Session } from './cli-session.js';
import type { CommandIo } from './command-io.js';
import { readManifests } from './manifest-input.js';
import { type CatalogResource, kindName } from './resource-catalog.js';

/** One object to send. */
export interface ManifestTarget {
  readonly source: string;
  readonly object: ApiObject;
  readonly resource: CatalogResource;
  /** Undefined for cluster-scoped resources. */
  readonly namespace: string | undefined;
  readonly name: string;
  /** `configmap` | `deployment.apps`. */
  readonly kindName: string;
}

/**
 * Reads `filenames` and resolves every object; `verb` names the command in kubectl's
 * `no objects passed to <verb>`.
 * @throws CommandError for unreadable input, an unknown kind or a namespace mismatch (the first).
 */
export async function manifestTargets(
  filenames: readonly string[],
  recursive: boolean,
  catalog: readonly CatalogResource[],
  s: Session,
  io: CommandIo,
  verb: string,
): Promise<ManifestTarget[]> {
  if (filenames.length === 0) throw new CommandError('must specify one of -f and -k');
  const input = await readManifests(filenames, recursive, io);
  if (input.errors.length > 0) throw new CommandError(input.errors.join('\n'));
  if (input.objects.length === 0) throw new CommandError(`no objects passed to ${verb}`);
  return input.objects.map(({ source, object }) => {
    const apiVersion = String(object.apiVersion);
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
    const kind = String(object.kind);
    const name = String(object.metadata?.name ?? '');
    const objectNamespace = String(object.metadata?.namespace ?? '');
    const resource = catalog.find((r) => r.group === group && r.version === version && r.kind === kind);
    if (!resource) {
      throw new CommandError(
        `resource mapping not found for name: "${name}" namespace: "${objectNamespace}" from "${source}": no matches for kind "${kind}" in version "${apiVersion}"\nensure CRDs are installed first`,
      );
    }
    let namespace: string | undefined;
    if (resource.namespaced) {
      if (objectNamespace && s.explicitNamespace && objectNamespace !== s.namespace) {
        throw new CommandError(
          `the namespace from the provided object "${objectNamespace}" does not match the namespace "${s.namespace}". You must pass '--namespace=${objectNamespace}' to perform this operation.`,
        );
      }
      namespace = objectNamespace || s.namespace;
    }
    return { source, object, resource, namespace, name, kindName: kindName(kind, group) };
  });
}

/**
 * kubectl's loop over the objects of a command: `each` runs for every target in order; a server
 * refusal of one (a `StatusError`) is printed as `errorLine` says and the others still run.
 * Resolves to the exit code: 1 when any was refused. Other errors stop the loop.
 */
export async function forEachTarget<T>(
  targets: readonly T[],
  io: CommandIo,
  each: (t: T) => Promise<void>,
  errorLine: (t: T, e: StatusError) => string,
): Promise<number> {
  let failed = false;
  for (const t of targets) {
    try {
      await each(t);
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      io.stderr(`${errorLine(t, e)}\n`);
      failed = true;
    }
  }
  return failed ? 1 : 0;
}
