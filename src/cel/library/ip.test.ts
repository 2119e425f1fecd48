import { describe } from 'node:test';
import { ipLibrary } from './ip.js';
import { type CelCase, runCelCases } from './testing/cel-cases.js';

const parseError = (s: string, detail: string): string =>
  `IP Address "${s}" parse error during conversion from string: ParseAddr("${s}"): ${detail}`;

describe('kubernetes.net.ip', () => {
  const cases: CelCase[] = [
    // kube's own table (ip_test.go).
    { expr: 'ip("192.168.0.1") == ip("192.168.0.1")', want: true },
    { expr: 'ip("192.168.0.1.0")', error: parseError('192.168.0.1.0', 'IPv4 address too long') },
    { expr: 'isIP("192.168.0.1")', want: true },
    { expr: 'isIP("192.168.0.1.0")', want: false },
    { expr: 'ip.isCanonical("127.0.0.1")', want: true },
    { expr: 'ip.isCanonical("127.0.0.1.0")', error: parseError('127.0.0.1.0', 'IPv4 address too long') },
    { expr: 'ip("192.168.0.1").family()', want: 4n },
    { expr: 'ip("0.0.0.0").isUnspecified()', want: true },
    { expr: 'ip("127.0.0.1").isUnspecified()', want: false },
    { expr: 'ip("127.0.0.1").isLoopback()', want: true },
    { expr: 'ip("1.2.3.4").isLoopback()', want: false },
    { expr: 'ip("224.0.0.1").isLinkLocalMulticast()', want: true },
    { expr: 'ip("224.0.1.1").isLinkLocalMulticast()', want: false },
    { expr: 'ip("169.254.169.254").isLinkLocalUnicast()', want: true },
    { expr: 'ip("192.168.0.1").isLinkLocalUnicast()', want: false },
    { expr: 'ip("192.168.0.1").isGlobalUnicast()', want: true },
    { expr: 'ip("255.255.255.255").isGlobalUnicast()', want: false },
    { expr: 'ip("2001:db8::68") == ip("2001:0db8:0:0::68")', want: true },
    {
      expr: 'ip("2001:db8:::68")',
      error: parseError('2001:db8:::68', 'each colon-separated field must have at least one digit (at ":68")'),
    },
    { expr: 'isIP("2001:db8::68")', want: true },
    { expr: 'isIP("2001:db8:::68")', want: false },
    { expr: 'ip.isCanonical("2001:db8::68")', want: true },
    { expr: 'ip.isCanonical("2001:DB8::68")', want: false },
    {
      expr: 'ip.isCanonical("2001:db8:::68")',
      error: parseError('2001:db8:::68', 'each colon-separated field must have at least one digit (at ":68")'),
    },
    { expr: 'ip("2001:db8::68").family()', want: 6n },
    { expr: 'ip("::").isUnspecified()', want: true },
    { expr: 'ip("::1").isUnspecified()', want: false },
    { expr: 'ip("::1").isLoopback()', want: true },
    { expr: 'ip("2001:db8::abcd").isLoopback()', want: false },
    { expr: 'ip("ff02::1").isLinkLocalMulticast()', want: true },
    { expr: 'ip("fd00::1").isLinkLocalMulticast()', want: false },
    { expr: 'ip("fe80::1").isLinkLocalUnicast()', want: true },
    { expr: 'ip("fd80::1").isLinkLocalUnicast()', want: false },
    { expr: 'ip("2001:db8::abcd").isGlobalUnicast()', want: true },
    { expr: 'ip("ff00::1").isGlobalUnicast()', want: false },
    { expr: 'string(ip("192.168.0.1"))', want: '192.168.0.1' },
    // Global unicast, Go's way: private and ULA addresses count; unspecified, loopback do not.
    { expr: 'ip("0.0.0.0").isGlobalUnicast()', want: false },
    { expr: 'ip("10.0.0.1").isGlobalUnicast()', want: true },
    { expr: 'ip("fd00::1").isGlobalUnicast()', want: true },
    { expr: 'ip("fe80::1").isGlobalUnicast()', want: false },
    { expr: 'ip("::").isGlobalUnicast()', want: false },
    { expr: 'ip("::1").isGlobalUnicast()', want: false },
    { expr: 'ip("127.0.0.1").isGlobalUnicast()', want: false },
    { expr: 'ip("ff02::1").isLinkLocalUnicast()', want: false },
    { expr: 'ip("febf::1").isLinkLocalUnicast()', want: true },
    { expr: 'ip("ff12::1").isLinkLocalMulticast()', want: true },
    // Canonical strings (RFC 5952): lower case, the first longest zero run as ::, no single ::.
    { expr: 'string(ip("2001:DB8:0:0:1:0:0:1"))', want: '2001:db8::1:0:0:1' },
    { expr: 'string(ip("0:0:1:0:0:0:0:0"))', want: '0:0:1::' },
    { expr: 'string(ip("1:0:2:3:4:5:6:7"))', want: '1:0:2:3:4:5:6:7' },
    { expr: 'string(ip("::1.2.3.4"))', want: '::102:304' },
    { expr: 'string(ip("1:2:3:4:5:6:1.2.3.4"))', want: '1:2:3:4:5:6:102:304' },
    { expr: 'string(ip("0000::0001"))', want: '::1' },
    { expr: 'ip.isCanonical("2001:db8:0:0:0:0:0:68")', want: false },
    // Go's strict parser, with its messages.
    { expr: 'ip("192.168.01.1")', error: parseError('192.168.01.1', 'IPv4 field has octet with leading zero') },
    { expr: 'ip("256.1.1.1")', error: parseError('256.1.1.1', 'IPv4 field has value >255') },
    { expr: 'ip("1.2.3")', error: parseError('1.2.3', 'IPv4 address too short') },
    { expr: 'ip(".1.2.3")', error: parseError('.1.2.3', 'IPv4 field must have at least one digit (at ".1.2.3")') },
    { expr: 'ip("1.2.3.4a")', error: parseError('1.2.3.4a', 'unexpected character (at "a")') },
    { expr: 'ip("1.2.3.4:80")', error: parseError('1.2.3.4:80', 'unexpected character (at ":80")') },
    {
      expr: 'ip("")',
      error: 'IP Address "" parse error during conversion from string: ParseAddr(""): unable to parse IP',
    },
    { expr: 'ip("%eth0")', error: parseError('%eth0', 'missing IPv6 address') },
    { expr: 'ip("12345::")', error: parseError('12345::', 'each group must have 4 or less digits (at "12345::")') },
    { expr: 'ip("::1.2.3.256")', error: parseError('::1.2.3.256', 'IPv4 field has value >255') },
    {
      expr: 'ip("1:2:1.2.3.4")',
      error: parseError(
        '1:2:1.2.3.4',
        'embedded IPv4 address must replace the final 2 fields of the address (at "1.2.3.4")',
      ),
    },
    {
      expr: 'ip("1:2:3:4:5:6:7:8:9")',
      error: parseError('1:2:3:4:5:6:7:8:9', 'trailing garbage after address (at "9")'),
    },
    { expr: 'ip("1::2::3")', error: parseError('1::2::3', 'multiple :: in address (at ":3")') },
    {
      expr: 'ip("1:2:3:4:5:6:7::8")',
      error: parseError('1:2:3:4:5:6:7::8', 'the :: must expand to at least one field of zeros'),
    },
    { expr: 'ip("1:2")', error: parseError('1:2', 'address string too short') },
    { expr: 'ip("1:")', error: parseError('1:', 'colon must be followed by more characters (at ":")') },
    { expr: 'ip("1:2x::")', error: parseError('1:2x::', 'unexpected character, want colon (at "x::")') },
    { expr: 'ip("fe80::1%")', error: parseError('fe80::1%', 'zone must be a non-empty string') },
    // kube's own restrictions: no zones, no IPv4-mapped IPv6.
    { expr: 'ip("fe80::1%eth0")', error: 'IP address "fe80::1%eth0" with zone value is not allowed' },
    { expr: 'ip("::ffff:1.2.3.4")', error: 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed' },
    { expr: 'ip("::ffff:102:304")', error: 'IPv4-mapped IPv6 address "::ffff:102:304" is not allowed' },
    { expr: 'isIP("fe80::1%eth0")', want: false },
    { expr: 'isIP("::ffff:1.2.3.4")', want: false },
    { expr: 'ip("::1") != ip("0.0.0.1")', want: true },
    { expr: 'isIP(1)', checkError: 'found no matching overload' },
  ];
  runCelCases([ipLibrary], cases);
});
