import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { SchemaGenError } from './facts.js';

/**
 * Formats generated source exactly as `biome check --write` leaves a file at `path` (relative
 * to `root`), so that the committed module is both lint-clean and byte-for-byte reproducible.
 */
export function formatModule(root: string, path: string, source: string): string {
  const biome = join(root, 'node_modules', '.bin', 'biome');
  const result = spawnSync(biome, ['check', '--write', `--stdin-file-path=${path}`], {
    cwd: root,
    input: source,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new SchemaGenError(`biome could not format ${path}: ${result.stderr || result.stdout || result.error}`);
  }
  return result.stdout;
}
