import type { Schema } from '../schema/schema.js';
import { describeField } from '../table/column-helpers.js';
import { AGE_SPEC, declarativeTableColumns } from '../table/declarative-columns.js';
import type { TableColumns } from '../table/table-types.js';
import type { EndpointSlice } from './endpoint-slice-types.js';

const MAX_SHOWN = 3;

/** kube's `listWithMoreString`: the items, `+ N more...` past three, `<unset>` when none. */
function listWithMore(list: readonly string[], count: number): string {
  const text = list.slice(0, MAX_SHOWN).join(',');
  if (count > MAX_SHOWN) return `${text} + ${count - MAX_SHOWN} more...`;
  return text === '' ? '<unset>' : text;
}

/** kube's `formatDiscoveryPorts`: each port's number, else its name, else `*`. */
export function formatSlicePorts(slice: EndpointSlice): string {
  const ports = slice.ports ?? [];
  const list = ports.map((p) => (p.port !== undefined ? String(p.port) : p.name !== undefined ? p.name : '*'));
  return listWithMore(list, list.length);
}

/** kube's `formatDiscoveryEndpoints`: the addresses of all endpoints. */
export function formatSliceEndpoints(slice: EndpointSlice): string {
  const addresses = (slice.endpoints ?? []).flatMap((ep) => ep.addresses ?? []);
  return listWithMore(addresses, addresses.length);
}

/**
 * EndpointSlice: `Name`, `AddressType`, `Ports`, `Endpoints`, `Age` (descriptions from the
 * schema's documentation when it has some, else Orch's own).
 */
export function endpointSliceTableColumns(schema: Schema): TableColumns {
  return declarativeTableColumns([
    {
      name: 'AddressType',
      type: 'string',
      description: describeField(schema, 'addressType') || 'The type of the addresses in the slice.',
      jsonPath: '.addressType',
      zero: '',
    },
    {
      name: 'Ports',
      type: 'string',
      description: describeField(schema, 'ports') || 'The ports every endpoint of the slice exposes.',
      cell: (obj) => formatSlicePorts(obj as EndpointSlice),
    },
    {
      name: 'Endpoints',
      type: 'string',
      description: describeField(schema, 'endpoints') || 'The addresses of the endpoints in the slice.',
      cell: (obj) => formatSliceEndpoints(obj as EndpointSlice),
    },
    AGE_SPEC,
  ]);
}
