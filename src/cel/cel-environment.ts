import type { Environment } from '@marcbachmann/cel-js';
import type { Schema } from '../apis/schema/schema.js';
import type { LazyInput } from './input-access.js';
import type { ProgramCache } from './program-cache.js';
import type { SchemaField } from './schema-object.js';

/** How a variable's values are typed and converted. */
export type CelVariableType =
  /** Decoded JSON of any shape; whole numbers become `int`. Declared as `celType` (default `dyn`). */
  | { readonly kind: 'json'; readonly celType?: string }
  /** Decoded JSON typed by a structural schema (see schema-types.ts). */
  | {
      readonly kind: 'schema';
      readonly schema: Schema;
      /** Name of the root object type, e.g. `kubernetes.UserInfo`. */
      readonly typeName: string;
      readonly isResourceRoot?: boolean;
      /**
       * Declared `optional<T>`: a value is `optional.of(value)`, an absent (or `null`) value
       * `optional.none()` (kube's `optionalOldSelf`).
       */
      readonly optional?: boolean;
    }
  /**
   * An object type of engine values declared by the caller (`ctor` is the values' class; the
   * engine reads field `f` as `value.get(f)` when the class extends `Map`, else `value[f]`).
   * Values are passed through.
   */
  | {
      readonly kind: 'object';
      readonly typeName: string;
      readonly fields: Readonly<Record<string, string>>;
      readonly ctor: abstract new (...args: never[]) => object;
    }
  /** Values already in the engine's representation, passed through, declared as `celType`. */
  | { readonly kind: 'native'; readonly celType: string };

/** One variable of an environment. */
export interface CelVariable {
  readonly name: string;
  readonly type: CelVariableType;
}

/** The variables of one use of CEL (custom resource validation, claim mapping, ...). */
export interface CelDeclarations {
  /** Names the use in the environment's key, e.g. `authentication-claims`. */
  readonly name: string;
  readonly variables: readonly CelVariable[];
}

/**
 * One environment: the engine environment with a use's variables declared, the conversion of
 * each variable's values, and the program cache of its environment set. Built by
 * `CelEnvironmentSet#extend`; pass it to `compile`.
 */
export class CelEnvironment {
  /** Identifies the environment among those of its set: the program cache's key. */
  readonly key: string;
  /** The engine environment (variables declared, engine patches applied). */
  readonly engine: Environment;
  /** Conversion of each declared variable's (non-null) value into the engine's representation. */
  readonly variables: ReadonlyMap<string, (value: unknown) => unknown>;
  /** The CEL field names of each schema object type declared, by type name. */
  readonly objectFields: ReadonlyMap<string, ReadonlySet<string>>;
  /** The fields of each schema object type declared, by type name, then CEL field name. */
  readonly objectTypes: ReadonlyMap<string, ReadonlyMap<string, SchemaField>>;
  /** The variables a program may read lazily (see input-access.ts), with how they convert. */
  readonly lazyInputs: ReadonlyMap<string, LazyInput>;
  /** The value of each variable that has one when absent from an activation (`optional.none()`). */
  readonly absentValues: ReadonlyMap<string, unknown>;
  readonly cache: ProgramCache;
  /** Whether list and map literals must be homogeneous (see homogeneous-literals.ts); true unless a test turns it off. */
  readonly homogeneousAggregateLiterals: boolean;
  /**
   * Declared variables whose type holds no optional type at any depth: a chain of fields selected
   * from one never reaches an optional value, so it needs no optional-chaining check (node-semantics.ts).
   */
  readonly optionalFreeVariables: ReadonlySet<string>;

  constructor(parts: {
    readonly key: string;
    readonly engine: Environment;
    readonly variables: ReadonlyMap<string, (value: unknown) => unknown>;
    readonly objectFields: ReadonlyMap<string, ReadonlySet<string>>;
    readonly objectTypes?: ReadonlyMap<string, ReadonlyMap<string, SchemaField>>;
    readonly lazyInputs?: ReadonlyMap<string, LazyInput>;
    readonly absentValues?: ReadonlyMap<string, unknown>;
    readonly cache: ProgramCache;
    readonly homogeneousAggregateLiterals?: boolean;
    readonly optionalFreeVariables?: ReadonlySet<string>;
  }) {
    this.key = parts.key;
    this.engine = parts.engine;
    this.variables = parts.variables;
    this.objectFields = parts.objectFields;
    this.objectTypes = parts.objectTypes ?? new Map();
    this.lazyInputs = parts.lazyInputs ?? new Map();
    this.absentValues = parts.absentValues ?? new Map();
    this.cache = parts.cache;
    this.homogeneousAggregateLiterals = parts.homogeneousAggregateLiterals ?? true;
    this.optionalFreeVariables = parts.optionalFreeVariables ?? new Set();
  }
}
