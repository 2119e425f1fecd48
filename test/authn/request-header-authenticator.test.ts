// The authenticating-proxy authenticator (unit table): certificate checks and header mapping.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { PeerCertificate, RequestHead } from '../../src/authn/authenticator.js';
import { requestHeaderAuthenticator } from '../../src/authn/request-header-authenticator.js';
import { TrustBundle } from '../../src/authn/x509-chain.js';
import {
  type CertificateKeyPair,
  clientCert,
  createCertificateAuthority,
  EXPIRED,
  NOT_YET_VALID,
  peerOf,
} from './test-pki.js';

/** A request head with raw header lines (name case kept) and the given client certificate. */
function head(lines: [string, string][], peerCertificate: PeerCertificate | undefined): RequestHead {
  const headers: Record<string, string> = {};
  for (const [k, v] of lines) {
    const key = k.toLowerCase();
    headers[key] = headers[key] === undefined ? v : `${headers[key]}, ${v}`;
  }
  return {
    method: 'GET',
    url: '/api',
    headers,
    headerValues: (name) => lines.filter(([k]) => k.toLowerCase() === name.toLowerCase()).map(([, v]) => v),
    peerCertificate,
    signal: new AbortController().signal,
  };
}

describe('requestHeaderAuthenticator', () => {
  let proxyCa: CertificateKeyPair;
  let clientCa: CertificateKeyPair;
  const peers: Record<string, PeerCertificate> = {};
  before(async () => {
    [proxyCa, clientCa] = await Promise.all([
      createCertificateAuthority({ commonName: 'proxy-ca' }),
      createCertificateAuthority({ commonName: 'client-ca' }),
    ]);
    peers.proxy = peerOf((await clientCert(proxyCa, 'front-proxy')).cert);
    peers.otherProxy = peerOf((await clientCert(proxyCa, 'other-proxy')).cert);
    peers.client = peerOf((await clientCert(clientCa, 'alice')).cert);
    peers.expired = peerOf((await clientCert(proxyCa, 'front-proxy', [], EXPIRED)).cert);
    peers.future = peerOf((await clientCert(proxyCa, 'front-proxy', [], NOT_YET_VALID)).cert);
  });

  const authn = (allowedNames: string[] = []) =>
    requestHeaderAuthenticator({
      trust: new TrustBundle(proxyCa.cert),
      allowedNames,
      usernameHeaders: ['X-Remote-User', 'X-Other-User'],
      groupHeaders: ['X-Remote-Group', 'X-Team'],
      extraHeaderPrefixes: ['X-Remote-Extra-', 'X-Ext-'],
    });

  const cases: {
    name: string;
    peer: string | undefined;
    lines: [string, string][];
    allowed?: string[];
    want: unknown;
  }[] = [
    {
      name: 'user, groups and extras from the proxy',
      peer: 'proxy',
      lines: [
        ['x-remote-user', 'bob'],
        ['X-Remote-Group', 'dev'],
        ['X-REMOTE-GROUP', 'ops'],
        ['X-Team', 'blue'],
        ['X-Remote-Group', ''],
        ['X-Remote-Extra-Scopes', 'a'],
        ['X-Remote-Extra-Scopes', 'b'],
        ['X-Remote-Extra-Acme.com%2Fproject', 'p1'],
        ['X-Ext-Reason', 'r'],
      ],
      want: {
        kind: 'user',
        user: {
          name: 'bob',
          groups: ['dev', 'ops', 'blue'],
          extra: { scopes: ['a', 'b'], 'acme.com/project': ['p1'], reason: ['r'] },
        },
      },
    },
    {
      name: 'the first username header with a value wins',
      peer: 'proxy',
      lines: [
        ['X-Remote-User', ''],
        ['X-Other-User', 'carol'],
      ],
      want: { kind: 'user', user: { name: 'carol', groups: [] } },
    },
    {
      name: 'a malformed extra key is kept',
      peer: 'proxy',
      lines: [
        ['X-Remote-User', 'u'],
        ['X-Remote-Extra-%zz', 'v'],
      ],
      want: { kind: 'user', user: { name: 'u', groups: [], extra: { '%zz': ['v'] } } },
    },
    { name: 'no username header', peer: 'proxy', lines: [['X-Remote-Group', 'dev']], want: { kind: 'no-opinion' } },
    { name: 'no certificate', peer: undefined, lines: [['X-Remote-User', 'mallory']], want: { kind: 'no-opinion' } },
    {
      name: 'a certificate of another CA',
      peer: 'client',
      lines: [['X-Remote-User', 'mallory']],
      want: { kind: 'error', message: 'x509: certificate signed by unknown authority' },
    },
    {
      name: 'an expired proxy certificate',
      peer: 'expired',
      lines: [['X-Remote-User', 'mallory']],
      want: { kind: 'error', message: /^x509: certificate has expired or is not yet valid: current time .* is after / },
    },
    {
      name: 'a proxy certificate not yet valid',
      peer: 'future',
      lines: [['X-Remote-User', 'mallory']],
      want: {
        kind: 'error',
        message: /^x509: certificate has expired or is not yet valid: current time .* is before /,
      },
    },
    {
      name: 'an allowed name',
      peer: 'proxy',
      allowed: ['front-proxy'],
      lines: [['X-Remote-User', 'bob']],
      want: { kind: 'user', user: { name: 'bob', groups: [] } },
    },
    {
      name: 'a name not allowed',
      peer: 'otherProxy',
      allowed: ['front-proxy'],
      lines: [['X-Remote-User', 'bob']],
      want: { kind: 'error', message: 'x509: subject with cn=other-proxy is not in the allowed list' },
    },
  ];
  for (const c of cases) {
    it(`${c.name}`, async () => {
      const r = await authn(c.allowed).authenticate(head(c.lines, c.peer === undefined ? undefined : peers[c.peer]));
      const want = c.want as { kind: string; message?: unknown };
      if (want.message instanceof RegExp) {
        assert.equal(r.kind, 'error');
        assert.match(r.kind === 'error' ? r.message : '', want.message);
      } else assert.deepEqual(r, c.want);
    });
  }
});
