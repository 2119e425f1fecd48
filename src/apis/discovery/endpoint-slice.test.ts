import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import { endpointSliceTableColumns, formatSliceEndpoints, formatSlicePorts } from './discovery-columns.js';
import { defaultEndpointSlice, dropDeprecatedTopology } from './endpoint-slice-defaults.js';
import type { EndpointSlice } from './endpoint-slice-types.js';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './endpoint-slice-validation.js';

const slice = (fields: Partial<EndpointSlice>): EndpointSlice => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 's' },
  addressType: 'IPv4',
  ...fields,
});

describe('EndpointSlice defaults', () => {
  it('give ports an empty name and TCP', () => {
    const s = slice({ ports: [{ port: 80 }, { name: 'dns', protocol: 'UDP', port: 53 }] });
    defaultEndpointSlice(s);
    assert.deepEqual(s.ports, [
      { port: 80, name: '', protocol: 'TCP' },
      { name: 'dns', protocol: 'UDP', port: 53 },
    ]);
  });
  it('drop deprecatedTopology written through v1, keeping a known node name', () => {
    const old = slice({
      endpoints: [{ addresses: ['10.0.0.1'], deprecatedTopology: { 'kubernetes.io/hostname': 'n1' } }],
    });
    const s = slice({
      endpoints: [{ addresses: ['10.0.0.2'], deprecatedTopology: { 'kubernetes.io/hostname': 'n1' } }],
    });
    dropDeprecatedTopology(s, old, 'kubernetes.io/hostname');
    assert.deepEqual(s.endpoints, [{ addresses: ['10.0.0.2'], nodeName: 'n1' }]);
    const created = slice({ endpoints: [{ addresses: ['10.0.0.2'], deprecatedTopology: { a: 'b' } }] });
    dropDeprecatedTopology(created, undefined, 'kubernetes.io/hostname');
    assert.deepEqual(created.endpoints, [{ addresses: ['10.0.0.2'] }]);
  });
});

describe('EndpointSlice validation', () => {
  const cases: [string, EndpointSlice, string[]][] = [
    [
      'valid',
      slice({
        endpoints: [{ addresses: ['10.0.0.1'], hostname: 'a', nodeName: 'n' }],
        ports: [{ name: 'http', protocol: 'TCP', port: 80 }],
      }),
      [],
    ],
    ['no address type', slice({ addressType: undefined }), ['addressType: Required value']],
    [
      'unknown address type',
      slice({ addressType: 'IP' }),
      ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"'],
    ],
    [
      'addresses of the wrong kind',
      slice({ endpoints: [{ addresses: ['fd00::1', '127.0.0.1'] }, { addresses: [] }] }),
      [
        'endpoints[0].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address',
        'endpoints[0].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
        'endpoints[1].addresses: Required value: must contain at least 1 address',
      ],
    ],
    [
      'FQDN addresses',
      slice({ addressType: 'FQDN', endpoints: [{ addresses: ['example.com.', 'localhost', 'Bad.Example'] }] }),
      [
        'endpoints[0].addresses[1]: Invalid value: "localhost": should be a domain with at least two segments separated by dots',
        `endpoints[0].addresses[2]: Invalid value: "Bad.Example": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
    [
      'ports',
      slice({
        ports: [
          { name: 'a', protocol: 'TCP' },
          { name: 'a', protocol: 'ICMP' },
          { name: '', appProtocol: 'a b' },
        ],
      }),
      [
        'ports[1].name: Duplicate value: "a"',
        'ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
        'ports[2].protocol: Required value',
        `ports[2].appProtocol: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    ],
    [
      'zone hints',
      slice({ endpoints: [{ addresses: ['10.0.0.1'], hints: { forZones: [{ name: 'a' }, { name: 'a' }] } }] }),
      ['endpoints[0].hints.forZones[1].name: Duplicate value: "a"'],
    ],
  ];
  for (const [name, obj, want] of cases)
    it(name, () => assert.deepEqual(validateEndpointSlice(obj).map(formatFieldError), want));
  it('the address type is immutable', () => {
    assert.deepEqual(validateEndpointSliceUpdate(slice({ addressType: 'IPv6' }), slice({})).map(formatFieldError), [
      'addressType: Invalid value: "IPv6": field is immutable',
    ]);
  });
});

describe('EndpointSlice columns', () => {
  it('show ports and addresses, three at most', () => {
    const s = slice({
      ports: [{ port: 80 }, { name: 'x' }, {}, { port: 443 }],
      endpoints: [{ addresses: ['10.0.0.1'] }, { addresses: ['10.0.0.2', '10.0.0.3', '10.0.0.4'] }],
    });
    assert.equal(formatSlicePorts(s), '80,x,* + 1 more...');
    assert.equal(formatSliceEndpoints(s), '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...');
    assert.equal(formatSliceEndpoints(slice({})), '<unset>');
    assert.deepEqual(
      endpointSliceTableColumns({}).columnDefinitions.map((c) => c.name),
      ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'],
    );
  });
});
