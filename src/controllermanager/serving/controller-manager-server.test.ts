import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { Counter, Registry } from 'prom-client';
import { type ControllerManagerServer, startControllerManagerServer } from './controller-manager-server.js';

interface Reply {
  readonly status: number;
  readonly type: string;
  readonly body: string;
}

function get(server: ControllerManagerServer, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { ca: server.certificate.cert, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('controller manager secure serving', () => {
  const metrics = new Registry();
  new Counter({ name: 'orch_test_requests_total', help: 'test counter', registers: [metrics] }).inc(3);
  let healthy = false;
  let server: ControllerManagerServer;
  let plain: ControllerManagerServer;

  before(async () => {
    server = await startControllerManagerServer({
      address: '127.0.0.1',
      port: 0,
      debugging: { enableProfiling: true, enableContentionProfiling: false },
      metrics,
      healthChecks: [
        { name: 'informer-sync', check: () => undefined },
        {
          name: 'leaderElection',
          check: () => {
            if (!healthy) throw new Error('lease not renewed');
          },
        },
      ],
      configz: { 'orchcontrollermanager.config.orch.io': { Generic: { Port: 10257 } } },
      authorize: async (req) =>
        req.headers.authorization === 'Bearer ok'
          ? { allowed: true }
          : { allowed: false, status: 403, reason: 'forbidden: User "system:anonymous" cannot get path' },
    });
    plain = await startControllerManagerServer({
      address: '127.0.0.1',
      port: 0,
      debugging: { enableProfiling: false, enableContentionProfiling: false },
      metrics,
    });
  });
  after(async () => {
    await server.close();
    await plain.close();
  });

  it('serves HTTPS with a generated certificate for localhost and 127.0.0.1', () => {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(server.port, 0);
    const cert = new X509Certificate(server.certificate.cert);
    assert.match(cert.subject, /^CN=localhost@\d+$/);
    assert.equal(cert.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1');
  });

  it('answers /healthz with kube’s texts', async () => {
    assert.deepEqual(await get(plain, '/healthz'), { status: 200, type: 'text/plain; charset=utf-8', body: 'ok' });
    assert.deepEqual(await get(plain, '/healthz?verbose'), {
      status: 200,
      type: 'text/plain; charset=utf-8',
      body: '[+]ping ok\nhealthz check passed\n',
    });
    healthy = false;
    assert.deepEqual(await get(server, '/healthz'), {
      status: 500,
      type: 'text/plain; charset=utf-8',
      body: '[+]informer-sync ok\n[-]leaderElection failed: reason withheld\nhealthz check failed\n',
    });
    assert.deepEqual(await get(server, '/healthz?exclude=leaderElection&exclude=nope'), {
      status: 200,
      type: 'text/plain; charset=utf-8',
      body: 'ok',
    });
    assert.equal(
      (await get(server, '/healthz?exclude=leaderElection&exclude=nope&verbose')).body,
      '[+]informer-sync ok\n[+]leaderElection excluded: ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nhealthz check passed\n',
    );
    assert.deepEqual(await get(server, '/healthz/leaderElection'), {
      status: 500,
      type: 'text/plain; charset=utf-8',
      body: 'internal server error: lease not renewed\n',
    });
    healthy = true;
    assert.equal((await get(server, '/healthz')).body, 'ok');
    assert.equal((await get(server, '/healthz/leaderElection')).body, 'ok');
    assert.equal((await get(server, '/healthz/nope')).status, 404);
  });

  it('takes health checks added later', async () => {
    plain.addHealthChecks({
      name: 'late',
      check: () => Promise.reject(new Error('not yet')),
    });
    assert.deepEqual(await get(plain, '/healthz'), {
      status: 500,
      type: 'text/plain; charset=utf-8',
      body: '[-]late failed: reason withheld\nhealthz check failed\n',
    });
  });

  it('serves /metrics in Prometheus text format and /configz as JSON, behind the authorizer', async () => {
    const m = await get(server, '/metrics', { authorization: 'Bearer ok' });
    assert.equal(m.status, 200);
    assert.equal(m.type, metrics.contentType);
    assert.match(m.body, /^orch_test_requests_total 3$/m);
    assert.deepEqual(await get(server, '/metrics'), {
      status: 403,
      type: 'text/plain; charset=utf-8',
      body: 'forbidden: User "system:anonymous" cannot get path\n',
    });
    const z = await get(server, '/configz', { authorization: 'Bearer ok' });
    assert.deepEqual(JSON.parse(z.body), { 'orchcontrollermanager.config.orch.io': { Generic: { Port: 10257 } } });
    assert.equal((await get(plain, '/configz')).status, 404);
  });

  it('records a CPU profile only with profiling enabled, one at a time', async () => {
    const auth = { authorization: 'Bearer ok' };
    const [profile, concurrent] = await Promise.all([
      get(server, '/debug/pprof/profile?seconds=1', auth),
      new Promise<Reply>((resolve) =>
        setTimeout(() => resolve(get(server, '/debug/pprof/profile?seconds=1', auth)), 200),
      ),
    ]);
    assert.equal(profile.status, 200);
    assert.equal(profile.type, 'application/json');
    const parsed = JSON.parse(profile.body) as { nodes: unknown[]; startTime: number; endTime: number };
    assert.ok(parsed.nodes.length > 0);
    assert.ok(parsed.endTime - parsed.startTime >= 900_000, 'about one second of profile (µs)');
    assert.deepEqual(concurrent, {
      status: 500,
      type: 'text/plain; charset=utf-8',
      body: 'Could not enable CPU profiling: cpu profiling already in use\n',
    });
    assert.equal((await get(server, '/debug/pprof/', auth)).status, 200);
    assert.deepEqual(await get(server, '/debug/pprof/heap', auth), {
      status: 404,
      type: 'text/plain; charset=utf-8',
      body: 'Unknown profile\n',
    });
    assert.deepEqual(await get(plain, '/debug/pprof/profile?seconds=1'), {
      status: 404,
      type: 'text/plain; charset=utf-8',
      body: '404 page not found\n',
    });
    assert.equal((await get(server, '/nothing', auth)).body, '404 page not found\n');
  });

  it('fails to start on a port in use', async () => {
    await assert.rejects(
      startControllerManagerServer({
        address: '127.0.0.1',
        port: server.port,
        debugging: { enableProfiling: false, enableContentionProfiling: false },
        metrics,
        certificate: server.certificate,
      }),
      { code: 'EADDRINUSE' },
    );
  });
});
