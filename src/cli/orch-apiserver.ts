#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

/*
 * The `orch-apiserver` entry point. It tunes V8 before anything else is loaded, then runs the
 * server (run-api-server.ts), which it imports only afterwards for that reason.
 *
 * V8 tuning (documented, and the only flags set here): V8 doubles its young generation (two
 * semi-spaces, up to 16 MiB each) whenever many objects survive a scavenge, and start-up is
 * nothing but survivors — modules, definitions, registries and watch caches, all kept for the
 * life of the process. The young generation would grow to its maximum during start-up and stay
 * there, resident, while the server idles (about 20 MiB more RSS, until V8's memory reducer
 * shrinks it some 20 s later). So it does not grow during start-up
 * (`--semi-space-growth-factor=1`: its survivors go to the old generation, where they belong,
 * after the usual two scavenges) and V8's default growth (2) is restored once the server serves,
 * so request load grows it exactly as before.
 *
 * Once the server serves, a full collection runs whenever the process goes quiet after a burst of
 * work (start-up included), so what the burst left behind is freed (idle-collection.ts).
 */
const V8_DEFAULT_SEMI_SPACE_GROWTH_FACTOR = 2;
setFlagsFromString('--semi-space-growth-factor=1');

const { runApiServer } = await import('./run-api-server.js');
const { collectWhenIdle, exposedGc, processCpuMs } = await import('./idle-collection.js');
runApiServer(process.argv.slice(2), () => {
  setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_SEMI_SPACE_GROWTH_FACTOR}`);
  const gc = exposedGc();
  if (gc) collectWhenIdle({ cpuMs: processCpuMs, collect: gc });
}).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
