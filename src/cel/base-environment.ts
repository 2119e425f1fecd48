import { Environment } from '@marcbachmann/cel-js';
import type { CelLibrary } from './cel-library.js';
import type { EnginePatcher } from './engine-patches.js';
import { registerOptionalFunctions } from './optional-functions.js';
import { registerRe2Matches } from './re2-matches.js';
import { registerTimeConversions } from './time-semantics.js';
import { registerTwoVarComprehensions } from './two-var-comprehensions.js';
import { type CelVersion, celVersion, compareCelVersions } from './version.js';

/**
 * The base environments: the language settings and libraries every CEL use shares, each with
 * the version that introduced it (and the version that removed it, for a replaced one), as
 * kube-apiserver's `MustBaseEnvSet` has them. New expressions see what their compatibility
 * version has; stored expressions see everything not removed, so an expression written under an
 * older version (or before a rollback) keeps compiling and evaluating.
 */

/** A library and the versions it is available in. */
export interface VersionedLibrary {
  readonly library: CelLibrary;
  readonly introducedVersion: CelVersion;
  /** First version without it (its replacement is introduced there). */
  readonly removedVersion?: CelVersion;
}

interface LanguageOption {
  readonly introducedVersion: CelVersion;
  readonly removedVersion?: CelVersion;
  /** Optional types: `?.`, `[?`, `optional.of`/`none`, `hasValue`, `value`, `orValue`, `or`. */
  readonly optionalTypes?: boolean;
  register?(env: Environment): void;
}

/** The language options of the engine itself (libraries come from the caller). */
const LANGUAGE_OPTIONS: readonly LanguageOption[] = [
  // CEL's epoch in kube is 1.23; options present from the start carry 1.0.
  { introducedVersion: celVersion(1, 0), register: registerRe2Matches },
  { introducedVersion: celVersion(1, 0), register: registerBytesOrdering },
  { introducedVersion: celVersion(1, 0), register: registerTimeConversions },
  // kube-apiserver introduces optional types at compatibility version 1.28, which release 1.29
  // (whose default compatibility version is 1.28) is the first to accept in new expressions.
  { introducedVersion: celVersion(1, 28), optionalTypes: true, register: registerOptionalFunctions },
  // ext.TwoVarComprehensions, introduced at 1.32: v1.32 evaluates stored expressions using them,
  // new expressions may use them once the compatibility version is 1.32 (release 1.33).
  { introducedVersion: celVersion(1, 32), register: registerTwoVarComprehensions },
];

/** What an environment for `version` holds; `undefined` is the stored-expressions environment. */
export interface BaseSelection {
  readonly optionalTypes: boolean;
  readonly options: readonly LanguageOption[];
  readonly libraries: readonly VersionedLibrary[];
}

function available(o: { introducedVersion: CelVersion; removedVersion?: CelVersion }, version?: CelVersion): boolean {
  if (version === undefined) return o.removedVersion === undefined;
  if (compareCelVersions(version, o.introducedVersion) < 0) return false;
  return o.removedVersion === undefined || compareCelVersions(version, o.removedVersion) < 0;
}

/** The options and libraries available at `version` (every one not removed when `undefined`). */
export function selectBase(libraries: readonly VersionedLibrary[], version?: CelVersion): BaseSelection {
  const options = LANGUAGE_OPTIONS.filter((o) => available(o, version));
  return {
    optionalTypes: options.some((o) => o.optionalTypes),
    options,
    libraries: libraries.filter((l) => available(l, version)),
  };
}

/** Whether two selections build the same environment. */
export function sameBase(a: BaseSelection, b: BaseSelection): boolean {
  const same = <T>(x: readonly T[], y: readonly T[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return a.optionalTypes === b.optionalTypes && same(a.options, b.options) && same(a.libraries, b.libraries);
}

/** A new engine environment with the selection registered and the engine patched. */
export function buildBaseEnvironment(selection: BaseSelection, patcher: EnginePatcher): Environment {
  const env = new Environment({
    enableOptionalTypes: selection.optionalTypes,
    // Checked after the engine's checker, with cel-go's rules (see homogeneous-literals.ts).
    homogeneousAggregateLiterals: false,
    unlistedVariablesAreDyn: false,
  });
  patcher.prepare(env);
  for (const o of selection.options) o.register?.(env);
  for (const l of selection.libraries) l.library.register(env);
  patcher.install(env);
  return env;
}

/** `bytes` ordering (`<`, `<=`, `>`, `>=`), lexicographic by byte, as CEL defines it; the engine lacks it. */
function registerBytesOrdering(env: Environment): void {
  const compare = (a: Uint8Array, b: Uint8Array): number => {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  };
  env.registerOperator('bytes < bytes', (a: Uint8Array, b: Uint8Array) => compare(a, b) < 0);
  env.registerOperator('bytes <= bytes', (a: Uint8Array, b: Uint8Array) => compare(a, b) <= 0);
  env.registerOperator('bytes > bytes', (a: Uint8Array, b: Uint8Array) => compare(a, b) > 0);
  env.registerOperator('bytes >= bytes', (a: Uint8Array, b: Uint8Array) => compare(a, b) >= 0);
}
