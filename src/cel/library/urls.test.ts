import { describe } from 'node:test';
import { type CelCase, runCelCases } from './testing/cel-cases.js';
import { urlsLibrary } from './urls.js';

const PREFIX = 'URL parse error during conversion from string: ';

describe('kubernetes.urls', () => {
  const full = "url('https://user:pass@example.com:80/path?query=val#fragment')";
  const cases: CelCase[] = [
    // kube's documented examples.
    { expr: `${full}.getScheme()`, want: 'https' },
    { expr: `${full}.getHost()`, want: 'example.com:80' },
    { expr: `${full}.getHostname()`, want: 'example.com' },
    { expr: `${full}.getPort()`, want: '80' },
    { expr: `${full}.getEscapedPath()`, want: '/path' },
    { expr: `${full}.getQuery() == {'query': ['val']}`, want: true },
    { expr: "url('/absolute-path').getScheme()", want: '' },
    { expr: "url('/absolute-path').getHost()", want: '' },
    { expr: "url('/absolute-path').getHostname()", want: '' },
    { expr: "url('/absolute-path').getPort()", want: '' },
    { expr: "url('https://example.com/').getPort()", want: '' },
    { expr: "url('https://example.com/').getHost()", want: 'example.com' },
    { expr: "url('https://127.0.0.1:80/').getHostname()", want: '127.0.0.1' },
    { expr: "url('https://[::1]:80/').getHost()", want: '[::1]:80' },
    { expr: "url('https://[::1]:80/').getHostname()", want: '::1' },
    { expr: "url('https://[::1]:80/').getPort()", want: '80' },
    { expr: "url('https://[::1]/').getHost()", want: '[::1]' },
    { expr: "url('https://[::1]/').getHostname()", want: '::1' },
    { expr: "url('https://[fe80::1%25en0]:8080/').getHostname()", want: 'fe80::1%en0' },
    { expr: "url('https://example.com/path with spaces/').getEscapedPath()", want: '/path%20with%20spaces/' },
    { expr: "url('https://example.com').getEscapedPath()", want: '' },
    {
      expr: "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()",
      want: new Map([
        ['k1', ['a']],
        ['k2', ['b', 'c']],
      ]),
    },
    {
      expr: "url('https://example.com/path?key with spaces=value with spaces').getQuery()",
      want: new Map([['key with spaces', ['value with spaces']]]),
    },
    { expr: "url('https://example.com/path?').getQuery()", want: new Map() },
    { expr: "url('https://example.com/path').getQuery()", want: new Map() },
    { expr: "isURL('https://user:pass@example.com:80/path?query=val#fragment')", want: true },
    { expr: "isURL('/absolute-path')", want: true },
    { expr: "isURL('https://a:b:c/')", want: false },
    { expr: "isURL('../relative-path')", want: false },
    { expr: "url('https://a:b:c/')", error: `${PREFIX}parse "https://a:b:c/": invalid port ":c" after host` },
    { expr: "url('../relative-path')", error: `${PREFIX}parse "../relative-path": invalid URI for request` },
    // Go's parser in detail: schemes, escapes, paths, queries.
    { expr: "url('HTTP://Example.com/').getScheme()", want: 'http' },
    { expr: "url('HTTP://Example.com/').getHost()", want: 'Example.com' },
    { expr: "url('mailto:user@example.com').getScheme()", want: 'mailto' },
    { expr: "url('mailto:user@example.com').getHost()", want: '' },
    { expr: "url('mailto:user@example.com').getEscapedPath()", want: '' },
    { expr: "url('*').getEscapedPath()", want: '*' },
    { expr: "url('//host/path').getHost()", want: 'host' },
    { expr: "url('https://x/a%2Fb').getEscapedPath()", want: '/a%2Fb' },
    { expr: "url('https://x/caf%C3%A9').getEscapedPath()", want: '/caf%C3%A9' },
    { expr: "url('https://x/café').getEscapedPath()", want: '/caf%C3%A9' },
    // Invalid UTF-8 after unescaping escapes back byte for byte, as in Go.
    { expr: "url('https://x/%FF').getEscapedPath()", want: '/%FF' },
    { expr: "url('https://x/%c3%a9').getEscapedPath()", want: '/%c3%a9' },
    { expr: "url('https://%C3%A9.com/').getHost()", want: 'é.com' },
    { expr: "url('https://example.com/path#frag').getEscapedPath()", want: '/path' },
    { expr: "url('http://x/?q=a+b%21').getQuery()", want: new Map([['q', ['a b!']]]) },
    {
      expr: "url('http://x/?a=%zz&b=1&&c').getQuery()",
      want: new Map([
        ['b', ['1']],
        ['c', ['']],
      ]),
    },
    { expr: "url('http://x/?a=1;b=2&c=3').getQuery()", want: new Map([['c', ['3']]]) },
    { expr: "url('https://example.com/a') == url('https://example.com/a')", want: true },
    { expr: "url('https://example.com/a#x') == url('https://example.com/a')", want: false },
    { expr: "url('https://example.com/a') != url('https://example.com/b')", want: true },
    { expr: "url('https://example.com/%7e') == url('https://example.com/~')", want: false },
    { expr: "url('https://EXAMPLE.com') == url('https://example.com')", want: false },
    // Errors, with Go's messages.
    { expr: "url('')", error: `${PREFIX}parse "": empty url` },
    { expr: "url(':foo')", error: `${PREFIX}parse ":foo": missing protocol scheme` },
    {
      expr: "url('https://example.com#frag')",
      error: `${PREFIX}parse "https://example.com#frag": invalid character "#" in host name`,
    },
    {
      expr: "url('http://ex ample.com/')",
      error: `${PREFIX}parse "http://ex ample.com/": invalid character " " in host name`,
    },
    { expr: "url('http://[::1/')", error: `${PREFIX}parse "http://[::1/": missing ']' in host` },
    { expr: "url('http://[::1]x/')", error: `${PREFIX}parse "http://[::1]x/": invalid port "x" after host` },
    { expr: "url('http://%41.com/')", error: `${PREFIX}parse "http://%41.com/": invalid URL escape "%41"` },
    { expr: "url('https://x/%zz')", error: `${PREFIX}parse "https://x/%zz": invalid URL escape "%zz"` },
    { expr: "url('https://x/%aé')", error: `${PREFIX}parse "https://x/%aé": invalid URL escape "%a\\xc3"` },
    { expr: "url('https://x/%')", error: `${PREFIX}parse "https://x/%": invalid URL escape "%"` },
    { expr: "url('http://us er@host/')", error: `${PREFIX}parse "http://us er@host/": net/url: invalid userinfo` },
    { expr: "url('http://u%zz@host/')", error: `${PREFIX}parse "http://u%zz@host/": invalid URL escape "%zz"` },
    {
      expr: "url('http://x/\\x7f')",
      error: `${PREFIX}parse "http://x/\\x7f": net/url: invalid control character in URL`,
    },
    { expr: "url('é')", error: `${PREFIX}parse "é": invalid URI for request` },
    {
      expr: "url('https://[fe80::1%25%2F]/')",
      error: `${PREFIX}parse "https://[fe80::1%25%2F]/": invalid URL escape "%2F"`,
    },
    { expr: "isURL('')", want: false },
    { expr: "isURL('https://example.com#frag')", want: false },
    { expr: "isURL('*')", want: true },
    { expr: 'isURL(1)', checkError: 'found no matching overload' },
    { expr: "url('/a').getQuery() == {}", want: true },
  ];
  runCelCases([urlsLibrary], cases);
});
