/**
 * The ABAC policy file (`--authorization-policy-file`): one policy object per line, as kube-apiserver
 * v1.32 reads it. `abac.authorization.<domain>/v1beta1` `Policy` objects hold their rule in `spec`;
 * lines without `apiVersion` and `kind` are kube's unversioned (v0) form, converted as kube converts
 * it. Blank lines and lines starting with `#` are skipped; a line that does not decode stops the
 * load, naming the file and the line.
 */
import { parse as parseYaml } from 'yaml';
import type { ApiDomain } from '../../apis/api-domain.js';
import { goJsonObjectError } from '../../apis/core/go-json-error.js';
import { AUTHENTICATED_GROUP } from '../../apis/request/user-info.js';

/** One rule, after conversion: `*` matches anything; `readonly` limits it to get, list and watch. */
export interface AbacPolicy {
  readonly user: string;
  readonly group: string;
  readonly readonly: boolean;
  readonly apiGroup: string;
  readonly resource: string;
  readonly namespace: string;
  readonly nonResourcePath: string;
}

/**
 * A policy file that cannot be read, in kube's wording: `open <path>: <why>` when it cannot be
 * opened, `error reading policy file <path>, line <n>: <line>: <why>` for a line that does not
 * decode, `error reading policy file <path>: <why>` when the file as a whole fails.
 */
export class AbacPolicyError extends Error {
  private constructor(
    message: string,
    readonly path: string,
    /** 1-based; absent when the file as a whole failed. */
    readonly line: number | undefined,
  ) {
    super(message);
    this.name = 'AbacPolicyError';
  }

  static ofLine(path: string, line: number, data: string, reason: string): AbacPolicyError {
    return new AbacPolicyError(`error reading policy file ${path}, line ${line}: ${data}: ${reason}`, path, line);
  }

  static ofFile(path: string, reason: string): AbacPolicyError {
    return new AbacPolicyError(`error reading policy file ${path}: ${reason}`, path, undefined);
  }

  static ofOpen(path: string, reason: string): AbacPolicyError {
    return new AbacPolicyError(`open ${path}: ${reason}`, path, undefined);
  }
}

/** The policies of a file, and how many lines used the unversioned form (kube warns about those). */
export interface AbacPolicyFile {
  readonly policies: readonly AbacPolicy[];
  readonly unversionedLines: number;
}

/** Go's `bufio.Scanner` limit on one line; a longer one fails the whole file. */
const MAX_LINE_BYTES = 64 * 1024;

/** What the Go type of a field reports when the JSON holds another kind of value. */
const GO_ANON_KIND =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The JSON kind of a value as Go's unmarshal errors name it. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

class LineError extends Error {}

/** A line's value: JSON when it starts with `{`, else YAML (kube's decoder recognises both). */
function decodeLine(line: string): unknown {
  if (line.trimStart().startsWith('{')) {
    const syntax = goJsonObjectError(line);
    if (syntax !== undefined) throw new LineError(`couldn't get version/kind; json parse error: ${syntax}`);
    return JSON.parse(line);
  }
  try {
    return parseYaml(line);
  } catch (e) {
    throw new LineError(`error converting YAML to JSON: yaml: ${e instanceof Error ? e.message.split('\n')[0] : e}`);
  }
}

/** A string field of a Go struct: absent or null is empty; another kind is Go's unmarshal error. */
function stringField(obj: Json, key: string, where: string): string {
  const v = obj[key];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') {
    throw new LineError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field ${where}${key} of type string`);
  }
  return v;
}

function boolField(obj: Json, key: string, where: string): boolean {
  const v = obj[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') {
    throw new LineError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field ${where}${key} of type bool`);
  }
  return v;
}

/** kube's v1beta1 → internal conversion: `*` as user or group means every authenticated user. */
function fromV1beta1(obj: Json): AbacPolicy {
  const raw = obj.spec ?? {};
  if (!isObject(raw)) {
    throw new LineError(
      `json: cannot unmarshal ${jsonKind(raw)} into Go struct field Policy.spec of type v1beta1.PolicySpec`,
    );
  }
  const at = 'PolicySpec.spec.';
  const p = {
    user: stringField(raw, 'user', at),
    group: stringField(raw, 'group', at),
    readonly: boolField(raw, 'readonly', at),
    apiGroup: stringField(raw, 'apiGroup', at),
    resource: stringField(raw, 'resource', at),
    namespace: stringField(raw, 'namespace', at),
    nonResourcePath: stringField(raw, 'nonResourcePath', at),
  };
  if (p.user === '*' || p.group === '*') return { ...p, user: '', group: AUTHENTICATED_GROUP };
  return p;
}

/**
 * kube's v0 → internal conversion: no user and group (or `*`) means every authenticated user, no
 * namespace or resource means all, every API group matches, and a rule naming neither namespace
 * nor resource also matches every non-resource path.
 */
function fromV0(obj: Json): AbacPolicy {
  const at = 'Policy.';
  const user = stringField(obj, 'user', at);
  const group = stringField(obj, 'group', at);
  const namespace = stringField(obj, 'namespace', at);
  const resource = stringField(obj, 'resource', at);
  const everyone = (user === '' && group === '') || user === '*' || group === '*';
  return {
    user: user === '*' || group === '*' ? '' : user,
    group: everyone ? AUTHENTICATED_GROUP : group,
    readonly: boolField(obj, 'readonly', at),
    apiGroup: '*',
    resource: resource || '*',
    namespace: namespace || '*',
    nonResourcePath: namespace === '' && resource === '' ? '*' : '',
  };
}

/**
 * One non-blank, non-comment line as a policy, with whether it was unversioned.
 * @throws LineError (the reason kube's decoder gives) when the line is not a policy.
 */
function decodePolicyLine(line: string, domain: ApiDomain): { policy: AbacPolicy; unversioned: boolean } {
  const value = decodeLine(line);
  if (!isObject(value)) {
    throw new LineError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value)} into Go value of type ${GO_ANON_KIND}`,
    );
  }
  const apiVersion = stringField(value, 'apiVersion', '.');
  const kind = stringField(value, 'kind', '.');
  const v0 = domain.key('abac.authorization', 'v0');
  const v1beta1 = domain.key('abac.authorization', 'v1beta1');
  if (apiVersion === v1beta1 && kind === 'Policy') return { policy: fromV1beta1(value), unversioned: false };
  if (apiVersion === v0 && kind === 'Policy') return { policy: fromV0(value), unversioned: false };
  // Missing version or kind: kube decodes the line as the unversioned form, defaulting both.
  if (apiVersion === '' && (kind === '' || kind === 'Policy')) return { policy: fromV0(value), unversioned: true };
  // kube decodes such a line as v1beta1 and then fails to convert it to the unversioned form.
  if (apiVersion === v1beta1 && kind === '')
    throw new LineError('converting (v1beta1.Policy) to (v0.Policy): unknown conversion');
  const version = apiVersion || v0;
  throw new LineError(
    `no kind ${JSON.stringify(kind || 'Policy')} is registered for version ${JSON.stringify(version)}`,
  );
}

/**
 * Every policy of a file's text, in order.
 * @throws AbacPolicyError naming the first line that does not decode (or a line too long to read).
 */
export function parsePolicyFile(text: string, path: string, domain: ApiDomain): AbacPolicyFile {
  const policies: AbacPolicy[] = [];
  let unversionedLines = 0;
  const lines = text.split('\n');
  // A final newline ends the last line; it starts no new one.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    if (Buffer.byteLength(line) > MAX_LINE_BYTES) {
      throw AbacPolicyError.ofFile(path, 'bufio.Scanner: token too long');
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    try {
      const { policy, unversioned } = decodePolicyLine(line, domain);
      policies.push(policy);
      if (unversioned) unversionedLines++;
    } catch (e) {
      if (!(e instanceof LineError)) throw e;
      throw AbacPolicyError.ofLine(path, i + 1, line, e.message);
    }
  }
  return { policies, unversionedLines };
}
