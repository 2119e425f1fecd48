import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http-client.js';

// kube-apiserver's metrics at /metrics of a real server: request counts and latencies with kube's
// labels, long-running watches, stored objects, authentication and authorization attempts,
// stability classes in the help texts, hidden deprecated metrics, and who may read them.

/** The value of the sample `name{labels}` in Prometheus text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const close = line.lastIndexOf('}');
    const body = line.slice(name.length + 1, close);
    const got = Object.fromEntries([...body.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (
      Object.entries(labels).every(([k, v]) => got[k] === v) &&
      Object.keys(got).length === Object.keys(labels).length
    )
      return Number(line.slice(close + 1).trim());
  }
  return undefined;
}

const CM = { group: '', version: 'v1', resource: 'configmaps', component: 'apiserver' };

describe('apiserver metrics at /metrics', () => {
  let s: InProcessServer;
  const metrics = async () => {
    const r = await s.api.admin('GET', '/metrics');
    assert.equal(r.status, 200, r.text);
    return r.text;
  };

  before(async () => {
    s = await startInProcess({ runControllers: false });
  });
  after(async () => {
    await s.stop();
  });

  it('counts requests with kube labels, verbs and codes, and times them', async () => {
    const r = await s.api.admin('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'm1' }, data: { a: '1' } },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal((await s.api.admin('GET', '/api/v1/namespaces/default/configmaps/m1')).status, 200);
    assert.equal((await s.api.admin('GET', '/api/v1/namespaces/default/configmaps/nope')).status, 404);
    assert.equal((await s.api.admin('GET', '/api/v1/configmaps')).status, 200);
    const applied = await s.api.admin('PATCH', '/api/v1/namespaces/default/configmaps/m2?fieldManager=t&dryRun=All', {
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm2' } }),
    });
    assert.equal(applied.status, 201, applied.text);
    const text = await metrics();
    assert.match(text, /# HELP apiserver_request_total \[STABLE\] /);
    assert.match(text, /# TYPE apiserver_request_duration_seconds histogram/);
    const base = { ...CM, dry_run: '', subresource: '' };
    assert.ok(
      (sample(text, 'apiserver_request_total', { ...base, verb: 'POST', scope: 'resource', code: '201' }) ?? 0) >= 1,
    );
    assert.ok(
      (sample(text, 'apiserver_request_total', { ...base, verb: 'GET', scope: 'resource', code: '200' }) ?? 0) >= 1,
    );
    assert.ok(
      (sample(text, 'apiserver_request_total', { ...base, verb: 'GET', scope: 'resource', code: '404' }) ?? 0) >= 1,
    );
    assert.ok(
      (sample(text, 'apiserver_request_total', { ...base, verb: 'LIST', scope: 'cluster', code: '200' }) ?? 0) >= 1,
    );
    assert.equal(
      sample(text, 'apiserver_request_total', {
        ...base,
        dry_run: 'All',
        verb: 'APPLY',
        scope: 'resource',
        code: '201',
      }),
      1,
    );
    assert.ok(
      (sample(text, 'apiserver_request_duration_seconds_count', { ...base, verb: 'GET', scope: 'resource' }) ?? 0) >= 2,
    );
    assert.ok(
      (sample(text, 'apiserver_response_sizes_count', { ...CM, subresource: '', verb: 'GET', scope: 'resource' }) ??
        0) >= 2,
    );
    assert.ok((sample(text, 'authentication_attempts', { result: 'success' }) ?? 0) >= 5);
    assert.ok((sample(text, 'authorization_attempts_total', { result: 'allowed' }) ?? 0) >= 5);
    assert.notEqual(sample(text, 'apiserver_current_inflight_requests', { request_kind: 'readOnly' }), undefined);
  });

  it('reports stored objects per resource and open watches as long-running', async () => {
    for (const name of ['w1', 'w2', 'w3']) {
      await s.api.admin('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name } } });
    }
    const list = (await s.api.admin('GET', '/api/v1/configmaps')).json();
    await eventually(
      async () =>
        sample(await metrics(), 'apiserver_storage_objects', { resource: 'configmaps' }) === list.items.length,
      'the stored config maps are counted',
    );
    const watch = new AbortController();
    const url = new URL('/api/v1/namespaces/default/configmaps?watch=1', s.url);
    const open = fetchWatch(url, s.admin, watch.signal);
    const labels = { ...CM, subresource: '', verb: 'WATCH', scope: 'namespace' };
    try {
      await eventually(
        async () => sample(await metrics(), 'apiserver_longrunning_requests', labels) === 1,
        'the open watch is counted',
      );
    } finally {
      watch.abort();
      await open.catch(() => {});
    }
    await eventually(async () => {
      const text = await metrics();
      return (
        sample(text, 'apiserver_longrunning_requests', labels) === 0 &&
        (sample(text, 'apiserver_request_total', { ...labels, dry_run: '', code: '200' }) ?? 0) >= 1
      );
    }, 'the ended watch is counted as a request');
  });

  it('hides the metric deprecated in 1.27 by default', async () => {
    assert.doesNotMatch(await metrics(), /apiserver_request_slo_duration_seconds/);
    assert.match(await metrics(), /# HELP apiserver_request_sli_duration_seconds \[ALPHA\] /);
  });

  it('lets system:monitoring read /metrics and refuses other users', async () => {
    const monitor = await s.userCredentials('prometheus', ['system:monitoring']);
    const ok = await request(s.url, '/metrics', { ca: s.admin.ca, as: monitor });
    assert.equal(ok.status, 200);
    const other = await s.userCredentials('mallory');
    const refused = await request(s.url, '/metrics', { ca: s.admin.ca, as: other });
    assert.equal(refused.status, 403);
    assert.equal(refused.json().message, 'forbidden: User "mallory" cannot get path "/metrics"');
  });
});

describe('--show-hidden-metrics-for-version', () => {
  it('shows the hidden metric again, marked deprecated', async () => {
    const s = await startInProcess({ runControllers: false, showHiddenMetricsForVersion: '1.31' });
    try {
      await s.api.admin('GET', '/api/v1/namespaces/default/configmaps');
      const text = (await s.api.admin('GET', '/metrics')).text;
      assert.match(text, /# HELP apiserver_request_slo_duration_seconds \[ALPHA\] \(Deprecated since 1\.27\.0\) /);
      assert.match(text, /apiserver_request_slo_duration_seconds_count\{/);
    } finally {
      await s.stop();
    }
  });

  it('refuses any value but the previous minor version, in kube words', async () => {
    await assert.rejects(startInProcess({ runControllers: false, showHiddenMetricsForVersion: '1.30' }), {
      message:
        "--show-hidden-metrics-for-version must be omitted or have the value '1.31'. Only the previous minor version is allowed",
    });
  });
});

/** Opens a watch and resolves when it ends (the signal aborts it). */
function fetchWatch(url: URL, creds: { ca: string; cert: string; key: string }, signal: AbortSignal): Promise<void> {
  return import('node:https').then(
    ({ request: httpsRequest }) =>
      new Promise<void>((resolve, reject) => {
        const req = httpsRequest(url, { ca: creds.ca, cert: creds.cert, key: creds.key, signal }, (res) => {
          res.on('data', () => {});
          res.on('end', () => resolve());
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      }),
  );
}
