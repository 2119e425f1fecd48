import { readFile } from 'node:fs/promises';
import type { ApiDomain } from '../../apis/api-domain.js';
import { AbacPolicyError, type AbacPolicyFile, parsePolicyFile } from './abac-policy.js';

/** Go's wording of the errors opening a file most often meets. */
const OPEN_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
};

/**
 * Reads and decodes an ABAC policy file (`--authorization-policy-file`) once, at start-up, as
 * kube-apiserver does (it does not watch the file).
 * @throws AbacPolicyError when the file cannot be read or a line does not decode.
 */
export async function loadPolicyFile(path: string, domain: ApiDomain): Promise<AbacPolicyFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw AbacPolicyError.ofOpen(path, OPEN_ERRORS[code] ?? (e instanceof Error ? e.message : String(e)));
  }
  return parsePolicyFile(text, path, domain);
}

/** kube's warning when a file holds unversioned (v0) lines. */
export function unversionedPolicyWarning(path: string): string {
  return `Policy file ${path} contained unversioned rules. See docs/admin/authorization.md#abac-mode for ABAC file format details.`;
}
