import { FeatureGateError, parseGoBool } from './errors.js';

/** Maturity of a feature, as printed in `--help` (`ALPHA`, `BETA`, `GA`, `DEPRECATED`). */
export type FeatureStage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface FeatureSpec {
  readonly default: boolean;
  readonly stage: FeatureStage;
  /** The value can no longer be changed (typical of GA features about to lose their gate). */
  readonly lockToDefault?: boolean;
}

/** Sets every alpha (resp. beta) feature not named explicitly in any `set`. */
const ALL_ALPHA = 'AllAlpha';
const ALL_BETA = 'AllBeta';

function sameSpec(a: FeatureSpec, b: FeatureSpec): boolean {
  return a.default === b.default && a.stage === b.stage && (a.lockToDefault ?? false) === (b.lockToDefault ?? false);
}

/**
 * A set of named features with defaults, overridable from `--feature-gates`. One instance per
 * process (or per test), injected where decisions are made; there is no global gate.
 *
 * Semantics follow kube's `featuregate`: explicit settings win over `AllAlpha`/`AllBeta`, which win
 * over defaults; locked features reject a value different from their default; setting a GA or
 * deprecated feature succeeds with a warning. `set`/`setFromMap` are atomic: on error nothing changes.
 */
export class FeatureGates {
  readonly #known = new Map<string, FeatureSpec>();
  readonly #explicit = new Map<string, boolean>();
  #allAlpha: boolean | undefined;
  #allBeta: boolean | undefined;

  constructor(known: Readonly<Record<string, FeatureSpec>> = {}) {
    this.add(known);
  }

  /**
   * Registers more features. Re-registering a name with an identical spec is a no-op.
   * @throws FeatureGateError when a name is reserved or already registered with a different spec.
   */
  add(known: Readonly<Record<string, FeatureSpec>>): void {
    const problems: string[] = [];
    for (const [name, spec] of Object.entries(known)) {
      if (name === ALL_ALPHA || name === ALL_BETA) problems.push(`feature gate ${name} is reserved`);
      const existing = this.#known.get(name);
      if (existing && !sameSpec(existing, spec)) {
        problems.push(`feature gate ${name} with different spec already exists: ${JSON.stringify(existing)}`);
      }
    }
    if (problems.length > 0) throw new FeatureGateError(problems);
    for (const [name, spec] of Object.entries(known)) this.#known.set(name, { ...spec });
  }

  /**
   * Applies a `--feature-gates` value: comma-separated `Name=bool` pairs, whitespace-trimmed,
   * empty items skipped; booleans as Go's `strconv.ParseBool` reads them.
   * @returns warnings to log (setting GA or deprecated features).
   * @throws FeatureGateError with kube's wording; nothing is applied then.
   */
  set(value: string): string[] {
    return this.setFromMap(parseFeatureGateValue(value));
  }

  /** Like {@link set}, from an already parsed map. */
  setFromMap(values: Readonly<Record<string, boolean>>): string[] {
    const warnings = this.check(values);
    for (const [name, enabled] of Object.entries(values)) {
      if (name === ALL_ALPHA) this.#allAlpha = enabled;
      else if (name === ALL_BETA) this.#allBeta = enabled;
      else this.#explicit.set(name, enabled);
    }
    return warnings;
  }

  /**
   * Validates `values` without applying them.
   * @returns the warnings {@link setFromMap} would return.
   * @throws FeatureGateError listing every problem.
   */
  check(values: Readonly<Record<string, boolean>>): string[] {
    const problems: string[] = [];
    const warnings: string[] = [];
    for (const [name, enabled] of Object.entries(values)) {
      if (name === ALL_ALPHA || name === ALL_BETA) continue;
      const spec = this.#known.get(name);
      if (!spec) {
        problems.push(`unrecognized feature gate: ${name}`);
        continue;
      }
      if (spec.lockToDefault && spec.default !== enabled) {
        problems.push(`cannot set feature gate ${name} to ${enabled}, feature is locked to ${spec.default}`);
        continue;
      }
      if (spec.stage === 'DEPRECATED') {
        warnings.push(`Setting deprecated feature gate ${name}=${enabled}. It will be removed in a future release.`);
      } else if (spec.stage === 'GA') {
        warnings.push(`Setting GA feature gate ${name}=${enabled}. It will be removed in a future release.`);
      }
    }
    if (problems.length > 0) throw new FeatureGateError(problems);
    return warnings;
  }

  /**
   * Whether the feature is on.
   * @throws FeatureGateError for a name never registered (a programming error, as in kube).
   */
  enabled(name: string): boolean {
    const spec = this.#known.get(name);
    if (!spec) throw new FeatureGateError([`feature ${JSON.stringify(name)} is not registered in FeatureGate`]);
    const explicit = this.#explicit.get(name);
    if (explicit !== undefined) return explicit;
    if (spec.stage === 'ALPHA' && this.#allAlpha !== undefined) return this.#allAlpha;
    if (spec.stage === 'BETA' && this.#allBeta !== undefined) return this.#allBeta;
    return spec.default;
  }

  has(name: string): boolean {
    return this.#known.has(name);
  }

  /** Every registered feature and its current value, sorted by name. */
  snapshot(): Record<string, boolean> {
    const out: Record<string, boolean> = {};
    for (const name of [...this.#known.keys()].sort()) out[name] = this.enabled(name);
    return out;
  }

  /**
   * Help lines in kube's format (`Name=true|false (BETA - default=true)`), sorted, including
   * `AllAlpha` and `AllBeta`; GA and deprecated features are listed only while settable.
   */
  knownFeatures(): string[] {
    const lines = [`${ALL_ALPHA}=true|false (ALPHA - default=false)`, `${ALL_BETA}=true|false (BETA - default=false)`];
    for (const [name, spec] of this.#known) {
      if (spec.lockToDefault) continue;
      lines.push(`${name}=true|false (${spec.stage} - default=${spec.default})`);
    }
    return lines.sort();
  }
}

/**
 * Parses a `--feature-gates` value into a map, with kube's messages
 * (`missing bool value for X`, `invalid value of X=Y, err: strconv.ParseBool: ...`).
 * Later occurrences of a name override earlier ones.
 * @throws FeatureGateError on the first malformed item.
 */
export function parseFeatureGateValue(value: string): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const item of value.split(',')) {
    if (item === '') continue;
    const eq = item.indexOf('=');
    const name = (eq < 0 ? item : item.slice(0, eq)).trim();
    if (eq < 0) throw new FeatureGateError([`missing bool value for ${name}`]);
    const raw = item.slice(eq + 1).trim();
    const parsed = parseGoBool(raw);
    if (typeof parsed !== 'boolean')
      throw new FeatureGateError([`invalid value of ${name}=${raw}, err: ${parsed.error}`]);
    out[name] = parsed;
  }
  return out;
}
