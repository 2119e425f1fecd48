/*
 * Writes the code cache of the server's bundle (see code-cached-bundle.ts): loads the bundle as
 * `orch-apiserver` does, with the same V8 flags set first, and writes what V8 compiled for it.
 * Run by scripts/bundle-apiserver.ts in a process of its own.
 *
 * Usage: `node --import tsx scripts/write-code-cache.ts <bundle.cjs>` (writes `<bundle.cjs>.code-cache`)
 */
import { loadCodeCachedBundle } from '../src/cli/code-cached-bundle.js';
import { holdYoungGeneration } from '../src/cli/startup-heap.js';

holdYoungGeneration();
const [bundle] = process.argv.slice(2);
if (!bundle) {
  process.stderr.write('usage: write-code-cache.ts <bundle.cjs>\n');
  process.exit(2);
}
loadCodeCachedBundle(bundle).writeCache();
