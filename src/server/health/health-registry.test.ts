import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { Clock } from '../../util/clock.js';
import { type HealthGroup, HealthRegistry, HealthRegistryError, type HealthResponse } from './health-registry.js';

const TEXT = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

/** A registry like the server's: ping, log, etcd (controllable), etcd-readiness on readyz only. */
function setup(options: { livezGracePeriodMs?: number } = {}) {
  let now = 1_000_000;
  const clock: Clock = { now: () => new Date(now) };
  const state = { etcdError: undefined as string | undefined };
  const registry = new HealthRegistry({ clock, livezGracePeriodMs: options.livezGracePeriodMs });
  registry.registerCheck('etcd', async () => {
    if (state.etcdError) throw new Error(state.etcdError);
  });
  registry.registerCheck('etcd-readiness', async () => {}, { groups: ['readyz'] });
  const get = (group: HealthGroup, subpath = '', query = '') =>
    registry.handleHealthRequest(group, subpath, new URLSearchParams(query), AbortSignal.timeout(5000));
  return { registry, state, get, advance: (ms: number) => (now += ms) };
}

function lines(...l: string[]): string {
  return l.map((x) => `${x}\n`).join('');
}

describe('HealthRegistry.handleHealthRequest', () => {
  const cases: {
    name: string;
    group: HealthGroup;
    subpath?: string;
    query?: string;
    etcdError?: string;
    expect: Partial<HealthResponse>;
  }[] = [
    { name: 'livez ok', group: 'livez', expect: { status: 200, body: 'ok', headers: TEXT } },
    { name: 'readyz ok', group: 'readyz', expect: { status: 200, body: 'ok' } },
    { name: 'healthz ok', group: 'healthz', expect: { status: 200, body: 'ok' } },
    {
      name: 'livez verbose',
      group: 'livez',
      query: 'verbose',
      expect: {
        status: 200,
        body: lines('[+]ping ok', '[+]log ok', '[+]etcd ok', 'livez check passed'),
        headers: TEXT,
      },
    },
    {
      name: 'readyz verbose lists shutdown last',
      group: 'readyz',
      query: 'verbose=false',
      expect: {
        body: lines(
          '[+]ping ok',
          '[+]log ok',
          '[+]etcd ok',
          '[+]etcd-readiness ok',
          '[+]shutdown ok',
          'readyz check passed',
        ),
      },
    },
    {
      name: 'healthz verbose',
      group: 'healthz',
      query: 'verbose=1',
      expect: { body: lines('[+]ping ok', '[+]log ok', '[+]etcd ok', 'healthz check passed') },
    },
    {
      name: 'exclude with verbose',
      group: 'livez',
      query: 'verbose&exclude=etcd',
      expect: { status: 200, body: lines('[+]ping ok', '[+]log ok', '[+]etcd excluded: ok', 'livez check passed') },
    },
    { name: 'exclude without verbose', group: 'livez', query: 'exclude=etcd', expect: { status: 200, body: 'ok' } },
    {
      name: 'repeated exclude and unknown names',
      group: 'livez',
      query: 'verbose&exclude=zzz&exclude=log&exclude=nope&exclude=ping',
      expect: {
        status: 200,
        body: lines(
          '[+]ping excluded: ok',
          '[+]log excluded: ok',
          '[+]etcd ok',
          'warn: some health checks cannot be excluded: no matches for "nope","zzz"',
          'livez check passed',
        ),
      },
    },
    {
      name: 'a readyz-only check cannot be excluded from livez',
      group: 'livez',
      query: 'verbose&exclude=etcd-readiness',
      expect: {
        body: lines(
          '[+]ping ok',
          '[+]log ok',
          '[+]etcd ok',
          'warn: some health checks cannot be excluded: no matches for "etcd-readiness"',
          'livez check passed',
        ),
      },
    },
    {
      name: 'failing check (always verbose)',
      group: 'livez',
      etcdError: 'connection refused',
      expect: {
        status: 500,
        body: lines('[+]ping ok', '[+]log ok', '[-]etcd failed: reason withheld', 'livez check failed'),
        headers: TEXT,
      },
    },
    {
      name: 'failing readyz with an unmatched exclude',
      group: 'readyz',
      query: 'exclude=x',
      etcdError: 'down',
      expect: {
        status: 500,
        body: lines(
          '[+]ping ok',
          '[+]log ok',
          '[-]etcd failed: reason withheld',
          '[+]etcd-readiness ok',
          '[+]shutdown ok',
          'warn: some health checks cannot be excluded: no matches for "x"',
          'readyz check failed',
        ),
      },
    },
    {
      name: 'failing check excluded',
      group: 'healthz',
      query: 'exclude=etcd',
      etcdError: 'down',
      expect: { status: 200, body: 'ok' },
    },
    { name: 'single check ok', group: 'livez', subpath: '/etcd', expect: { status: 200, body: 'ok', headers: TEXT } },
    {
      name: 'single check ignores query',
      group: 'livez',
      subpath: '/ping',
      query: 'verbose&exclude=ping',
      expect: { status: 200, body: 'ok' },
    },
    {
      name: 'single check failing shows the reason',
      group: 'readyz',
      subpath: '/etcd',
      etcdError: 'connection refused',
      expect: { status: 500, body: 'internal server error: connection refused\n', headers: TEXT },
    },
    {
      name: 'single readyz-only check',
      group: 'readyz',
      subpath: '/etcd-readiness',
      expect: { status: 200, body: 'ok' },
    },
    { name: 'readyz shutdown check', group: 'readyz', subpath: '/shutdown', expect: { status: 200, body: 'ok' } },
    { name: 'unknown check', group: 'livez', subpath: '/nope', expect: { status: 404 } },
    { name: 'shutdown is readyz-only', group: 'livez', subpath: '/shutdown', expect: { status: 404 } },
    { name: 'readyz-only check on healthz', group: 'healthz', subpath: '/etcd-readiness', expect: { status: 404 } },
    { name: 'trailing slash', group: 'livez', subpath: '/', expect: { status: 404 } },
    { name: 'no leading slash', group: 'livez', subpath: 'etcd', expect: { status: 404 } },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { state, get } = setup();
      state.etcdError = c.etcdError;
      const res = await get(c.group, c.subpath, c.query);
      const picked: Record<string, unknown> = {};
      for (const key of Object.keys(c.expect)) picked[key] = res[key as keyof HealthResponse];
      assert.deepEqual(picked, c.expect);
    });
  }

  it('answers unknown checks with a NotFound Status', async () => {
    const res = await setup().get('readyz', '/poststarthook/missing');
    assert.equal(res.status, 404);
    assert.equal(res.headers['Content-Type'], 'application/json');
    assert.deepEqual(JSON.parse(res.body), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    });
  });
});

describe('HealthRegistry lifecycle', () => {
  it('post-start hooks fail until done', async () => {
    const { registry, get } = setup();
    registry.registerPostStartHook('start-informers');
    assert.deepEqual(registry.checkNames('livez'), ['ping', 'log', 'etcd', 'poststarthook/start-informers']);
    for (const group of ['livez', 'readyz', 'healthz'] as const) {
      const res = await get(group, '', 'verbose');
      assert.equal(res.status, 500, group);
      assert.match(res.body, /^\[-\]poststarthook\/start-informers failed: reason withheld$/m);
      assert.ok(res.body.endsWith(`${group} check failed\n`));
    }
    assert.equal((await get('readyz', '/poststarthook/start-informers')).body, 'internal server error: not finished\n');
    registry.markPostStartHookDone('start-informers');
    registry.markPostStartHookDone('start-informers');
    assert.equal((await get('readyz')).body, 'ok');
    assert.equal((await get('livez', '/poststarthook/start-informers')).status, 200);
  });

  it('the livez grace period hides unfinished boot-sequence checks from /livez only', async () => {
    const { registry, state, get, advance } = setup({ livezGracePeriodMs: 10_000 });
    registry.registerPostStartHook('slow');
    assert.equal((await get('livez')).status, 200);
    assert.equal(
      (await get('livez', '', 'verbose')).body,
      lines('[+]ping ok', '[+]log ok', '[+]etcd ok', '[+]poststarthook/slow ok', 'livez check passed'),
    );
    assert.equal((await get('livez', '/poststarthook/slow')).status, 200);
    assert.equal((await get('readyz')).status, 500);
    assert.equal((await get('healthz')).status, 500);
    // Checks that are not part of the boot sequence get no grace.
    state.etcdError = 'down';
    assert.equal((await get('livez')).status, 500);
    state.etcdError = undefined;
    advance(10_000);
    assert.equal((await get('livez')).status, 200, 'still within the period at its last instant');
    advance(1);
    const after = await get('livez');
    assert.equal(after.status, 500);
    assert.match(after.body, /^\[-\]poststarthook\/slow failed: reason withheld$/m);
    registry.markPostStartHookDone('slow');
    assert.equal((await get('livez')).status, 200);
  });

  it('without a grace period boot-sequence checks count immediately', async () => {
    const { registry, get } = setup();
    registry.registerPostStartHook('x');
    assert.equal((await get('livez')).status, 500);
  });

  it('shutdown fails readyz only', async () => {
    const { registry, get } = setup();
    registry.markShuttingDown();
    const ready = await get('readyz');
    assert.equal(ready.status, 500);
    assert.ok(ready.body.endsWith('[-]shutdown failed: reason withheld\nreadyz check failed\n'));
    assert.equal((await get('readyz', '/shutdown')).body, 'internal server error: process is shutting down\n');
    assert.equal((await get('livez')).status, 200);
    assert.equal((await get('healthz')).status, 200);
    assert.equal((await get('readyz', '', 'exclude=shutdown')).status, 200);
  });

  it('uses the injected log check and reports non-Error rejections', async () => {
    const registry = new HealthRegistry({ logCheck: () => Promise.reject('logging blocked') });
    const res = await registry.handleHealthRequest(
      'livez',
      '/log',
      new URLSearchParams(),
      new AbortController().signal,
    );
    assert.equal(res.body, 'internal server error: logging blocked\n');
  });

  it('notifies the first time readyz passes, once', async () => {
    let calls = 0;
    const registry = new HealthRegistry({ onFirstReady: () => calls++ });
    registry.registerPostStartHook('h');
    const get = () => registry.handleHealthRequest('readyz', '', new URLSearchParams(), new AbortController().signal);
    await get();
    assert.equal(calls, 0);
    registry.markPostStartHookDone('h');
    await get();
    await get();
    assert.equal(calls, 1);
  });

  it('rejects duplicate names per endpoint and unknown hooks', () => {
    const { registry } = setup();
    assert.throws(() => registry.registerCheck('etcd', async () => {}), {
      name: 'HealthRegistryError',
      message: 'health check "etcd" is already registered for /healthz',
    });
    assert.throws(() => registry.registerCheck('shutdown', async () => {}), {
      message: 'health check "shutdown" is already registered for /readyz',
    });
    registry.registerCheck('shutdown', async () => {}, { groups: ['livez'] });
    registry.registerCheck('etcd-readiness', async () => {}, { groups: ['livez'] });
    assert.throws(
      () => registry.markPostStartHookDone('never'),
      (err: unknown) => err instanceof HealthRegistryError && err.code === 'UnknownPostStartHook',
    );
  });

  it('runs the checks of one request concurrently', async () => {
    const registry = new HealthRegistry();
    let signalSecondStarted!: () => void;
    const secondStarted = new Promise<void>((r) => {
      signalSecondStarted = r;
    });
    // The first check can only finish once the second has started: sequential execution would hang.
    registry.registerCheck('first', () => secondStarted);
    registry.registerCheck('second', async () => signalSecondStarted());
    const res = await registry.handleHealthRequest('livez', '', new URLSearchParams(), AbortSignal.timeout(2000));
    assert.equal(res.status, 200);
  });

  it('gives up when the request is aborted', async () => {
    const registry = new HealthRegistry();
    registry.registerCheck('hang', () => new Promise(() => {}));
    const controller = new AbortController();
    const pending = registry.handleHealthRequest('readyz', '', new URLSearchParams(), controller.signal);
    controller.abort(new Error('client went away'));
    await assert.rejects(pending, { message: 'client went away' });
    const aborted = AbortSignal.abort(new Error('already gone'));
    await assert.rejects(registry.handleHealthRequest('livez', '/ping', new URLSearchParams(), aborted), {
      message: 'already gone',
    });
  });

  it('passes the request signal to checks', async () => {
    const registry = new HealthRegistry();
    let seen: AbortSignal | undefined;
    registry.registerCheck('probe', async (signal) => {
      seen = signal;
    });
    const controller = new AbortController();
    await registry.handleHealthRequest('livez', '/probe', new URLSearchParams(), controller.signal);
    assert.equal(seen, controller.signal);
  });
});

describe('HealthRegistry over HTTP', () => {
  it('serves kube-compatible responses on a real socket', async () => {
    const { registry, state } = setup();
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const [, group, ...rest] = url.pathname.split('/');
      const subpath = rest.length > 0 ? `/${rest.join('/')}` : '';
      const controller = new AbortController();
      req.on('close', () => controller.abort());
      registry.handleHealthRequest(group as HealthGroup, subpath, url.searchParams, controller.signal).then((r) => {
        res.writeHead(r.status, r.headers);
        res.end(r.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const ok = await fetch(`${base}/readyz?verbose`);
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(ok.headers.get('x-content-type-options'), 'nosniff');
      assert.ok((await ok.text()).endsWith('[+]shutdown ok\nreadyz check passed\n'));
      state.etcdError = 'gone';
      const bad = await fetch(`${base}/livez/etcd`);
      assert.equal(bad.status, 500);
      assert.equal(await bad.text(), 'internal server error: gone\n');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
