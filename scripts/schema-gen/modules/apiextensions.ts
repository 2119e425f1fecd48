import { BUILTIN_DEFAULTS } from '../externals.js';
import type { ModuleConfig } from '../module-config.js';

const V1 = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
const SCHEMAS = 'src/apis/apiextensions/json-schema-props-schema.ts';

/**
 * `apiextensions/v1` CustomResourceDefinition, from k8s.io/apiextensions-apiserver. JSONSchemaProps
 * is recursive and its JSON-form members (JSON, JSONSchemaPropsOrArray, ...) have their own JSON
 * forms: they are written by hand and referenced.
 */
export const APIEXTENSIONS_MODULE: ModuleConfig = {
  ...BUILTIN_DEFAULTS,
  external: {
    ...BUILTIN_DEFAULTS.external,
    [`${V1}.JSONSchemaProps`]: { names: ['jsonSchemaPropsSchema'], from: SCHEMAS },
  },
  facts: 'scripts/schema-gen/upstream/apiextensions-v1.facts.json',
  output: 'src/apis/apiextensions/apiextensions-v1-schemas.ts',
  command: 'npx tsx scripts/schema-gen/generate.ts apiextensions',
  goPackage: 'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1',
  types: {
    [`${V1}.CustomResourceDefinition`]:
      'Defines a custom resource: its names, scope, versions with their schemas, and how it is served.',
  },
  uses: ['meta'],
};
