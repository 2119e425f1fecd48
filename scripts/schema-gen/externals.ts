import { SchemaGenError } from './facts.js';
import type { ExternalType, ModuleConfig } from './module-config.js';

/** Definition prefix of apimachinery's meta/v1 types. */
export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

const OBJECT_META = 'src/apis/meta/object-meta-schema.ts';

/** The upstream types every built-in module references and Orch defines by hand. */
export const SHARED_EXTERNALS: Readonly<Record<string, ExternalType>> = {
  [`${META}.ObjectMeta`]: {
    names: ['objectMetaField'],
    from: OBJECT_META,
    field: (n) => {
      if (n !== 1) throw new SchemaGenError(`ObjectMeta is field 1 everywhere, not ${n}`);
      return 'objectMetaField()';
    },
  },
  [`${META}.Time`]: { names: ['timeSchema'], from: OBJECT_META },
  [`${META}.MicroTime`]: { names: ['microTimeSchema'], from: OBJECT_META },
  [`${META}.DeleteOptions`]: { names: ['deleteOptionsSchema'], from: 'src/apis/openapi/meta-definitions.ts' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    names: ['quantitySchema'],
    from: 'src/apis/meta/quantity-schema.ts',
  },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
    names: ['intOrStringSchema'],
    from: 'src/apis/meta/int-or-string-schema.ts',
  },
  // Hand-written for Event and ServiceAccount before the generator existed; one definition each.
  'io.k8s.api.core.v1.ObjectReference': {
    names: ['objectReferenceSchema'],
    from: 'src/apis/core/object-reference-schema.ts',
    markers: { 'x-orch-map-type': 'atomic' },
  },
  'io.k8s.api.core.v1.LocalObjectReference': {
    names: ['localObjectReferenceSchema'],
    from: 'src/apis/core/object-reference-schema.ts',
    markers: { 'x-orch-map-type': 'atomic' },
  },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': {
    names: ['rawExtensionSchema'],
    from: 'src/apis/meta/raw-extension-schema.ts',
  },
};

/** The settings shared by the built-in modules. */
export const BUILTIN_DEFAULTS: Pick<ModuleConfig, 'external' | 'typeMeta' | 'namePrefix' | 'imports'> = {
  external: SHARED_EXTERNALS,
  typeMeta: { apiVersion: 'apiVersionField', kind: 'kindField', from: OBJECT_META },
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
