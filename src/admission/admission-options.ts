import { AdmissionChain } from './admission-chain.js';
import type { AdmissionPlugin } from './admission-plugin.js';

/** Builds one plugin from what the server offers plugins (lookups, clocks, ...). */
export type PluginFactory<D> = (deps: D) => AdmissionPlugin;

/**
 * The admission plugins a server knows, in the order they run (kube runs plugins in a fixed
 * recommended order whatever the flags' order), and which are on by default.
 */
export interface PluginCatalogue<D> {
  readonly ordered: readonly {
    readonly name: string;
    readonly factory: PluginFactory<D>;
    readonly defaultOn: boolean;
  }[];
}

export interface AdmissionSelection {
  /** `--enable-admission-plugins`: turned on in addition to the defaults. */
  readonly enable?: readonly string[];
  /** `--disable-admission-plugins`: turned off even when on by default. */
  readonly disable?: readonly string[];
}

export class AdmissionConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
    this.name = 'AdmissionConfigError';
  }
}

/** Every problem of a selection: unknown names, a plugin both enabled and disabled. */
export function validateAdmissionSelection<D>(catalogue: PluginCatalogue<D>, s: AdmissionSelection): string[] {
  const known = new Set(catalogue.ordered.map((p) => p.name));
  const problems: string[] = [];
  const enable = s.enable ?? [];
  const disable = s.disable ?? [];
  for (const [flag, names] of [
    ['enable-admission-plugins', enable],
    ['disable-admission-plugins', disable],
  ] as const) {
    for (const n of names) {
      if (!known.has(n)) {
        problems.push(`${flag} plugin ${JSON.stringify(n)} is unknown (known: ${[...known].join(', ')})`);
      }
    }
  }
  for (const n of enable) {
    if (disable.includes(n)) problems.push(`${n} in enable-admission-plugins and disable-admission-plugins overlapped`);
  }
  return problems;
}

/** The chain the selection turns on. @throws AdmissionConfigError listing every problem. */
export function buildAdmission<D>(catalogue: PluginCatalogue<D>, s: AdmissionSelection, deps: D): AdmissionChain {
  const problems = validateAdmissionSelection(catalogue, s);
  if (problems.length > 0) throw new AdmissionConfigError(problems);
  const enable = new Set(s.enable ?? []);
  const disable = new Set(s.disable ?? []);
  const plugins = catalogue.ordered
    .filter((p) => !disable.has(p.name) && (p.defaultOn || enable.has(p.name)))
    .map((p) => p.factory(deps));
  return new AdmissionChain(plugins);
}
