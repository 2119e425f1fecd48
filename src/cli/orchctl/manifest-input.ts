/**
 * Reading manifests as kubectl's `-f` does: files, directories (with `-R` their subdirectories),
 * `-` for standard input; YAML with several documents, JSON, and `List` objects flattened into
 * their items. Problems are collected (kube's continue-on-error), not thrown one at a time.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { ApiObject } from '../../apis/object.js';
import { isPlainObject } from '../../apis/schema/json-value.js';
import type { CommandIo } from './command-io.js';

/** The file extensions read from a directory, as kubectl's. */
export const MANIFEST_EXTENSIONS: readonly string[] = ['.json', '.yaml', '.yml'];

/** One decoded object and where it came from. */
export interface ManifestObject {
  readonly source: string;
  readonly object: ApiObject;
}

export interface ManifestInput {
  readonly objects: readonly ManifestObject[];
  /** One message per problem, in kube's words. */
  readonly errors: readonly string[];
  /**
   * One file read (no standard input, no directory of several files, as kube's builder decides):
   * a single object then prints as itself rather than in a List.
   */
  readonly singleItemImplied: boolean;
}

interface Source {
  readonly name: string;
  read(): Promise<string>;
}

async function filesUnder(dir: string, recursive: boolean): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const out: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (recursive) out.push(...(await filesUnder(path, recursive)));
    } else if (MANIFEST_EXTENSIONS.includes(extname(e.name))) {
      out.push(path);
    }
  }
  return out;
}

function yamlError(source: string, message: string, line: number | undefined): string {
  const at = line !== undefined ? `line ${line}: ` : '';
  return `error parsing ${source}: error converting YAML to JSON: yaml: ${at}${message}`;
}

/** Adds a decoded document (flattening lists) to `out`, or a problem to `errors`. */
function decode(source: string, value: unknown, out: ManifestObject[], errors: string[]): void {
  if (value === null || value === undefined) return;
  if (!isPlainObject(value)) {
    const type = Array.isArray(value) ? 'array' : typeof value;
    errors.push(
      `error parsing ${source}: json: cannot unmarshal ${type} into Go value of type map[string]interface {}`,
    );
    return;
  }
  const json = JSON.stringify(value);
  if (typeof value.kind !== 'string' || value.kind === '') {
    errors.push(`unable to decode "${source}": Object 'Kind' is missing in '${json}'`);
    return;
  }
  if (typeof value.apiVersion !== 'string' || value.apiVersion === '') {
    errors.push(`unable to decode "${source}": Object 'apiVersion' is missing in '${json}'`);
    return;
  }
  if (value.kind.endsWith('List') && Array.isArray(value.items)) {
    for (const item of value.items) decode(source, item, out, errors);
    return;
  }
  const object = { ...value } as ApiObject;
  if (!isPlainObject(object.metadata)) object.metadata = {};
  out.push({ source, object });
}

function decodeText(source: string, text: string, out: ManifestObject[], errors: string[]): void {
  for (const doc of parseAllDocuments(text, { uniqueKeys: false })) {
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      const message = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      errors.push(yamlError(source, message, e.linePos?.[0]?.line));
      return;
    }
    decode(source, doc.toJS({ maxAliasCount: 100 }), out, errors);
  }
}

/**
 * Reads every source named by `filenames` (relative to `io.cwd`). A missing path and a directory
 * without manifests are problems; a named file is read whatever its extension.
 */
export async function readManifests(
  filenames: readonly string[],
  recursive: boolean,
  io: Pick<CommandIo, 'readStdin' | 'cwd'>,
): Promise<ManifestInput> {
  const errors: string[] = [];
  const sources: Source[] = [];
  let dir = false;
  let stream = false;
  for (const name of filenames) {
    if (name === '-') {
      stream = true;
      sources.push({ name: 'STDIN', read: io.readStdin });
      continue;
    }
    const path = resolve(io.cwd, name);
    const info = await stat(path).catch(() => undefined);
    if (!info) {
      errors.push(`the path "${name}" does not exist`);
      continue;
    }
    if (info.isDirectory()) {
      const files = await filesUnder(path, recursive);
      if (files.length > 1) dir = true;
      for (const f of files) sources.push({ name: f, read: () => readFile(f, 'utf8') });
      if (files.length === 0)
        errors.push(`error reading [${name}]: recognized file extensions are [${MANIFEST_EXTENSIONS.join(' ')}]`);
    } else {
      sources.push({ name, read: () => readFile(path, 'utf8') });
    }
  }
  const objects: ManifestObject[] = [];
  for (const s of sources) {
    let text: string;
    try {
      text = await s.read();
    } catch (e) {
      errors.push(`error reading ${s.name}: ${(e as Error).message}`);
      continue;
    }
    decodeText(s.name, text, objects, errors);
  }
  return { objects, errors, singleItemImplied: !dir && !stream && sources.length === 1 };
}
