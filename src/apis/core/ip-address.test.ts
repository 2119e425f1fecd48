import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatCIDR,
  formatIP,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  networkContains,
  networkSize,
  parseCIDR,
  parseIP,
} from './ip-address.js';

describe('parseIP / formatIP (Go ParseIPSloppy, IP.String)', () => {
  const cases: [string, string | undefined, boolean?][] = [
    ['10.0.0.1', '10.0.0.1', true],
    ['010.000.000.001', '10.0.0.1', true],
    ['255.255.255.255', '255.255.255.255', true],
    ['256.0.0.1', undefined],
    ['1.2.3', undefined],
    ['1.2.3.4.5', undefined],
    ['a.b.c.d', undefined],
    ['', undefined],
    ['::1', '::1', false],
    ['::', '::', false],
    ['2001:db8::ffff', '2001:db8::ffff', false],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1', false],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1', false],
    ['fe80::1%eth0', undefined],
    ['::ffff:10.0.0.1', '10.0.0.1', true],
    ['::10.0.0.1', '::a00:1', false],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304', false],
    ['1:2:3:4:5:6:7:8:9', undefined],
    ['1::2::3', undefined],
    ['12345::1', undefined],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8', false],
  ];
  for (const [input, want, is4] of cases) {
    it(`${JSON.stringify(input)} → ${want ?? 'invalid'}`, () => {
      const ip = parseIP(input);
      if (want === undefined) return assert.equal(ip, undefined);
      assert.ok(ip);
      assert.equal(formatIP(ip), want);
      assert.equal(ip.is4, is4);
    });
  }
});

describe('parseCIDR (Go ParseCIDRSloppy, IPNet.String)', () => {
  const cases: [string, string | undefined, bigint?][] = [
    ['10.0.0.0/24', '10.0.0.0/24', 256n],
    ['10.0.0.5/24', '10.0.0.0/24', 256n],
    ['10.96.0.0/12', '10.96.0.0/12', 1n << 20n],
    ['fd00::/108', 'fd00::/108', 1n << 20n],
    ['0.0.0.0/0', '0.0.0.0/0', 1n << 32n],
    ['10.0.0.0/33', undefined],
    ['10.0.0.0', undefined],
    ['10.0.0.0/', undefined],
    ['10.0.0.0/a', undefined],
    ['x/8', undefined],
  ];
  for (const [input, want, size] of cases) {
    it(`${input} → ${want ?? 'invalid'}`, () => {
      const net = parseCIDR(input);
      if (want === undefined) return assert.equal(net, undefined);
      assert.ok(net);
      assert.equal(formatCIDR(net), want);
      assert.equal(networkSize(net), size);
    });
  }
  it('containment follows the prefix and the family', () => {
    const net = parseCIDR('10.0.0.0/24')!;
    assert.equal(networkContains(net, parseIP('10.0.0.255')!), true);
    assert.equal(networkContains(net, parseIP('10.0.1.0')!), false);
    assert.equal(networkContains(net, parseIP('::a00:1')!), false);
  });
});

describe('special address classes', () => {
  const cases: [string, { loopback?: boolean; linkLocal?: boolean; multicast?: boolean }][] = [
    ['127.1.2.3', { loopback: true }],
    ['::1', { loopback: true }],
    ['169.254.1.1', { linkLocal: true }],
    ['fe80::1', { linkLocal: true }],
    ['febf::1', { linkLocal: true }],
    ['fec0::1', {}],
    ['224.0.0.5', { multicast: true }],
    ['224.0.1.5', {}],
    ['ff02::1', { multicast: true }],
    ['10.1.2.3', {}],
  ];
  for (const [input, want] of cases) {
    it(input, () => {
      const ip = parseIP(input)!;
      assert.deepEqual(
        { loopback: isLoopback(ip), linkLocal: isLinkLocalUnicast(ip), multicast: isLinkLocalMulticast(ip) },
        { loopback: false, linkLocal: false, multicast: false, ...want },
      );
    });
  }
});
