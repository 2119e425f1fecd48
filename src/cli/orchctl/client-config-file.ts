/**
 * Where orchctl's client configuration file is and what its current context says, as kubectl
 * finds its own: the `<PRODUCT>CONFIG` variable (`ORCHCONFIG` | `KUBECONFIG`, a path list whose
 * first existing file is used), else `~/.<product>/config` (`~/.orch/config` | `~/.kube/config`).
 * Loading credentials goes through {@link loadRestConfig}, the one place to swap loaders.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { parse as parseYaml, stringify } from 'yaml';
import type { ApiDomain } from '../../apis/api-domain.js';
import { isPlainObject } from '../../apis/schema/json-value.js';
import { loadKubeconfig, type RestConfig } from '../../client/rest/kubeconfig.js';
import type { CommandIo } from './command-io.js';

/** `orch` | `kube`: the short product name of the domain's client tool. */
function product(domain: ApiDomain): string {
  return domain.componentName('').slice(0, -1);
}

/** `ORCHCONFIG` | `KUBECONFIG`. */
export function configEnvVar(domain: ApiDomain): string {
  return `${product(domain).toUpperCase()}CONFIG`;
}

/**
 * The configuration file to read and write: `explicit`, else the first existing file of the
 * variable (its last file when none exists, as kubectl picks the file to write), else the home
 * default. Several files are not merged: the first existing one is the configuration.
 */
export function configFilePath(
  explicit: string,
  domain: ApiDomain,
  io: Pick<CommandIo, 'cwd' | 'env' | 'homeDir'>,
): string {
  if (explicit !== '') return resolve(io.cwd, explicit);
  const listed = (io.env?.[configEnvVar(domain)] ?? '').split(delimiter).filter(Boolean);
  const found = listed.find((p) => existsSync(resolve(io.cwd, p)));
  if (found) return resolve(io.cwd, found);
  if (listed.length > 0) return resolve(io.cwd, listed[listed.length - 1]);
  return join(io.homeDir ?? '', `.${product(domain)}`, 'config');
}

/** The server and credentials of `context` (or the current context). The one call of the loader. */
export function loadRestConfig(file: string, context: string): Promise<RestConfig> {
  return loadKubeconfig(file, context || undefined);
}

/** A client configuration file as parsed YAML (an empty document when the file is missing). */
export type ConfigDocument = Record<string, unknown>;

/** Reads `file`; a missing file is an empty configuration, as kubectl treats it. */
export async function readConfigDocument(file: string): Promise<ConfigDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw e;
  }
  const doc = parseYaml(text) as unknown;
  return isPlainObject(doc) ? doc : {};
}

/** Writes `doc` back to `file` as YAML. */
export async function writeConfigDocument(file: string, doc: ConfigDocument): Promise<void> {
  await writeFile(file, stringify(doc, { lineWidth: 0, indentSeq: false }), { mode: 0o600 });
}

/** The entries of a named list (`clusters`, `contexts`, `users`). */
export function namedEntries(doc: ConfigDocument, list: string): Record<string, unknown>[] {
  const v = doc[list];
  return Array.isArray(v) ? v.filter(isPlainObject) : [];
}

/** The namespace of `context` (or the current one) in `doc`; `default` when it names none. */
export function contextNamespace(doc: ConfigDocument, context: string): string {
  const name = context || doc['current-context'];
  const entry = namedEntries(doc, 'contexts').find((c) => c.name === name);
  const ns = isPlainObject(entry?.context) ? entry.context.namespace : undefined;
  return typeof ns === 'string' && ns !== '' ? ns : 'default';
}
