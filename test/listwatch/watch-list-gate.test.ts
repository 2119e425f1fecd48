import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiRequest } from '../../src/endpoints/testing/api-request.js';
import { type InProcessServer, startInProcessServer } from '../../src/server/testing/in-process-server.js';

const STREAMING_LIST =
  '/api/v1/namespaces/default/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';
const GATE_ERROR = 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled';

interface WatchEventJson {
  type: string;
  object: { metadata: { name?: string; annotations?: Record<string, string> } };
}

/** Reads a watch until the bookmark ending the initial events, then stops it. */
async function initialEvents(server: InProcessServer, url: string): Promise<WatchEventJson[]> {
  const ac = new AbortController();
  const res = await server.handler(apiRequest({ url, signal: ac.signal }));
  assert.equal(res.status, 200);
  assert.equal(res.kind, 'stream');
  const events: WatchEventJson[] = [];
  let text = '';
  const done = new Promise<void>((resolve) => {
    if (res.kind !== 'stream') return resolve();
    void res
      .pump((chunk) => {
        text += chunk.toString();
        for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
          const ev = JSON.parse(text.slice(0, nl)) as WatchEventJson;
          text = text.slice(nl + 1);
          events.push(ev);
          if (ev.type === 'BOOKMARK') ac.abort();
        }
        return undefined;
      }, ac.signal)
      .then(() => resolve());
  });
  await done;
  return events;
}

describe('the WatchList feature gate', () => {
  let enabled: InProcessServer;
  let disabled: InProcessServer;
  before(async () => {
    [enabled, disabled] = await Promise.all([
      startInProcessServer(),
      startInProcessServer({ featureGates: { WatchList: false } }),
    ]);
    for (const server of [enabled, disabled]) {
      const r = await server.request({
        method: 'POST',
        url: '/api/v1/namespaces/default/configmaps',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }),
      });
      assert.equal(r.status, 201);
    }
  });
  after(async () => {
    await enabled.close();
    await disabled.close();
  });

  it('enabled (the default): a streaming list sends the state, then the initial-events-end bookmark', async () => {
    const events = await initialEvents(enabled, STREAMING_LIST);
    assert.deepEqual(
      events.map((e) => e.type),
      ['ADDED', 'BOOKMARK'],
    );
    assert.equal(events[0].object.metadata.name, 'cm');
    assert.deepEqual(events[1].object.metadata.annotations, { 'orch.io/initial-events-end': 'true' });
  });

  it('disabled: a watch with sendInitialEvents is a 422 naming the gate, as kube answers it', async () => {
    const r = await disabled.request({ url: STREAMING_LIST });
    assert.equal(r.status, 422);
    assert.deepEqual(r.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `ListOptions.meta.orch.io "" is invalid: sendInitialEvents: Forbidden: ${GATE_ERROR}`,
      reason: 'Invalid',
      details: {
        group: 'meta.orch.io',
        kind: 'ListOptions',
        causes: [{ reason: 'FieldValueForbidden', message: `Forbidden: ${GATE_ERROR}`, field: 'sendInitialEvents' }],
      },
      code: 422,
    });
  });

  it('disabled: sendInitialEvents=false is refused too, after the resourceVersionMatch error', async () => {
    const r = await disabled.request({ url: '/api/v1/namespaces/default/configmaps?watch=1&sendInitialEvents=false' });
    assert.equal(r.status, 422);
    const status = r.json() as { message: string; details: { causes: { field: string }[] } };
    assert.equal(
      status.message,
      `ListOptions.meta.orch.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, sendInitialEvents: Forbidden: ${GATE_ERROR}]`,
    );
    assert.deepEqual(
      status.details.causes.map((c) => c.field),
      ['resourceVersionMatch', 'sendInitialEvents'],
    );
  });

  it('disabled: watches without sendInitialEvents are served', async () => {
    const events = await initialEvents(
      disabled,
      '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=0&allowWatchBookmarks=true&timeoutSeconds=1',
    );
    assert.equal(events[0]?.type, 'ADDED');
    assert.equal(events[0]?.object.metadata.name, 'cm');
  });
});
