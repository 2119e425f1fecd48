import { type Environment, Optional } from '@marcbachmann/cel-js';
import {
  type BaseSelection,
  buildBaseEnvironment,
  sameBase,
  selectBase,
  type VersionedLibrary,
} from './base-environment.js';
import { type CelDeclarations, CelEnvironment, type CelVariableType } from './cel-environment.js';
import { EnginePatcher } from './engine-patches.js';
import type { LazyInput } from './input-access.js';
import { INTEGER_PATCHES } from './integer-semantics.js';
import { toCelDynamic } from './json-values.js';
import { LIST_PATCHES } from './list-semantics.js';
import { NUMERIC_COMPARISON_PATCHES } from './numeric-comparison.js';
import { PRESENCE_PATCHES } from './presence-test.js';
import { ProgramCache } from './program-cache.js';
import type { SchemaField } from './schema-object.js';
import type { CelTypeBinding } from './schema-scalars.js';
import { declareSchemaType } from './schema-types.js';
import { STRING_PATCHES } from './string-semantics.js';
import { TIME_PATCHES } from './time-semantics.js';
import { type CelVersion, DEFAULT_COMPATIBILITY_VERSION, formatCelVersion } from './version.js';

export interface CelEnvironmentSetOptions {
  /** The version new expressions must stay compatible with (default: 1.31, n-1 of v1.32). */
  readonly compatibilityVersion?: CelVersion;
  /** Libraries (lists, regex, url, quantity, ...) with the versions they are available in. */
  readonly libraries?: readonly VersionedLibrary[];
  /** Compiled programs kept, least recently used dropped first (default 4096; 0 disables the cache). */
  readonly programCacheSize?: number;
  /**
   * kube-apiserver's homogeneous aggregate literals (`[1, 'a']` is a compile error); default
   * `true`, as in every environment kube serves. `false` only for tests that measure what the
   * rule alone rejects (the conformance suite).
   */
  readonly homogeneousAggregateLiterals?: boolean;
}

/** The two environments of one use, as kube-apiserver's `EnvSet` holds them. */
export interface CelEnvironmentPair {
  /** For expressions being written (create, or update changing the expression): the compatibility version's features only. */
  readonly newExpressions: CelEnvironment;
  /** For expressions already stored (and configuration files): every feature not removed. Same object when nothing differs. */
  readonly storedExpressions: CelEnvironment;
}

/**
 * The CEL environments of one server, built once per compatibility version: the base
 * environments, extended per use with that use's variables, and the cache of compiled programs
 * they share. Holds no global state; build one per server (or test).
 */
export class CelEnvironmentSet {
  readonly compatibilityVersion: CelVersion;
  readonly #patcher = new EnginePatcher([
    ...LIST_PATCHES,
    ...INTEGER_PATCHES,
    ...STRING_PATCHES,
    ...TIME_PATCHES,
    ...PRESENCE_PATCHES,
    ...NUMERIC_COMPARISON_PATCHES,
  ]);
  readonly #cache: ProgramCache;
  readonly #homogeneousAggregateLiterals: boolean;
  readonly #newBase: Environment;
  readonly #storedBase: Environment;
  #environments = 0;

  constructor(options: CelEnvironmentSetOptions = {}) {
    this.compatibilityVersion = options.compatibilityVersion ?? DEFAULT_COMPATIBILITY_VERSION;
    this.#cache = new ProgramCache(options.programCacheSize ?? 4096);
    this.#homogeneousAggregateLiterals = options.homogeneousAggregateLiterals ?? true;
    const libraries = options.libraries ?? [];
    const forNew: BaseSelection = selectBase(libraries, this.compatibilityVersion);
    const forStored: BaseSelection = selectBase(libraries);
    this.#newBase = buildBaseEnvironment(forNew, this.#patcher);
    this.#storedBase = sameBase(forNew, forStored) ? this.#newBase : buildBaseEnvironment(forStored, this.#patcher);
  }

  /** Number of compiled programs in the cache. */
  get cachedPrograms(): number {
    return this.#cache.size;
  }

  /**
   * The environments of one use. Expensive (it registers the use's types): call it when the use
   * is configured (a custom resource definition stored, an authentication configuration loaded),
   * not per request.
   */
  extend(declarations: CelDeclarations): CelEnvironmentPair {
    const id = ++this.#environments;
    const newExpressions = this.#declare(
      this.#newBase,
      declarations,
      `${declarations.name}#${id}@${formatCelVersion(this.compatibilityVersion)}`,
    );
    const storedExpressions =
      this.#storedBase === this.#newBase
        ? newExpressions
        : this.#declare(this.#storedBase, declarations, `${declarations.name}#${id}@stored`);
    return { newExpressions, storedExpressions };
  }

  #declare(base: Environment, declarations: CelDeclarations, key: string): CelEnvironment {
    const env = base.clone();
    const variables = new Map<string, (value: unknown) => unknown>();
    const schemaTypes = new Map<string, CelTypeBinding | undefined>();
    const objectFields = new Map<string, ReadonlySet<string>>();
    const objectTypes = new Map<string, ReadonlyMap<string, SchemaField>>();
    const lazyInputs = new Map<string, LazyInput>();
    const absentValues = new Map<string, unknown>();
    const optionalFreeVariables = new Set<string>();
    for (const v of declarations.variables) {
      if (isOptionalFree(v.type)) optionalFreeVariables.add(v.name);
      const { celType, convert } = binding(env, v.type, { schemaTypes, objectFields, objectTypes });
      if (v.type.kind === 'schema' && v.type.optional) {
        env.registerVariable(v.name, `optional<${celType}>`);
        variables.set(v.name, (value) => Optional.of(convert(value)));
        absentValues.set(v.name, Optional.none());
        continue;
      }
      env.registerVariable(v.name, celType);
      variables.set(v.name, convert);
      if (convert === toCelDynamic) lazyInputs.set(v.name, { kind: 'json' });
      else if (v.type.kind === 'schema' && objectTypes.has(celType)) {
        lazyInputs.set(v.name, { kind: 'object', typeName: celType, convert });
      }
    }
    this.#patcher.install(env);
    return new CelEnvironment({
      key,
      engine: env,
      variables,
      objectFields,
      objectTypes,
      lazyInputs,
      absentValues,
      cache: this.#cache,
      homogeneousAggregateLiterals: this.#homogeneousAggregateLiterals,
      optionalFreeVariables,
    });
  }
}

/** Whether values of a variable of this type never hold an optional value, at any depth. */
function isOptionalFree(type: CelVariableType): boolean {
  switch (type.kind) {
    case 'schema':
      return type.optional !== true;
    case 'json':
      return !(type.celType ?? 'dyn').includes('optional');
    case 'native':
      return !type.celType.includes('optional');
    case 'object':
      return Object.values(type.fields).every((t) => !t.includes('optional'));
  }
}

const identity = (v: unknown) => v;

/** How a variable is declared and converted. Variables of one schema type share its registration. */
function binding(
  env: Environment,
  type: CelVariableType,
  declared: {
    readonly schemaTypes: Map<string, CelTypeBinding | undefined>;
    readonly objectFields: Map<string, ReadonlySet<string>>;
    readonly objectTypes: Map<string, ReadonlyMap<string, SchemaField>>;
  },
): { celType: string; convert: (value: unknown) => unknown } {
  const { schemaTypes, objectFields, objectTypes } = declared;
  switch (type.kind) {
    case 'json':
      return { celType: type.celType ?? 'dyn', convert: toCelDynamic };
    case 'native':
      return { celType: type.celType, convert: identity };
    case 'object':
      env.registerType(type.typeName, { ctor: type.ctor as new () => object, fields: { ...type.fields } });
      return { celType: type.typeName, convert: identity };
    case 'schema': {
      if (!schemaTypes.has(type.typeName)) {
        const options = { typeName: type.typeName, isResourceRoot: type.isResourceRoot, objectFields, objectTypes };
        schemaTypes.set(type.typeName, declareSchemaType(env, type.schema, options));
      }
      // A schema CEL cannot see (no type, preserve-unknown-fields only) is dynamic JSON.
      const b = schemaTypes.get(type.typeName);
      return b ? { celType: b.celType, convert: b.convert } : { celType: 'dyn', convert: toCelDynamic };
    }
  }
}
