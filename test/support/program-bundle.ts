import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { buildSync, version as esbuildVersion } from 'esbuild';
import { PROGRAM_BUNDLE_OPTIONS } from '../../scripts/bundle-apiserver.js';

/*
 * The programs tests start as child processes (orchctl, orch-apiserver, the controller managers),
 * run from an esbuild bundle of their TypeScript sources instead of through tsx. Why: through tsx
 * every start resolves and compiles some 800 modules in tsx's loader hooks (about 2.2 s for
 * orchctl on two cores), a bundle starts as a built program does (about 0.5 s), and the tests
 * start these programs hundreds of times. The bundle is made as `npm run build` bundles the server
 * (the options of scripts/bundle-apiserver.ts), so it needs no build beforehand.
 *
 * One bundle per entry and state of the sources, shared by every test process: it lives in
 * `<repository>/.test-programs/<entry name>-<key>/`, the key a hash of the files under src/ (and
 * test/, for a helper program of the tests' own under test/), the package and lock files, tsconfig.json, esbuild's version and the bundle options. A changed source
 * is a new key, so a stale bundle is never run. The folder is two levels below the root, as
 * `dist/cli/` is: code that finds files from its own module (`new URL('../../package.json',
 * import.meta.url)` in src/server/version.ts) finds the same files, and the external packages
 * resolve from the repository's node_modules. A bundle is written to a temporary folder and renamed
 * into place, so processes that build at once each end with a whole bundle (the first rename wins).
 * Folders unused for a day are removed when a new bundle is written. The key is taken once per test
 * process, at its first start of an entry.
 *
 * `ORCH_TEST_TSX=1` runs the entries through tsx as before (`--import tsx <entry>`). Stack traces
 * of a bundled program point into the bundle; `NODE_OPTIONS=--enable-source-maps` maps them to the
 * sources through the source maps written beside it.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const CACHE = join(ROOT, '.test-programs');
/** Besides every file under src/: what else decides what the bundle contains. */
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];
const UNUSED_FOR_MS = 24 * 60 * 60 * 1000;

const programs = new Map<string, string>();

/**
 * The node arguments that run `entry` (a path under src/ or test/, from the repository root, e.g.
 * `src/cli/orchctl.ts`): its bundle, built first if the sources changed since the last one.
 */
export function bundledProgram(entry: string): string[] {
  if (!entry.startsWith('src/') && !entry.startsWith('test/')) {
    throw new Error(`${entry}: only entries under src/ and test/ are bundled`);
  }
  if (process.env.ORCH_TEST_TSX === '1') return ['--import', 'tsx', join(ROOT, entry)];
  let program = programs.get(entry);
  if (program === undefined) {
    program = cachedBundle(entry);
    programs.set(entry, program);
  }
  return [program];
}

/** The bundle's main file, from the cache or built into it. */
function cachedBundle(entry: string): string {
  const name = basename(entry, '.ts');
  const folder = join(CACHE, `${name}-${bundleKey(entry)}`);
  const main = join(folder, `${name}.js`);
  if (existsSync(main)) {
    const now = new Date();
    utimesSync(folder, now, now);
    return main;
  }
  mkdirSync(CACHE, { recursive: true });
  const staging = mkdtempSync(join(CACHE, '.staging-'));
  try {
    buildSync({
      ...PROGRAM_BUNDLE_OPTIONS,
      absWorkingDir: ROOT,
      entryPoints: { [name]: join(ROOT, entry) },
      outdir: staging,
    });
    try {
      renameSync(staging, folder);
    } catch (e) {
      if (!existsSync(main)) throw e; // else another process put the same bundle in place first
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  removeUnused();
  return main;
}

/** A hash of everything the bundle of `entry` is made from. */
function bundleKey(entry: string): string {
  const hash = createHash('sha256');
  hash.update(`${entry}\0esbuild ${esbuildVersion}\0${JSON.stringify(PROGRAM_BUNDLE_OPTIONS)}\0`);
  // A program of the tests' own (a helper process) may import other test files too.
  const sources = entry.startsWith('test/') ? [...filesUnder('src'), ...filesUnder('test')] : filesUnder('src');
  for (const path of [...INPUT_FILES, ...sources]) {
    hash.update(`${path}\0`);
    hash.update(readFileSync(join(ROOT, path)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** Every file under `dir` (relative to the root), sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

/** Removes the cache's folders (bundles, and staging left by a build that died) unused for a day. */
function removeUnused(): void {
  const cutoff = Date.now() - UNUSED_FOR_MS;
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    try {
      if (statSync(path).mtimeMs < cutoff) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed meanwhile by another test process.
    }
  }
}
