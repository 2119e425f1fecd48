import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/*
 * Loads a CommonJS bundle with V8's code cache. The server's bundle is some 2.7 MB of JavaScript:
 * compiling it, and the functions its modules run as they load, was about a third of the time
 * from process start to ready. Node 20 keeps no compile cache for ES modules, but `vm.Script`
 * accepts the code V8 made for the same source in an earlier process; the build makes it once
 * (scripts/bundle-apiserver.ts), so every start reads it instead of compiling.
 *
 * V8 checks only the source's length and its own version and flags before it uses a cache, so
 * the cache file starts with the SHA-256 of the bundle it was made from: a cache of any other
 * source is not used, and the bundle is compiled as without one. A cache V8 rejects (another
 * Node version, other V8 flags) costs only the compile it would have saved.
 */

const MAGIC = Buffer.from('orch-code-cache\n');

/** Where a bundle's code cache is kept: beside it, its name with `.code-cache` added. */
export function codeCacheOf(bundle: string): string {
  return `${bundle}.code-cache`;
}
const DIGEST_BYTES = 32;

/** What became of the cache when a bundle was loaded. */
export type CodeCacheUse = 'used' | 'rejected' | 'stale' | 'absent';

export interface LoadedBundle {
  /** The bundle's `module.exports`. */
  readonly exports: Record<string, unknown>;
  readonly cache: CodeCacheUse;
  /**
   * Writes the code V8 holds for the bundle now (its loading, and whatever it has run since) to
   * the cache file. The build writes it in its staging folder, beside the new bundle, and moves
   * both into place together.
   */
  writeCache(): void;
}

function digestOf(source: Buffer): Buffer {
  return createHash('sha256').update(source).digest();
}

/** The V8 data of `cacheFile` when it was made from `source`; which case it is otherwise. */
function readCache(cacheFile: string, digest: Buffer): Buffer | 'stale' | 'absent' {
  if (!existsSync(cacheFile)) return 'absent';
  const data = readFileSync(cacheFile);
  const header = MAGIC.length + DIGEST_BYTES;
  if (data.length <= header || !data.subarray(0, MAGIC.length).equals(MAGIC)) return 'stale';
  if (!data.subarray(MAGIC.length, header).equals(digest)) return 'stale';
  return data.subarray(header);
}

/**
 * Runs the CommonJS bundle `file` as Node's loader would (its own `require`, `module`,
 * `__filename`, `__dirname`), compiled from its code cache ({@link codeCacheOf}) when that holds
 * V8's code for exactly this source.
 */
export function loadCodeCachedBundle(file: string): LoadedBundle {
  const cacheFile = codeCacheOf(file);
  const bytes = readFileSync(file);
  const digest = digestOf(bytes);
  const cached = readCache(cacheFile, digest);
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${bytes.toString('utf8')}\n})`,
    {
      filename: file,
      cachedData: typeof cached === 'string' ? undefined : cached,
    },
  );
  const cache: CodeCacheUse =
    typeof cached === 'string' ? cached : script.cachedDataRejected === true ? 'rejected' : 'used';
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    cache,
    writeCache() {
      writeFileSync(cacheFile, Buffer.concat([MAGIC, digest, script.createCachedData()]));
    },
  };
}
