/*
 * Bundles the `orch-apiserver` program into `dist/cli/run-api-server.cjs` (run after `tsc`, by
 * `npm run build`), with V8's code cache for it beside it (`run-api-server.cjs.code-cache`).
 *
 * Why a bundle: the server imports some 800 modules, and Node 20's ES module loader resolves,
 * reads, compiles and links each on its own; that was about a third of the CPU time from process
 * start to ready on an empty store. Why CommonJS and a code cache: compiling the 2.7 MB bundle,
 * and the functions that run as its modules load, then took about as long again, and Node 20
 * keeps no compile cache for ES modules; a CommonJS bundle run through `vm.Script` can be given
 * the code V8 made for it once, here (code-cached-bundle.ts). Measured on an empty store, the
 * start (process start to the ready line) is some 140 ms shorter with it.
 *
 * What is bundled: `src/cli/run-api-server.ts` and everything it imports, with the pure JavaScript
 * libraries. The entry point `dist/cli/orch-apiserver.js` (tsc's output) sets its V8 flags, then
 * loads the bundle when it is there, else tsc's `run-api-server.js` module by module. The code
 * reached through a dynamic `import()` (the LMDB and etcd stores, the compactor) is in the bundle,
 * and its modules run only when first imported, as before. Libraries with native parts or loaded
 * on first use through `require` (lmdb, etcd3 and its gRPC stack, @peculiar/x509) stay in
 * node_modules. The bundle is made from the TypeScript sources, as tsx runs them in the tests
 * (`isolatedModules`, `verbatimModuleSyntax`): tsc's per-module output in `dist/` stays as it is,
 * for the library export and the other programs.
 *
 * Usage: `node --import tsx scripts/bundle-apiserver.ts [outDir]` (default `dist/cli`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type BuildOptions, build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

/** Packages left to Node's loader: native code, or loaded lazily through `require`. */
export const EXTERNAL_PACKAGES: readonly string[] = ['lmdb', 'etcd3', '@peculiar/x509', 'reflect-metadata'];

/**
 * What every bundled program shares, whatever its entry, output and module format: the server
 * here, and the programs the tests start (test/support/program-bundle.ts), so both run the code as
 * built for `dist/`.
 */
const SHARED_BUNDLE_OPTIONS: Readonly<BuildOptions> = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  external: [...EXTERNAL_PACKAGES],
  // Function and class names stay as written (error names, logs, stack traces): whitespace
  // and syntax are minified, identifiers are not. V8 keeps a module's source in memory, so a
  // smaller bundle is a smaller server (about 8 MB less resident than the bundle as written).
  keepNames: true,
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  logLevel: 'warning',
};

/**
 * A program as ES modules, in chunks for what it imports dynamically: the entry points, which
 * await at their top level (the tests run them bundled).
 */
export const PROGRAM_BUNDLE_OPTIONS: Readonly<BuildOptions> = {
  ...SHARED_BUNDLE_OPTIONS,
  format: 'esm',
  splitting: true,
  // Bundled CommonJS libraries (yaml, prom-client) call `require` for Node's built-ins.
  banner: {
    js: "import { createRequire as __orchCreateRequire } from 'node:module'; const require = __orchCreateRequire(import.meta.url);",
  },
};

/**
 * The server as one CommonJS file, which `vm.Script` can compile from a code cache. The sources
 * are ES modules: what they read of `import.meta` is the bundle's own file.
 */
const SERVER_BUNDLE_OPTIONS: Readonly<BuildOptions> = {
  ...SHARED_BUNDLE_OPTIONS,
  format: 'cjs',
  define: {
    'import.meta.url': '__orchBundleUrl',
    'import.meta.dirname': '__dirname',
    'import.meta.filename': '__filename',
  },
  // The directive first: esbuild writes its own "use strict" after the banner, where it is no
  // longer a directive, and the bundle would run in sloppy mode.
  banner: { js: "'use strict';\nconst __orchBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/** Output names all start with this, so a new build can remove the previous one's files. */
const PREFIX = 'run-api-server';
/** The bundle's name; its code cache is this name with `.code-cache` added. */
export const BUNDLE = `${PREFIX}.cjs`;

/** Whether `name` is an output of this script (of this build or of an earlier one). */
function isBundleOutput(name: string): boolean {
  // Earlier builds wrote an ES module bundle in chunks: `run-api-server-<chunk>-<hash>.js`.
  return name.startsWith(BUNDLE) || (name.startsWith(`${PREFIX}-`) && /\.js(\.map)?$/.test(name));
}

/**
 * Bundles into `outDir` (replacing the bundle and its code cache there) and resolves with the
 * names written. The files are made in a temporary directory first, so a failed build leaves the
 * previous output whole.
 */
export async function bundleApiServer(outDir: string = join(ROOT, 'dist', 'cli')): Promise<string[]> {
  const staging = mkdtempSync(join(resolve(outDir, '..'), '.bundle-'));
  try {
    await build({
      ...SERVER_BUNDLE_OPTIONS,
      absWorkingDir: ROOT,
      entryPoints: [join(ROOT, 'src/cli/run-api-server.ts')],
      outfile: join(staging, BUNDLE),
    });
    writeCodeCache(join(staging, BUNDLE));
    for (const name of readdirSync(outDir)) if (isBundleOutput(name)) rmSync(join(outDir, name));
    const written = readdirSync(staging);
    for (const name of written) renameSync(join(staging, name), join(outDir, name));
    return written.sort();
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Makes the bundle's code cache in a process of its own, started as the server is (the same V8
 * flags, which V8 checks before it uses a cache): it loads the bundle, as the server does before
 * anything else, and writes what V8 compiled for it.
 */
function writeCodeCache(bundle: string): void {
  const writer = join(ROOT, 'scripts', 'write-code-cache.ts');
  const r = spawnSync(process.execPath, ['--import', 'tsx', writer, bundle], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`the code cache was not written: ${r.stderr || r.error?.message}`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const outDir = process.argv[2] ? resolve(process.argv[2]) : undefined;
  bundleApiServer(outDir).then(
    (names) => process.stdout.write(`bundled orch-apiserver: ${names.filter((n) => !n.endsWith('.map')).join(', ')}\n`),
    (e) => {
      process.stderr.write(`bundle failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
