// Client certificates from several CAs in one --client-ca-file bundle, and an authenticating proxy
// whose CA the TLS layer also trusts: each authenticator accepts only its own CAs' certificates.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { h2request } from '../support/http-client.js';
import { type As, selfReview, type Target, tempDir, whoAmI } from './authn-fixture.js';
import {
  type CertificateKeyPair,
  clientCert,
  createCertificateAuthority,
  EXPIRED,
  intermediateCa,
  NOT_YET_VALID,
} from './test-pki.js';

describe('client certificates and the authenticating proxy', () => {
  let files: Awaited<ReturnType<typeof tempDir>>;
  let server: RunningServer;
  let target: Target;
  const certs: Record<string, CertificateKeyPair> = {};

  before(async () => {
    files = await tempDir('orch-client-certs-');
    const [caA, caB, proxyCa, foreign] = await Promise.all([
      createCertificateAuthority({ commonName: 'team-a' }),
      createCertificateAuthority({ commonName: 'team-b' }),
      createCertificateAuthority({ commonName: 'front-proxy-ca' }),
      createCertificateAuthority({ commonName: 'foreign' }),
    ]);
    const inter = await intermediateCa(caA, 'team-a-intermediate');
    const leafOfInter = await clientCert(inter, 'dave');
    Object.assign(certs, {
      alice: await clientCert(caA, 'alice'),
      bob: await clientCert(caB, 'bob'),
      bobAdmin: await clientCert(caB, 'bob-admin', ['system:masters']),
      dave: { cert: leafOfInter.cert + inter.cert, key: leafOfInter.key },
      expired: await clientCert(caA, 'old', ['system:masters'], EXPIRED),
      future: await clientCert(caB, 'early', ['system:masters'], NOT_YET_VALID),
      foreign: await clientCert(foreign, 'mallory', ['system:masters']),
      proxy: await clientCert(proxyCa, 'front-proxy'),
      otherProxy: await clientCert(proxyCa, 'other-proxy'),
      expiredProxy: await clientCert(proxyCa, 'front-proxy', [], EXPIRED),
    });
    const clientCaFile = await files.write('client-ca.crt', caA.cert + caB.cert);
    const proxyCaFile = await files.write('proxy-ca.crt', proxyCa.cert);
    const dataDir = join(files.dir, 'data');
    server = await startServer({
      dataDir,
      securePort: 0,
      bindAddress: '127.0.0.1',
      clientCaFile,
      authorizationModes: ['AlwaysDeny'],
      runControllers: false,
      authentication: {
        requestHeader: {
          clientCaFile: proxyCaFile,
          usernameHeaders: ['X-Remote-User'],
          groupHeaders: ['X-Remote-Group'],
          extraHeaderPrefixes: ['X-Remote-Extra-'],
          allowedNames: ['front-proxy'],
        },
      },
    });
    target = { url: server.url, admin: { ca: await readFile(join(dataDir, 'pki', 'ca.crt'), 'utf8') } };
  });
  after(async () => {
    await server?.close();
    await files?.remove();
  });

  const as = (name: string, headers?: Record<string, string>): As => ({ cert: certs[name], headers });

  const cases: { name: string; as: () => As; want: string }[] = [
    { name: 'a certificate of the first CA of the bundle', as: () => as('alice'), want: 'alice' },
    { name: 'a certificate of the second CA of the bundle', as: () => as('bob'), want: 'bob' },
    { name: 'the organizations of a second-CA certificate', as: () => as('bobAdmin'), want: '200' },
    { name: 'a chain through an intermediate the client presents', as: () => as('dave'), want: 'dave' },
    { name: 'an expired certificate', as: () => as('expired'), want: '401' },
    { name: 'a certificate not yet valid', as: () => as('future'), want: '401' },
    { name: 'a certificate of a foreign CA', as: () => as('foreign'), want: '401' },
    { name: 'no certificate', as: () => ({}), want: 'system:anonymous' },
    { name: 'the proxy with X-Remote-User', as: () => as('proxy', { 'X-Remote-User': 'carol' }), want: 'carol' },
    {
      name: 'the proxy’s group headers',
      as: () => as('proxy', { 'x-remote-user': 'carol', 'x-remote-group': 'system:masters' }),
      want: '200',
    },
    { name: 'the proxy without a username header (its certificate is no user)', as: () => as('proxy'), want: '401' },
    {
      name: 'a proxy certificate whose CN is not allowed',
      as: () => as('otherProxy', { 'X-Remote-User': 'carol' }),
      want: '401',
    },
    { name: 'an expired proxy certificate', as: () => as('expiredProxy', { 'X-Remote-User': 'carol' }), want: '401' },
    {
      name: 'identity headers from a normal client certificate (ignored)',
      as: () => as('alice', { 'X-Remote-User': 'root', 'X-Remote-Group': 'system:masters' }),
      want: 'alice',
    },
    {
      name: 'identity headers without a certificate (ignored)',
      as: () => ({ headers: { 'X-Remote-User': 'root', 'X-Remote-Group': 'system:masters' } }),
      want: 'system:anonymous',
    },
  ];
  for (const c of cases) {
    it(`${c.name} → ${c.want}`, async () => {
      assert.equal(await whoAmI(target, c.as()), c.want);
    });
  }

  it('gives a proxied user the headers’ groups and extras, and no credential id', async () => {
    const info = await selfReview(
      target,
      as('proxy', {
        'X-Remote-User': 'carol',
        'X-Remote-Group': 'system:masters',
        'X-Remote-Extra-Scopes': 'read',
        'X-Remote-Extra-Acme.com%2fteam': 'blue',
      }),
    );
    assert.deepEqual(info, {
      username: 'carol',
      groups: ['system:masters', 'system:authenticated'],
      extra: { scopes: ['read'], 'acme.com/team': ['blue'] },
    });
  });

  it('gives a certificate user of the second CA its credential id', async () => {
    const info = await selfReview(target, as('bobAdmin'));
    assert.equal(info.username, 'bob-admin');
    assert.match(info.extra[ORCH_DOMAIN.credentialIdExtra][0], /^X509SHA256=[0-9a-f]{64}$/);
  });

  it('reads the proxy headers over HTTP/2 too', async () => {
    const r = await h2request(target.url, '/api/v1/namespaces', {
      ca: target.admin.ca,
      as: { ca: target.admin.ca, ...(certs.proxy as CertificateKeyPair) },
      headers: { 'x-remote-user': 'erin' },
    });
    assert.equal(r.alpn, 'h2');
    assert.equal(r.status, 403);
    assert.match(r.json().message, /User "erin" cannot list resource "namespaces"/);
  });
});
