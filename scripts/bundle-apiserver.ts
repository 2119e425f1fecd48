/*
 * Bundles the `orch-apiserver` program into a few files of `dist/cli/` (run after `tsc`, by
 * `npm run build`). Why: the server imports some 800 modules, and Node 20's ES module loader
 * resolves, reads, compiles and links each on its own (Node 20 has no compile cache); that was
 * about a third of the CPU time from process start to ready on an empty store. Bundled, the same
 * start takes about two thirds of the CPU time it takes from the separate modules.
 *
 * What is bundled: `src/cli/run-api-server.ts` and everything it imports, with the pure JavaScript
 * libraries. The entry point `dist/cli/orch-apiserver.js` (tsc's output) is unchanged: it sets its
 * V8 flags, then imports `./run-api-server.js`, which this replaces. Code reached only through a
 * dynamic `import()` (the LMDB and etcd stores, the compactor) goes into chunks beside it, loaded
 * on demand as before. Libraries with native parts or loaded on first use through `require`
 * (lmdb, etcd3 and its gRPC stack, @peculiar/x509) stay in node_modules. The bundle is made from
 * the TypeScript sources, as tsx runs them in the tests (`isolatedModules`, `verbatimModuleSyntax`):
 * tsc's per-module output in `dist/` stays as it is, for the library export and the other programs.
 *
 * Usage: `node --import tsx scripts/bundle-apiserver.ts [outDir]` (default `dist/cli`).
 */
import { mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type BuildOptions, build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

/** Packages left to Node's loader: native code, or loaded lazily through `require`. */
export const EXTERNAL_PACKAGES: readonly string[] = ['lmdb', 'etcd3', '@peculiar/x509', 'reflect-metadata'];

/**
 * How a program is bundled, whatever its entry and output: the server here, and the programs the
 * tests start (test/support/program-bundle.ts), so both run the code as built for `dist/`.
 */
export const PROGRAM_BUNDLE_OPTIONS: Readonly<BuildOptions> = {
  bundle: true,
  splitting: true,
  format: 'esm',
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
  // Bundled CommonJS libraries (yaml, prom-client) call `require` for Node's built-ins.
  banner: {
    js: "import { createRequire as __orchCreateRequire } from 'node:module'; const require = __orchCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
};

/** Output names all start with this, so a new build can remove the previous one's files. */
const PREFIX = 'run-api-server';

/**
 * Bundles into `outDir` (replacing `run-api-server.js` and its chunks there) and resolves with
 * the names written. The files are made in a temporary directory first, so a failed build leaves
 * the previous output whole.
 */
export async function bundleApiServer(outDir: string = join(ROOT, 'dist', 'cli')): Promise<string[]> {
  const staging = mkdtempSync(join(resolve(outDir, '..'), '.bundle-'));
  try {
    await build({
      ...PROGRAM_BUNDLE_OPTIONS,
      absWorkingDir: ROOT,
      entryPoints: { [PREFIX]: join(ROOT, 'src/cli/run-api-server.ts') },
      outdir: staging,
      chunkNames: `${PREFIX}-[name]-[hash]`,
    });
    for (const name of readdirSync(outDir)) {
      if (name.startsWith(`${PREFIX}.js`) || name.startsWith(`${PREFIX}-`)) rmSync(join(outDir, name));
    }
    const written = readdirSync(staging);
    for (const name of written) renameSync(join(staging, name), join(outDir, name));
    return written.sort();
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
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
