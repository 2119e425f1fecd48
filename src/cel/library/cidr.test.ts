import { describe } from 'node:test';
import { cidrLibrary } from './cidr.js';
import { ipLibrary } from './ip.js';
import { type CelCase, runCelCases } from './testing/cel-cases.js';

const PREFIX = 'network address parse error during conversion from string: ';
const parseError = (s: string, detail: string): string => `${PREFIX}${PREFIX}netip.ParsePrefix("${s}"): ${detail}`;

describe('kubernetes.net.cidr', () => {
  const cases: CelCase[] = [
    // kube's own table (cidr_test.go, with the containsCIDR fix of v1.32's patch releases).
    { expr: 'string(cidr("192.168.0.0/24"))', want: '192.168.0.0/24' },
    // The type names, as cel-go resolves them.
    { expr: 'type(cidr("192.168.0.0/24")) == net.CIDR', want: true },
    { expr: 'type(ip("192.168.0.1")) == net.IP', want: true },
    { expr: 'type(cidr("192.168.0.0/24").ip()) == net.IP', want: true },
    { expr: 'type(ip("192.168.0.1")) == net.CIDR', want: false },
    { expr: 'type("192.168.0.1") == net.IP', want: false },
    { expr: 'cidr("192.168.0.0/")', error: parseError('192.168.0.0/', 'bad bits after slash: ""') },
    { expr: 'cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))', want: true },
    { expr: 'cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))', want: false },
    { expr: 'cidr("192.168.0.0/24").containsIP("192.168.0.1")', want: true },
    { expr: 'cidr("192.168.0.0/24").containsIP("192.168.1.1")', want: false },
    { expr: 'cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))', want: true },
    { expr: 'cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))', want: true },
    { expr: 'cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))', want: false },
    { expr: 'cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))', want: false },
    { expr: 'cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")', want: true },
    { expr: 'cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")', want: false },
    { expr: 'cidr("192.168.0.0/24").ip() == ip("192.168.0.0")', want: true },
    { expr: 'cidr("192.168.0.0/24").masked() == cidr("192.168.0.0/24")', want: true },
    { expr: 'cidr("192.168.0.1/24").masked() == cidr("192.168.0.0/24")', want: true },
    { expr: 'cidr("192.168.0.0/24").prefixLength()', want: 24n },
    { expr: 'string(cidr("2001:db8::/32"))', want: '2001:db8::/32' },
    { expr: 'cidr("2001:db8::/")', error: parseError('2001:db8::/', 'bad bits after slash: ""') },
    { expr: 'cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))', want: true },
    { expr: 'cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))', want: false },
    { expr: 'cidr("2001:db8::/32").containsIP("2001:db8::1")', want: true },
    { expr: 'cidr("2001:db8::/32").containsIP("2001:dc8::1")', want: false },
    { expr: 'cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))', want: true },
    { expr: 'cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))', want: false },
    { expr: 'cidr("2001:db8::/32").containsCIDR("2001:db8::/33")', want: true },
    { expr: 'cidr("2001:db8::/32").containsCIDR("2001:db8::/31")', want: false },
    { expr: 'cidr("2001:db8::/32").ip() == ip("2001:db8::")', want: true },
    { expr: 'string(cidr("2001:db8::/32").masked())', want: '2001:db8::/32' },
    { expr: 'string(cidr("2001:db8:1::/32").masked())', want: '2001:db8::/32' },
    { expr: 'cidr("2001:db8::/32").prefixLength()', want: 32n },
    { expr: 'isIP(cidr("192.168.0.0/24"))', checkError: 'found no matching overload' },
    // Containment across families and lengths, and of addresses in another family.
    { expr: 'cidr("10.0.0.0/8").containsCIDR("10.1.0.0/16")', want: true },
    { expr: 'cidr("0.0.0.0/0").containsIP("203.0.113.9")', want: true },
    { expr: 'cidr("0.0.0.0/0").containsIP("::1")', want: false },
    { expr: 'cidr("::/0").containsCIDR("10.0.0.0/8")', want: false },
    {
      expr: 'cidr("192.168.0.0/24").containsIP("192.168.0.1.1")',
      error:
        'IP Address "192.168.0.1.1" parse error during conversion from string: ParseAddr("192.168.0.1.1"): IPv4 address too long',
    },
    { expr: 'cidr("192.168.0.0/24").containsCIDR("192.168.0.0")', error: parseError('192.168.0.0', "no '/'") },
    { expr: 'cidr("192.168.0.1/24").ip() == ip("192.168.0.1")', want: true },
    { expr: 'string(cidr("10.1.2.3/0").masked())', want: '0.0.0.0/0' },
    { expr: 'cidr("1.2.3.4/24") == cidr("1.2.3.4/24")', want: true },
    { expr: 'cidr("1.2.3.4/24") == cidr("1.2.3.0/24")', want: false },
    { expr: 'isCIDR("192.168.0.0/24")', want: true },
    { expr: 'isCIDR("192.168.0.0")', want: false },
    { expr: 'isCIDR("::ffff:1.2.3.0/120")', want: false },
    // Go's messages for prefixes.
    { expr: 'cidr("192.168.0.0/33")', error: parseError('192.168.0.0/33', 'prefix length out of range') },
    { expr: 'cidr("::/129")', error: parseError('::/129', 'prefix length out of range') },
    { expr: 'cidr("192.168.0.0/024")', error: parseError('192.168.0.0/024', 'bad bits after slash: "024"') },
    { expr: 'cidr("192.168.0.0/+8")', error: parseError('192.168.0.0/+8', 'bad bits after slash: "+8"') },
    { expr: 'cidr("1.2.3/8")', error: parseError('1.2.3/8', 'ParseAddr("1.2.3"): IPv4 address too short') },
    {
      expr: 'cidr("fe80::1%eth0/64")',
      error: parseError('fe80::1%eth0/64', 'IPv6 zones cannot be present in a prefix'),
    },
    {
      expr: 'cidr("1.2.3.4/99999999999999999999")',
      error: parseError('1.2.3.4/99999999999999999999', 'bad bits after slash: "99999999999999999999"'),
    },
    {
      expr: 'cidr("::ffff:1.2.3.0/120")',
      error: `${PREFIX}IPv4-mapped IPv6 address "::ffff:1.2.3.0/120" is not allowed`,
    },
  ];
  runCelCases([ipLibrary, cidrLibrary], cases);

  // The CIDR library works without the IP library, as in kube (it declares net.IP itself).
  runCelCases([cidrLibrary], [{ expr: 'cidr("10.0.0.0/8").ip() == cidr("10.0.0.1/8").masked().ip()', want: true }]);
});
