import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { standardFinalizers } from '../meta/object-meta-validation.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import { endpointSliceTableColumns } from './discovery-columns.js';
import { endpointSliceSchema } from './discovery-v1-schemas.js';
import { defaultEndpointSlice, dropDeprecatedTopology } from './endpoint-slice-defaults.js';
import type { EndpointSlice } from './endpoint-slice-types.js';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './endpoint-slice-validation.js';

/**
 * `discovery.<domain>/v1` `endpointslices` (kube v1.32): ports default to an empty name and TCP;
 * `deprecatedTopology` cannot be written through v1; `addressType` is immutable; `generation`
 * counts changes to the endpoints and ports.
 */
export function endpointSliceResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(endpointSliceSchema);
  const hostnameLabel = domain.key('', 'hostname');
  return {
    group: domain.group('discovery'),
    version: 'v1',
    kind: 'EndpointSlice',
    listKind: 'EndpointSliceList',
    resource: 'endpointslices',
    singular: 'endpointslice',
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: false,
    hasGeneration: true,
    schema: endpointSliceSchema,
    tableColumns: endpointSliceTableColumns(endpointSliceSchema),
    listDescription: 'A list of EndpointSlices.',
    listItemsDescription: 'The EndpointSlices.',
    listMetadataDescription: "The list's metadata: its resource version and continue token.",
    strategy: schemaStrategy<EndpointSlice>({
      schema,
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: standardFinalizers(domain),
      defaults: defaultEndpointSlice,
      prepareForCreate: (slice) => dropDeprecatedTopology(slice, undefined, hostnameLabel),
      prepareForUpdate: (slice, old) => dropDeprecatedTopology(slice, old, hostnameLabel),
      validateCreate: validateEndpointSlice,
      validateUpdate: validateEndpointSliceUpdate,
    }),
  };
}

/** The kinds of `discovery.<domain>/v1`. */
export function discoveryResources(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition[] {
  return [endpointSliceResource(domain)];
}
