// A GET from the watch cache (resourceVersion=0) over HTTP/1.1 with a static token, as load
// generators send it: the answer the filters give at once keeps every header, status, Status
// body and metric of the full path.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { eventually } from '../support/eventually.js';
import { type HttpResult, request } from '../support/http-client.js';

const TOKEN = 'cached-get-token-5a9e0c3d7b1f';
/** A user with no permissions: its GETs are refused. */
const OTHER_TOKEN = 'cached-get-token-other-77c1';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CM = '/api/v1/namespaces/default/configmaps';

/** The value of `apiserver_request_total` for a GET of one configmap with `code`. */
function getCount(text: string, code: string): number {
  const want = `apiserver_request_total{code="${code}",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="GET",version="v1"}`;
  const line = text.split('\n').find((l) => l.startsWith(want));
  return line === undefined ? 0 : Number(line.slice(want.length).trim());
}

describe('cached GET with a bearer token over HTTP/1.1', () => {
  let s: InProcessServer;
  let dir: string;
  const get = (path: string, headers: Record<string, string> = {}, token = TOKEN): Promise<HttpResult> =>
    request(s.url, path, { ca: s.admin.ca, headers: { authorization: `Bearer ${token}`, ...headers } });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-cached-get-'));
    const tokenFile = join(dir, 'tokens.csv');
    await writeFile(tokenFile, `${TOKEN},loader,loader-uid,"system:masters"\n${OTHER_TOKEN},other,other-uid\n`);
    s = await startInProcess({ runControllers: false, authentication: { tokenAuthFile: tokenFile } });
    const created = await s.api.admin('POST', CM, { body: { metadata: { name: 'c1' }, data: { a: '1' } } });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => {
    await s?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers with the object and the headers of every answer', async () => {
    const current = (await s.api.admin('GET', `${CM}/c1`)).json();
    let r: HttpResult | undefined;
    // The watch cache holds the object a moment after its write is acknowledged.
    await eventually(async () => {
      r = await get(`${CM}/c1?resourceVersion=0`);
      return r.status === 200 && r.json().metadata.resourceVersion === current.metadata.resourceVersion;
    }, 'the cache serves c1');
    assert.ok(r);
    assert.deepEqual(r.json(), current);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.headers['cache-control'], 'no-cache, private');
    assert.match(String(r.headers['audit-id']), UUID_V4);
    assert.equal(r.headers['content-length'], String(r.body.length));
    assert.equal(r.headers.warning, undefined);
  });

  it('echoes the client’s Audit-ID and gives every other request its own', async () => {
    assert.equal((await get(`${CM}/c1?resourceVersion=0`, { 'audit-id': 'trace-1' })).headers['audit-id'], 'trace-1');
    const a = (await get(`${CM}/c1?resourceVersion=0`)).headers['audit-id'];
    const b = (await get(`${CM}/c1?resourceVersion=0`)).headers['audit-id'];
    assert.notEqual(a, b);
  });

  const failures: { name: string; path: string; token?: string; code: number; reason: string; message: string }[] = [
    {
      name: 'a missing object is a 404 Status',
      path: `${CM}/nope?resourceVersion=0`,
      code: 404,
      reason: 'NotFound',
      message: 'configmaps "nope" not found',
    },
    {
      name: 'a malformed resourceVersion is a 400 Status',
      path: `${CM}/c1?resourceVersion=x1`,
      code: 400,
      reason: 'BadRequest',
      message: 'resourceVersion: Invalid value: "x1": strconv.ParseUint: parsing "x1": invalid syntax',
    },
    {
      name: 'an unknown token is a 401 Status',
      path: `${CM}/c1?resourceVersion=0`,
      token: `${TOKEN}x`,
      code: 401,
      reason: 'Unauthorized',
      message: 'Unauthorized',
    },
  ];
  for (const f of failures) {
    it(f.name, async () => {
      const r = await get(f.path, {}, f.token);
      assert.equal(r.status, f.code, r.text);
      const status = r.json();
      assert.equal(status.kind, 'Status');
      assert.equal(status.reason, f.reason);
      assert.equal(status.message, f.message);
      assert.equal(r.headers['cache-control'], 'no-cache, private');
      assert.match(String(r.headers['audit-id']), UUID_V4);
    });
  }

  it('serves the same bytes again, and each revision once written (bodies kept per revision)', async () => {
    const current = (await s.api.admin('GET', `${CM}/c1`)).json();
    await eventually(async () => {
      const r = await get(`${CM}/c1?resourceVersion=0`);
      return r.status === 200 && r.json().metadata.resourceVersion === current.metadata.resourceVersion;
    }, 'the cache serves c1');
    const first = await get(`${CM}/c1?resourceVersion=0`);
    const again = await get(`${CM}/c1?resourceVersion=0`);
    assert.deepEqual(again.body, first.body);
    for (let round = 0; round < 3; round++) {
      const updated = await s.api.admin('PUT', `${CM}/c1`, {
        body: {
          ...current,
          data: { a: `changed-${round}` },
          metadata: { ...current.metadata, resourceVersion: undefined },
        },
      });
      assert.equal(updated.status, 200, updated.text);
      const rv = updated.json().metadata.resourceVersion;
      let r: HttpResult | undefined;
      await eventually(async () => {
        r = await get(`${CM}/c1?resourceVersion=0`);
        return r.json().metadata.resourceVersion === rv;
      }, `the cache serves revision ${rv}`);
      assert.deepEqual(r!.json(), updated.json());
      assert.equal(r!.headers['content-length'], String(r!.body.length));
    }
  });

  it('tells tokens apart on one kept-alive connection', async () => {
    const agent = new HttpsAgent({ keepAlive: true, maxSockets: 1, ca: s.admin.ca });
    const once = (token: string) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const req = httpsRequest(
          new URL(`${CM}/c1?resourceVersion=0`, s.url),
          { agent, headers: { authorization: `Bearer ${token}` } },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    try {
      const steps: { token: string; status: number }[] = [
        { token: TOKEN, status: 200 },
        { token: TOKEN, status: 200 },
        { token: OTHER_TOKEN, status: 403 },
        { token: TOKEN, status: 200 },
        { token: `${TOKEN.slice(0, -1)}x`, status: 401 },
        { token: TOKEN, status: 200 },
      ];
      for (const [i, st] of steps.entries()) {
        const r = await once(st.token);
        assert.equal(r.status, st.status, `request ${i}`);
        if (i > 0) assert.equal(r.reused, true, `request ${i} on the first connection`);
      }
    } finally {
      agent.destroy();
    }
  });

  it('counts every GET in apiserver_request_total', async () => {
    const metrics = async () => (await s.api.admin('GET', '/metrics')).text;
    const before200 = getCount(await metrics(), '200');
    const before404 = getCount(await metrics(), '404');
    for (let i = 0; i < 3; i++) assert.equal((await get(`${CM}/c1?resourceVersion=0`)).status, 200);
    assert.equal((await get(`${CM}/nope?resourceVersion=0`)).status, 404);
    const text = await metrics();
    assert.equal(getCount(text, '200'), before200 + 3);
    assert.equal(getCount(text, '404'), before404 + 1);
  });
});
