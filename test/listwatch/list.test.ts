import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiOf } from '../support/api.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

describe('lists: selectors, paging and resourceVersion semantics', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof apiOf>['admin'];
  const ns = 'lists';
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  let createdRv = '';
  before(async () => {
    server = await startServerProcess();
    api = apiOf(server).admin;
    await api('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
    for (let i = 0; i < 10; i++) {
      const r = await api('POST', base, {
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name: `cm-${i}`,
            labels: { tier: i < 5 ? 'front' : 'back', idx: String(i), ...(i % 2 ? { odd: 'yes' } : {}) },
          },
        },
      });
      createdRv = r.json().metadata.resourceVersion;
    }
    await api('POST', `/api/v1/namespaces/${ns}/secrets`, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'tls' },
        type: 'kubernetes.io/tls',
        data: { 'tls.crt': '', 'tls.key': '' },
      },
    });
    await api('POST', `/api/v1/namespaces/${ns}/secrets`, {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'plain' } },
    });
  });
  after(async () => server?.dispose());

  const names = (r: { json(): { items: { metadata: { name: string } }[] } }) =>
    r.json().items.map((i) => i.metadata.name);

  it('filters with every label selector operator', async () => {
    const cases: Array<[string, string[]]> = [
      ['tier=front', ['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4']],
      ['tier==back,odd', ['cm-5', 'cm-7', 'cm-9']],
      ['tier!=front', ['cm-5', 'cm-6', 'cm-7', 'cm-8', 'cm-9']],
      ['idx in (1,3,8)', ['cm-1', 'cm-3', 'cm-8']],
      ['idx notin (0,1,2,3,4,5,6)', ['cm-7', 'cm-8', 'cm-9']],
      ['!odd,tier=front', ['cm-0', 'cm-2', 'cm-4']],
    ];
    for (const [sel, want] of cases) {
      const r = await api('GET', `${base}?labelSelector=${encodeURIComponent(sel)}`);
      assert.equal(r.status, 200, sel);
      assert.deepEqual(names(r), want, sel);
    }
  });

  it('filters with field selectors, per kind', async () => {
    const byName = await api('GET', `${base}?fieldSelector=metadata.name%3Dcm-3`);
    assert.deepEqual(names(byName), ['cm-3']);
    const notName = await api('GET', `${base}?fieldSelector=metadata.name!%3Dcm-3,metadata.namespace%3D${ns}`);
    assert.equal(names(notName).length, 9);
    const tls = await api('GET', `/api/v1/namespaces/${ns}/secrets?fieldSelector=type%3Dkubernetes.io/tls`);
    assert.deepEqual(names(tls), ['tls']);
    const phase = await api('GET', '/api/v1/namespaces?fieldSelector=status.phase%3DActive');
    assert.ok(names(phase).includes(ns));
  });

  it('answers 400 naming a malformed selector or an unsupported field label', async () => {
    const bad = await api('GET', `${base}?labelSelector=${encodeURIComponent('tier in (a')}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.json().reason, 'BadRequest');
    const field = await api('GET', `${base}?fieldSelector=spec.foo%3Dbar`);
    assert.equal(field.status, 400);
    assert.match(field.json().message, /spec\.foo/);
  });

  it('pages with limit/continue at one resourceVersion while writes continue', async () => {
    const first = (await api('GET', `${base}?limit=4`)).json();
    assert.equal(first.items.length, 4);
    assert.equal(first.metadata.remainingItemCount, 6);
    await api('POST', base, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-zz-late' } } });
    await api('DELETE', `${base}/cm-9`);
    const seen = [...first.items.map((i: { metadata: { name: string } }) => i.metadata.name)];
    let cont = first.metadata.continue;
    while (cont) {
      const page = (await api('GET', `${base}?limit=4&continue=${encodeURIComponent(cont)}`)).json();
      assert.equal(page.metadata.resourceVersion, first.metadata.resourceVersion);
      seen.push(...page.items.map((i: { metadata: { name: string } }) => i.metadata.name));
      cont = page.metadata.continue;
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 10 }, (_, i) => `cm-${i}`),
    );
    // Restore for the other tests.
    await api('DELETE', `${base}/cm-zz-late`);
    await api('POST', base, {
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cm-9', labels: { tier: 'back', idx: '9', odd: 'yes' } },
      },
    });
  });

  it('omits remainingItemCount when a selector is used, and fills pages with matches', async () => {
    const r = (await api('GET', `${base}?limit=2&labelSelector=tier%3Dback`)).json();
    assert.equal(r.items.length, 2);
    assert.equal(r.metadata.remainingItemCount, undefined);
    assert.ok(r.metadata.continue);
  });

  it('answers 400 for a continue token with a non-zero resourceVersion or a malformed token', async () => {
    const first = (await api('GET', `${base}?limit=2`)).json();
    const withRv = await api(
      'GET',
      `${base}?limit=2&continue=${encodeURIComponent(first.metadata.continue)}&resourceVersion=5`,
    );
    assert.equal(withRv.status, 400);
    assert.equal(withRv.json().message, 'specifying resource version is not allowed when using continue');
    const r = await api('GET', `${base}?resourceVersion=abc`);
    assert.equal(r.status, 400);
    // The token is decoded before the resourceVersion given with it is looked at (as kube's storage does).
    const garbage = await api('GET', `${base}?limit=2&continue=garbage%21&resourceVersion=5`);
    assert.equal(garbage.status, 400);
    assert.equal(garbage.json().reason, 'BadRequest');
    assert.equal(
      garbage.json().message,
      'invalid continue token: continue key is not valid: illegal base64 data at input byte 7',
    );
  });

  it('answers 422 Invalid listing every error for invalid resourceVersionMatch combinations', async () => {
    const forbidden = (detail: string) => ({
      reason: 'FieldValueForbidden',
      message: `Forbidden: ${detail}`,
      field: 'resourceVersionMatch',
    });
    const unsupported = {
      reason: 'FieldValueNotSupported',
      message: 'Unsupported value: "x": supported values: "Exact", "NotOlderThan", ""',
      field: 'resourceVersionMatch',
    };
    const noRv = forbidden('resourceVersionMatch is forbidden unless resourceVersion is provided');
    const withContinue = forbidden('resourceVersionMatch is forbidden when continue is provided');
    const cases: Array<[string, (typeof unsupported)[]]> = [
      ['resourceVersionMatch=Exact', [noRv]],
      ['resourceVersionMatch=NotOlderThan', [noRv]],
      [
        'resourceVersionMatch=Exact&resourceVersion=0',
        [forbidden('resourceVersionMatch "exact" is forbidden for resourceVersion "0"')],
      ],
      ['resourceVersionMatch=x&resourceVersion=1', [unsupported]],
      ['resourceVersionMatch=NotOlderThan&resourceVersion=1&limit=1&continue=whatever', [withContinue]],
      ['resourceVersionMatch=x&continue=whatever', [noRv, withContinue, unsupported]],
      [
        'sendInitialEvents=true',
        [
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: sendInitialEvents is forbidden for list',
            field: 'sendInitialEvents',
          },
        ],
      ],
    ];
    for (const [q, causes] of cases) {
      const r = await api('GET', `${base}?${q}`);
      assert.equal(r.status, 422, q);
      const st = r.json();
      assert.equal(st.reason, 'Invalid', q);
      assert.deepEqual(st.details, { group: 'meta.orch.io', kind: 'ListOptions', causes }, q);
      const joined = causes.map((c) => `${c.field}: ${c.message}`);
      const detail = joined.length === 1 ? joined[0] : `[${joined.join(', ')}]`;
      assert.equal(st.message, `ListOptions.meta.orch.io "" is invalid: ${detail}`, q);
    }
    // The same validation applies to deletecollection.
    const dc = await api('DELETE', `${base}?resourceVersionMatch=Exact`);
    assert.equal(dc.status, 422);
    assert.equal((await api('GET', base)).json().items.length, 10);
  });

  it('serves Exact and NotOlderThan reads', async () => {
    const exact = (await api('GET', `${base}?resourceVersion=${createdRv}&resourceVersionMatch=Exact`)).json();
    assert.equal(exact.metadata.resourceVersion, createdRv);
    assert.equal(exact.items.length, 10);
    const newer = (await api('GET', `${base}?resourceVersion=${createdRv}&resourceVersionMatch=NotOlderThan`)).json();
    assert.ok(BigInt(newer.metadata.resourceVersion) >= BigInt(createdRv));
    const any = await api('GET', `${base}?resourceVersion=0`);
    assert.equal(any.status, 200);
    const get0 = await api('GET', `${base}/cm-1?resourceVersion=0`);
    assert.equal(get0.status, 200);
  });

  it('waits, then answers 504 with Retry-After for a resourceVersion from the future', async () => {
    const t0 = Date.now();
    const r = await api('GET', `${base}?resourceVersion=999999999&resourceVersionMatch=NotOlderThan`);
    assert.equal(r.status, 504);
    assert.equal(r.json().message, 'Too large resource version');
    assert.ok(r.headers['retry-after']);
    assert.ok(Date.now() - t0 >= 500, 'the server waited before answering');
    const get = await api('GET', `${base}/cm-1?resourceVersion=999999999`);
    assert.equal(get.status, 504);
  });
});

describe('lists after compaction', () => {
  it('answers 410 Expired for an Exact version and a continue token that were compacted', async () => {
    const server = await startServerProcess({ args: ['--etcd-compaction-interval=1s'] });
    try {
      const api = apiOf(server).admin;
      for (let i = 0; i < 3; i++) {
        await api('POST', '/api/v1/namespaces/default/configmaps', {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } },
        });
      }
      const first = (await api('GET', '/api/v1/namespaces/default/configmaps?limit=1')).json();
      const oldRv = first.metadata.resourceVersion;
      // Writes after the snapshot, then two compaction ticks compact past it.
      await api('POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'later' } },
      });
      const deadline = Date.now() + 15000;
      let exact = await api(
        'GET',
        `/api/v1/namespaces/default/configmaps?resourceVersion=${oldRv}&resourceVersionMatch=Exact`,
      );
      while (exact.status !== 410 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        await api('POST', '/api/v1/namespaces/default/configmaps', {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'tick-' } },
        });
        exact = await api(
          'GET',
          `/api/v1/namespaces/default/configmaps?resourceVersion=${oldRv}&resourceVersionMatch=Exact`,
        );
      }
      assert.equal(exact.status, 410);
      assert.equal(exact.json().reason, 'Expired');
      // Lists have their own wording; `too old resource version: X (Y)` is the watch's.
      assert.equal(exact.json().message, 'The resourceVersion for the provided list is too old.');
      const legacyExact = await api('GET', `/api/v1/namespaces/default/configmaps?resourceVersion=${oldRv}&limit=1`);
      assert.equal(legacyExact.status, 410);
      assert.equal(legacyExact.json().message, 'The resourceVersion for the provided list is too old.');
      const cont = await api(
        'GET',
        `/api/v1/namespaces/default/configmaps?limit=1&continue=${encodeURIComponent(first.metadata.continue)}`,
      );
      assert.equal(cont.status, 410);
      assert.equal(cont.json().reason, 'Expired');
      assert.match(cont.json().message, /continue parameter is too old/);
    } finally {
      await server.dispose();
    }
  });
});
