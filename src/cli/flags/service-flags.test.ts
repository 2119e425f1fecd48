import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ApiDomainName, apiDomain } from '../../apis/api-domain.js';
import { builtinResources } from '../../apis/builtin.js';
import { newOrchFeatureGates } from '../../featuregate/orch-features.js';
import { parseApiServerCommandLine } from './apiserver-flags.js';
import { FlagParseError, FlagValidationError } from './errors.js';

const servedResources = (domain: ApiDomainName) => builtinResources({ domain: apiDomain(domain) });

function parse(argv: string[]) {
  const parsed = parseApiServerCommandLine(argv, { featureGates: newOrchFeatureGates(), servedResources });
  if (parsed.help) throw new Error('unexpected help');
  return parsed.flags;
}

describe('Service networking flags', () => {
  it('default to kube-apiserver’s ranges', () => {
    const f = parse([]);
    assert.equal(f.serviceClusterIPRange, '');
    assert.equal(f.serviceNodePortRange, '30000-32767');
    assert.equal(f.advertiseAddress, '');
  });

  const accepted: [string[], Partial<Record<string, string>>][] = [
    [['--service-cluster-ip-range=10.96.0.0/12'], { serviceClusterIPRange: '10.96.0.0/12' }],
    [['--service-cluster-ip-range=10.96.0.0/16,fd00::/108'], { serviceClusterIPRange: '10.96.0.0/16,fd00::/108' }],
    [['--service-node-port-range=20000-20999'], { serviceNodePortRange: '20000-20999' }],
    [['--service-node-port-range=30000+99'], { serviceNodePortRange: '30000-30099' }],
    [['--service-node-port-range=31000'], { serviceNodePortRange: '31000-31000' }],
    [['--service-node-port-range='], { serviceNodePortRange: '30000-32767' }],
    [['--advertise-address=192.0.2.10'], { advertiseAddress: '192.0.2.10' }],
  ];
  for (const [argv, want] of accepted) {
    it(`accepts ${argv.join(' ')}`, () => {
      const f = parse(argv) as unknown as Record<string, string>;
      for (const [k, v] of Object.entries(want)) assert.equal(f[k], v);
    });
  }

  const parseErrors: [string, string][] = [
    [
      '--service-node-port-range=abc',
      'invalid argument "abc" for "--service-node-port-range" flag: strconv.Atoi: parsing "abc": invalid syntax',
    ],
    [
      '--service-node-port-range=30000-70000',
      'invalid argument "30000-70000" for "--service-node-port-range" flag: the port range cannot be greater than 65535: 30000-70000',
    ],
    [
      '--service-node-port-range=32000-31000',
      'invalid argument "32000-31000" for "--service-node-port-range" flag: end port cannot be less than start port: 32000-31000',
    ],
    [
      '--service-node-port-range=1-2+3',
      'invalid argument "1-2+3" for "--service-node-port-range" flag: unable to parse port range: 1-2+3',
    ],
    [
      '--advertise-address=somewhere',
      'invalid argument "somewhere" for "--advertise-address" flag: failed to parse IP: "somewhere"',
    ],
  ];
  for (const [arg, message] of parseErrors) {
    it(`rejects ${arg}`, () => {
      assert.throws(
        () => parse([arg]),
        (err: unknown) => err instanceof FlagParseError && err.message === message,
      );
    });
  }

  const invalid: [string, string[]][] = [
    ['--service-cluster-ip-range=10.0.0.0', ['service-cluster-ip-range[0] is not a valid cidr']],
    [
      '--service-cluster-ip-range=10.0.0.0/30',
      [
        'error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses',
      ],
    ],
    [
      '--service-cluster-ip-range=10.0.0.0/8',
      ['specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12'],
    ],
    [
      '--service-cluster-ip-range=10.0.0.0/24,10.1.0.0/24',
      ['--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family'],
    ],
    [
      '--service-cluster-ip-range=10.0.0.0/24,fd00::/64',
      ['specified --service-cluster-ip-range[1] is too large; for 128-bit addresses, the mask must be >= 108'],
    ],
    ['--service-cluster-ip-range=10.0.0.0/24,nope', ['service-cluster-ip-range[1] is not an ip net']],
    [
      '--service-cluster-ip-range=10.0.0.0/24,fd00::/108,10.2.0.0/24',
      ['--service-cluster-ip-range must not contain more than two entries'],
    ],
  ];
  for (const [arg, problems] of invalid) {
    it(`refuses ${arg}`, () => {
      assert.throws(
        () => parse([arg]),
        (err: unknown) =>
          err instanceof FlagValidationError && JSON.stringify(err.problems) === JSON.stringify(problems),
      );
    });
  }
});
