import type { ExternalType, ModuleConfig } from './module-config.js';

/** Definition prefix of apimachinery's meta/v1 types. */
export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

const TIME = 'src/apis/meta/time-schema.ts';

/**
 * The upstream types with a JSON form of their own (a string, a number or a string, any JSON),
 * which Orch defines by hand: every module references them through these constants.
 */
export const SHARED_EXTERNALS: Readonly<Record<string, ExternalType>> = {
  [`${META}.Time`]: { names: ['timeSchema'], from: TIME },
  [`${META}.MicroTime`]: { names: ['microTimeSchema'], from: TIME },
  [`${META}.FieldsV1`]: { names: ['fieldsV1Schema'], from: 'src/apis/meta/fields-v1-schema.ts' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    names: ['quantitySchema'],
    from: 'src/apis/meta/quantity-schema.ts',
  },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
    names: ['intOrStringSchema'],
    from: 'src/apis/meta/int-or-string-schema.ts',
  },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': {
    names: ['rawExtensionSchema'],
    from: 'src/apis/meta/raw-extension-schema.ts',
  },
};

/** The settings shared by the built-in modules. */
export const BUILTIN_DEFAULTS: Pick<ModuleConfig, 'external' | 'typeMeta' | 'namePrefix' | 'imports'> = {
  external: SHARED_EXTERNALS,
  typeMeta: { apiVersion: 'apiVersionField', kind: 'kindField', from: 'src/apis/meta/type-meta-fields.ts' },
  namePrefix: { upstream: 'io.k8s.', internal: 'io.orch.' },
  imports: { namedType: 'src/apis/schema/named.ts', schema: 'src/apis/schema/schema.ts' },
};

/**
 * A built-in module: `generate.ts <name>` writes `output` from `upstream/<facts>.facts.json`,
 * reduced from Go package `goPackage`.
 */
export function builtinModule(options: {
  name: string;
  facts: string;
  goPackage: string;
  output: string;
  types: ModuleConfig['types'];
  uses: readonly string[];
}): ModuleConfig {
  return {
    ...BUILTIN_DEFAULTS,
    facts: `scripts/schema-gen/upstream/${options.facts}.facts.json`,
    output: options.output,
    command: `npx tsx scripts/schema-gen/generate.ts ${options.name}`,
    goPackage: options.goPackage,
    types: options.types,
    uses: options.uses,
  };
}
