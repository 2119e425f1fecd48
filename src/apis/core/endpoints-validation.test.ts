import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import { validateEndpoints } from './endpoints-validation.js';
import type { Endpoints } from './service-types.js';

const ep = (subsets: Endpoints['subsets']): Endpoints => ({
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: { name: 'e' },
  subsets,
});

describe('Endpoints validation', () => {
  const cases: [string, Endpoints, string[]][] = [
    [
      'valid',
      ep([
        { addresses: [{ ip: '10.1.0.1', hostname: 'a', nodeName: 'node-1' }], ports: [{ port: 80, protocol: 'TCP' }] },
      ]),
      [],
    ],
    ['no subsets', ep(undefined), []],
    [
      'a subset without addresses',
      ep([{ ports: [{ port: 80, protocol: 'TCP' }] }]),
      ['subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`'],
    ],
    [
      'special and bad addresses',
      ep([{ addresses: [{ ip: '127.0.0.1' }, { ip: 'x' }], notReadyAddresses: [{ ip: '169.254.1.1' }] }]),
      [
        'subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
        'subsets[0].addresses[1].ip: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        'subsets[0].addresses[1].ip: Invalid value: "x": must be a valid IP address',
        'subsets[0].notReadyAddresses[0].ip: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      ],
    ],
    [
      'ports: names when several, range, protocol',
      ep([
        {
          addresses: [{ ip: '10.1.0.1' }],
          ports: [
            { port: 0, protocol: 'TCP' },
            { name: 'b', port: 81, protocol: 'HTTP' },
          ],
        },
      ]),
      [
        'subsets[0].ports[0].name: Required value',
        'subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'subsets[0].ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      ],
    ],
  ];
  for (const [name, obj, want] of cases)
    it(name, () => assert.deepEqual(validateEndpoints(obj).map(formatFieldError), want));
});
