import { randomBytes } from 'node:crypto';
import { chmod, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { TlsConfigError } from './errors.js';

/** Mode of private-key files (and of anything else holding a key, such as a kubeconfig). */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode of certificate files. */
export const PUBLIC_FILE_MODE = 0o644;

/** Reads a file as UTF-8, or returns undefined when it does not exist. Other errors propagate. */
export async function readOptionalFile(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new TlsConfigError(`cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }
}

/** Reads a file named by a flag; a missing file is a configuration error. */
export async function readRequiredFile(path: string, flag: string): Promise<string> {
  const text = await readOptionalFile(path);
  if (text === undefined) throw new TlsConfigError(`${flag}: file ${path} does not exist`);
  return text;
}

/**
 * Replaces `path` atomically: the content goes to a sibling temporary file created with `mode`, is
 * fsynced, then renamed over the target, so a crash leaves either the old or the new file, never a torn one.
 */
export async function writeFileAtomic(path: string, content: string, mode: number): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const handle = await open(tmp, 'wx', mode);
    try {
      await handle.writeFile(content, 'utf8');
      // The umask may have narrowed the creation mode; set it exactly.
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw new TlsConfigError(`cannot write ${path}: ${(err as Error).message}`, { cause: err });
  }
}

/** Tightens an existing private file to 0600 when group or others can access it. */
export async function restrictMode(path: string): Promise<void> {
  const st = await stat(path);
  if ((st.mode & 0o077) !== 0) await chmod(path, PRIVATE_FILE_MODE);
}
