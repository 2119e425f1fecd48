import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository root (this file is `test/architecture/source-files.ts`). */
export const ROOT = join(import.meta.dirname, '..', '..');

/** Every `.ts` file under `dir` (relative to the root), with its text; `node_modules` skipped. */
export function sourceFiles(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (abs: string): void => {
    for (const entry of readdirSync(abs).sort()) {
      if (entry === 'node_modules' || entry.startsWith('.')) continue;
      const p = join(abs, entry);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) out.push({ path: relative(ROOT, p), text: readFileSync(p, 'utf8') });
    }
  };
  walk(join(ROOT, dir));
  return out;
}
