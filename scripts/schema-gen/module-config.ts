/**
 * What the generator needs besides the upstream facts to write one schema module: where it goes,
 * which definitions it exports, Orch's own one-line description of each, and which upstream
 * types are already defined in Orch (and must be referenced, never copied).
 */
export interface ModuleConfig {
  /** Facts file, relative to the repository root. */
  readonly facts: string;
  /** Output module, relative to the repository root. */
  readonly output: string;
  /** The command that regenerates the module, quoted in its header. */
  readonly command: string;
  /**
   * Upstream definitions to generate, each with Orch's own description of the type (never
   * upstream text). Definitions they reference are generated too and need a description here.
   */
  readonly types: Readonly<Record<string, string>>;
  /** Upstream definitions Orch already has: how a field of that type is written, and the import. */
  readonly external: Readonly<Record<string, ExternalType>>;
  /** The `apiVersion` / `kind` properties of kinds: the shared field constants and their import. */
  readonly typeMeta: { readonly apiVersion: string; readonly kind: string; readonly from: string };
  /** Upstream name prefix → internal prefix (`io.k8s.` → `io.orch.`; `ApiDomain` maps it back). */
  readonly namePrefix: { readonly upstream: string; readonly internal: string };
  /** Module imports: the `namedType` helper and the `Schema` type. */
  readonly imports: { readonly namedType: string; readonly schema: string };
}

export interface ExternalType {
  /** Expression of a field of this type, given the field's protobuf number. */
  readonly field: (protobufNumber: number) => string;
  /** Identifier(s) to import and the module they come from (relative to the output). */
  readonly names: readonly string[];
  readonly from: string;
}
