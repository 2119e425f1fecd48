#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { holdYoungGeneration, releaseYoungGeneration } from './startup-heap.js';

/*
 * The `orch-apiserver` entry point. It tunes V8 before anything else is loaded (startup-heap.ts:
 * the only flags set here), then loads the server (run-api-server.ts), which it imports only
 * afterwards for that reason: built, from the bundle `npm run build` makes beside it, with the
 * bundle's code cache (code-cached-bundle.ts); otherwise (the TypeScript sources, tsc's output
 * alone) module by module.
 *
 * Once the server serves, a full collection runs whenever the process goes quiet after a burst of
 * work (start-up included), so what the burst left behind is freed (idle-collection.ts).
 */
holdYoungGeneration();

type ServerProgram = typeof import('./run-api-server.js');

async function loadServerProgram(): Promise<ServerProgram> {
  const bundle = join(import.meta.dirname, 'run-api-server.cjs');
  if (!existsSync(bundle)) return import('./run-api-server.js');
  const { loadCodeCachedBundle } = await import('./code-cached-bundle.js');
  return loadCodeCachedBundle(bundle).exports as unknown as ServerProgram;
}

const { runApiServer } = await loadServerProgram();
const { collectWhenIdle, exposedGc, processCpuMs } = await import('./idle-collection.js');
runApiServer(process.argv.slice(2), () => {
  releaseYoungGeneration();
  const gc = exposedGc();
  if (gc) collectWhenIdle({ cpuMs: processCpuMs, collect: gc });
}).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
