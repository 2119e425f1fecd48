import { setFlagsFromString } from 'node:v8';

/*
 * V8 doubles its young generation (two semi-spaces, up to 16 MiB each) whenever many objects
 * survive a scavenge, and start-up is nothing but survivors: modules, definitions, registries and
 * watch caches, all kept for the life of the process. The young generation would grow to its
 * maximum during start-up and stay there, resident, while the server idles (about 20 MiB more
 * RSS, until V8's memory reducer shrinks it some 20 s later). So it does not grow during start-up
 * (`--semi-space-growth-factor=1`: its survivors go to the old generation, where they belong,
 * after the usual two scavenges), and V8's default growth (2) is restored once the server serves,
 * so request load grows it exactly as before.
 *
 * The code cache of the server's bundle is made with the same flags as it is read with (V8 checks
 * them), so the program that writes it calls `holdYoungGeneration` too.
 */

const V8_DEFAULT_SEMI_SPACE_GROWTH_FACTOR = 2;

/** Start-up: the young generation keeps its size. Call before anything else is loaded. */
export function holdYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** Serving: V8's default growth again. */
export function releaseYoungGeneration(): void {
  setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_SEMI_SPACE_GROWTH_FACTOR}`);
}
