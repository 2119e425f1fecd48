/**
 * What the generator needs besides the upstream facts to write one schema module: where it goes,
 * which definitions it starts from, Orch's own one-line description of each kind, which upstream
 * types Orch already defines (referenced, never copied) and which other generated modules it
 * imports types from. Paths are relative to the repository root.
 */
export interface ModuleConfig {
  /** Facts file. */
  readonly facts: string;
  /** Output module. */
  readonly output: string;
  /** The command that regenerates the module, quoted in its header. */
  readonly command: string;
  /** Go package the module's own definitions are declared in (`k8s.io/api/core/v1`). */
  readonly goPackage: string;
  /**
   * Upstream definitions to generate (with what they reach), each with Orch's own description of
   * the type (never upstream text). Kinds need one; `undefined` leaves another type undescribed.
   * Reached types not listed here are generated without a description.
   */
  readonly types: Readonly<Record<string, string | undefined>>;
  /** Upstream definitions Orch already has: how a field of that type is written, and the import. */
  readonly external: Readonly<Record<string, ExternalType>>;
  /**
   * Orch's own markers added to generated properties, by upstream definition, then property
   * (`x-orch-list-duplicates: allowed` on ObjectMeta's `ownerReferences`): behaviour kube
   * implements in Go rather than in the schema it publishes. Only `x-orch-*` keys that no
   * upstream marker maps to; never prose.
   */
  readonly orchMarkers?: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, string | boolean>>>>>>;
  /** Generated modules (by name) whose definitions this module imports instead of generating. */
  readonly uses?: readonly string[];
  /** The `apiVersion` / `kind` properties of kinds: the shared field constants and their module. */
  readonly typeMeta: { readonly apiVersion: string; readonly kind: string; readonly from: string };
  /** Upstream name prefix → internal prefix (`io.k8s.` → `io.orch.`; `ApiDomain` maps it back). */
  readonly namePrefix: { readonly upstream: string; readonly internal: string };
  /** Modules of the `namedType` helper and of the `Schema` type. */
  readonly imports: { readonly namedType: string; readonly schema: string };
}

/** A type Orch defines by hand, used where the upstream facts reference it. */
export interface ExternalType {
  /** Constant(s) to import from `from`; the first is the type's schema. */
  readonly names: readonly string[];
  /** Module (path from the repository root). */
  readonly from: string;
  /** The type's own `x-orch-*` type markers, for fields that override one (see `x-orch-field-overrides`). */
  readonly markers?: Readonly<Record<string, unknown>>;
}
