import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createCertificateAuthority, issueServingCertificate } from './certificate-factory.js';
import { ensureCertificates } from './ensure-certificates.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-certs-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const DAY = 24 * 3_600_000;
const fileMode = async (name: string): Promise<number> => (await stat(join(dir, name))).mode & 0o777;

describe('ensureCertificates', () => {
  it('generates CA, serving and admin certificates on first start', async () => {
    const t0 = performance.now();
    const certs = await ensureCertificates({ certDir: dir, hostNames: ['orch.example', '10.1.2.3'] });
    const elapsed = performance.now() - t0;
    assert.deepEqual(certs.regenerated, { ca: 'missing', serving: 'missing', admin: 'missing' });
    assert.ok(elapsed < 2000, `generation took ${elapsed} ms`);

    const ca = new X509Certificate(await readFile(join(dir, 'ca.crt')));
    const serving = new X509Certificate(certs.cert);
    const admin = new X509Certificate(certs.admin!.cert);
    assert.equal(ca.ca, true);
    assert.equal(certs.servingCa, ca.toString());
    assert.equal(certs.clientCa, ca.toString());
    for (const leaf of [serving, admin]) {
      assert.ok(leaf.checkIssued(ca) && leaf.verify(ca.publicKey));
      assert.equal(leaf.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    }
    for (const ip of ['127.0.0.1', '::1', '10.1.2.3']) assert.ok(serving.checkIP(ip), ip);
    for (const host of ['localhost', hostname().toLowerCase(), 'orch.example'])
      assert.ok(serving.checkHost(host), host);
    assert.equal(admin.subject, 'CN=orch-admin\nO=system:masters');
    assert.deepEqual(admin.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    assert.deepEqual(serving.keyUsage, ['1.3.6.1.5.5.7.3.1']);

    for (const key of ['ca.key', 'apiserver.key', 'admin.key']) assert.equal(await fileMode(key), 0o600, key);
    assert.equal(await fileMode('ca.crt'), 0o644);
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
  });

  it('reuses valid files and regenerates only what is missing or no longer fits', async () => {
    const first = await ensureCertificates({ certDir: dir });
    const second = await ensureCertificates({ certDir: dir });
    assert.deepEqual(second.regenerated, {});
    assert.equal(second.servingCa, first.servingCa);
    assert.equal(second.cert, first.cert);
    assert.deepEqual(second.admin, first.admin);

    const widened = await ensureCertificates({ certDir: dir, hostNames: ['api.orch.example'] });
    assert.deepEqual(widened.regenerated, { serving: 'missing subject alternative name api.orch.example' });
    assert.equal(widened.servingCa, first.servingCa, 'same CA reused');
    assert.deepEqual(widened.admin, first.admin);
    assert.ok(new X509Certificate(widened.cert).checkHost('api.orch.example'));

    await unlink(join(dir, 'admin.key'));
    const adminless = await ensureCertificates({ certDir: dir, hostNames: ['api.orch.example'] });
    assert.deepEqual(adminless.regenerated, { admin: 'missing' });
    assert.equal(adminless.cert, widened.cert);

    await chmod(join(dir, 'apiserver.key'), 0o644);
    await ensureCertificates({ certDir: dir, hostNames: ['api.orch.example'] });
    assert.equal(await fileMode('apiserver.key'), 0o600, 'a loosened key file is tightened');
  });

  it('regenerates expired leaves under the same CA', async () => {
    const longAgo = new Date(Date.now() - 400 * DAY);
    const old = await ensureCertificates({ certDir: dir, clock: { now: () => longAgo } });
    const now = await ensureCertificates({ certDir: dir });
    assert.match(now.regenerated.serving ?? '', /^expired at/);
    assert.match(now.regenerated.admin ?? '', /^expired at/);
    assert.equal(now.regenerated.ca, undefined);
    assert.equal(now.servingCa, old.servingCa);
  });

  it('regenerates everything when the CA is unusable', async () => {
    const first = await ensureCertificates({ certDir: dir });
    await writeFile(join(dir, 'ca.key'), (await createCertificateAuthority()).key);
    const next = await ensureCertificates({ certDir: dir });
    assert.deepEqual(next.regenerated, {
      ca: 'private key does not match certificate',
      serving: 'not signed by the current CA',
      admin: 'not signed by the current CA',
    });
    assert.notEqual(next.servingCa, first.servingCa);
  });

  it('uses user-supplied serving certificate and client CA files', async () => {
    const userCa = await createCertificateAuthority({ commonName: 'corp-ca' });
    const userServing = await issueServingCertificate({ ca: userCa, hostNames: ['corp.example'] });
    const files = { cert: join(dir, 'tls.crt'), key: join(dir, 'tls.key'), clientCa: join(dir, 'clients.crt') };
    await writeFile(files.cert, userServing.cert);
    await writeFile(files.key, userServing.key);
    await writeFile(files.clientCa, userCa.cert);

    const both = await ensureCertificates({
      certDir: join(dir, 'generated'),
      tlsCertFile: files.cert,
      tlsKeyFile: files.key,
      clientCaFile: files.clientCa,
    });
    assert.equal(both.cert, userServing.cert);
    assert.equal(both.clientCa, userCa.cert);
    assert.equal(both.admin, undefined);
    assert.equal(both.servingCa, undefined);
    await assert.rejects(stat(join(dir, 'generated')), { code: 'ENOENT' }, 'nothing generated');

    const servingOnly = await ensureCertificates({
      certDir: join(dir, 'gen2'),
      tlsCertFile: files.cert,
      tlsKeyFile: files.key,
    });
    assert.equal(servingOnly.cert, userServing.cert);
    assert.ok(servingOnly.admin, 'own CA still signs the admin certificate');
    assert.notEqual(servingOnly.clientCa, userCa.cert);
  });

  it('rejects inconsistent user-supplied files', async () => {
    const userCa = await createCertificateAuthority();
    const a = await issueServingCertificate({ ca: userCa, hostNames: ['a'] });
    const b = await issueServingCertificate({ ca: userCa, hostNames: ['b'] });
    await writeFile(join(dir, 'a.crt'), a.cert);
    await writeFile(join(dir, 'b.key'), b.key);
    await writeFile(join(dir, 'junk.crt'), 'not a certificate');
    const reject = (o: object, pattern: RegExp) =>
      assert.rejects(ensureCertificates({ certDir: dir, ...o }), { name: 'TlsConfigError', message: pattern });
    await reject({ tlsCertFile: join(dir, 'a.crt') }, /must be given together/);
    await reject({ tlsCertFile: join(dir, 'a.crt'), tlsKeyFile: join(dir, 'b.key') }, /does not match/);
    await reject({ tlsCertFile: join(dir, 'a.crt'), tlsKeyFile: join(dir, 'none.key') }, /does not exist/);
    await reject({ clientCaFile: join(dir, 'junk.crt') }, /no PEM certificate/);
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(ensureCertificates({ certDir: dir, signal: controller.signal }), { name: 'AbortError' });
  });
});
