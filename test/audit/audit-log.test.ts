import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { crdManifest, createEstablished, widgetVersion } from '../apiextensions/crd-fixtures.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http-client.js';

// The audit log of a real server with --audit-policy-file and --audit-log-path: levels, stages,
// rules by user, group, verb, resource, namespace and non-resource URL, omitted stages and managed
// fields, annotations from authorization and deprecated versions, impersonation and refusals.

const POLICY = {
  apiVersion: 'audit.orch.io/v1',
  kind: 'Policy',
  omitManagedFields: true,
  rules: [
    { level: 'None', nonResourceURLs: ['/healthz*', '/readyz*', '/livez*', '/metrics'] },
    { level: 'RequestResponse', resources: [{ group: '', resources: ['configmaps'] }], namespaces: ['audited'] },
    {
      level: 'Request',
      verbs: ['create'],
      resources: [{ group: '', resources: ['secrets'] }],
      omitStages: ['RequestReceived'],
    },
    { level: 'None', users: ['quiet'] },
    { level: 'Metadata' },
  ],
};

// biome-ignore lint/suspicious/noExplicitAny: audit events are read as JSON
type Event = any;

describe('audit log', () => {
  let dir: string;
  let log: string;
  let s: InProcessServer;
  const events = async (): Promise<Event[]> =>
    (await readFile(log, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
  const byId = async (id: string) => (await events()).filter((e) => e.auditID === id);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-audit-'));
    log = join(dir, 'audit.log');
    await writeFile(join(dir, 'policy.yaml'), toYaml(POLICY));
    s = await startInProcess({
      runControllers: false,
      audit: { policyFile: join(dir, 'policy.yaml'), logPath: log },
    });
    const ns = await s.api.admin('POST', '/api/v1/namespaces', { body: { metadata: { name: 'audited' } } });
    assert.equal(ns.status, 201);
  });
  after(async () => {
    await s.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('records RequestResponse with both objects, the stages and the authorization decision', async () => {
    const r = await s.api.admin('POST', '/api/v1/namespaces/audited/configmaps', {
      headers: { 'Audit-ID': 'cm-create', 'User-Agent': 'audit-test/1.0' },
      body: { metadata: { name: 'c1' }, data: { k: 'v' } },
    });
    assert.equal(r.status, 201);
    const got = await byId('cm-create');
    assert.deepEqual(
      got.map((e) => e.stage),
      ['RequestReceived', 'ResponseComplete'],
    );
    const done = got[1];
    assert.equal(done.kind, 'Event');
    assert.equal(done.apiVersion, 'audit.orch.io/v1');
    assert.equal(done.level, 'RequestResponse');
    assert.equal(done.verb, 'create');
    assert.equal(done.requestURI, '/api/v1/namespaces/audited/configmaps');
    assert.equal(done.userAgent, 'audit-test/1.0');
    assert.ok(done.sourceIPs.includes('127.0.0.1'));
    assert.equal(done.user.username, 'orch-admin');
    assert.deepEqual(done.objectRef, { resource: 'configmaps', namespace: 'audited', apiGroup: '', apiVersion: 'v1' });
    assert.deepEqual(done.responseStatus, { metadata: {}, code: 201 });
    assert.deepEqual(done.requestObject, { metadata: { name: 'c1' }, data: { k: 'v' } });
    assert.equal(done.responseObject.metadata.name, 'c1');
    assert.equal(done.responseObject.metadata.managedFields, undefined, 'omitManagedFields');
    assert.equal(done.annotations['authorization.orch.io/decision'], 'allow');
    assert.equal(typeof done.annotations['authorization.orch.io/reason'], 'string');
    assert.match(done.requestReceivedTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.ok(done.stageTimestamp >= done.requestReceivedTimestamp);
  });

  it('records the response object of a list large enough to be sent in chunks', async () => {
    for (const name of ['big-1', 'big-2', 'big-3']) {
      const r = await s.api.admin('POST', '/api/v1/namespaces/audited/configmaps', {
        body: { metadata: { name }, data: { k: 'x'.repeat(450_000) } },
      });
      assert.equal(r.status, 201, r.text);
    }
    const list = await s.api.admin('GET', '/api/v1/namespaces/audited/configmaps?resourceVersion=0', {
      headers: { 'Audit-ID': 'big-list' },
    });
    assert.equal(list.status, 200);
    assert.ok(list.body.length > 1 << 20, `list of ${list.body.length} bytes`);
    assert.equal(list.headers['content-length'], String(list.body.length));
    const names = list.json().items.map((i: { metadata: { name: string } }) => i.metadata.name);
    assert.ok(['big-1', 'big-2', 'big-3'].every((n) => names.includes(n)));
    const done = (await byId('big-list')).find((e) => e.stage === 'ResponseComplete');
    assert.equal(done.responseObject.kind, 'ConfigMapList');
    assert.deepEqual(
      done.responseObject.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      names,
    );
  });

  it('records the request object only at level Request, and omits the stages the rule omits', async () => {
    const r = await s.api.admin('POST', '/api/v1/namespaces/default/secrets', {
      headers: { 'Audit-ID': 'secret-create' },
      body: { metadata: { name: 's1' }, stringData: { password: 'hunter2' } },
    });
    assert.equal(r.status, 201);
    const got = await byId('secret-create');
    assert.deepEqual(
      got.map((e) => e.stage),
      ['ResponseComplete'],
    );
    assert.equal(got[0].level, 'Request');
    assert.deepEqual(got[0].requestObject.stringData, { password: 'hunter2' });
    assert.equal(got[0].responseObject, undefined);
    // A get of the secret falls to the Metadata rule: no objects at all.
    await s.api.admin('GET', '/api/v1/namespaces/default/secrets/s1', { headers: { 'Audit-ID': 'secret-get' } });
    const get = await byId('secret-get');
    assert.equal(get.at(-1).level, 'Metadata');
    assert.equal(get.at(-1).requestObject, undefined);
    assert.equal(get.at(-1).responseObject, undefined);
  });

  it('skips requests at level None (non-resource URLs and users)', async () => {
    await s.api.admin('GET', '/healthz', { headers: { 'Audit-ID': 'health' } });
    const quiet = await s.userCredentials('quiet', ['system:masters']);
    await request(s.url, '/api/v1/namespaces', { ca: s.admin.ca, as: quiet, headers: { 'Audit-ID': 'quiet' } });
    await s.api.admin('GET', '/version', { headers: { 'Audit-ID': 'version' } });
    assert.deepEqual(await byId('health'), []);
    assert.deepEqual(await byId('quiet'), []);
    const version = await byId('version');
    assert.equal(version.at(-1).verb, 'get');
    assert.equal(version.at(-1).objectRef, undefined);
  });

  it('records refusals with the decision, impersonation and failed authentication', async () => {
    const alice = await s.userCredentials('alice');
    const refused = await request(s.url, '/api/v1/namespaces/default/pods', {
      ca: s.admin.ca,
      as: alice,
      headers: { 'Audit-ID': 'refused' },
    });
    assert.equal(refused.status, 403);
    const ev = (await byId('refused')).at(-1);
    assert.equal(ev.responseStatus.code, 403);
    assert.equal(ev.responseStatus.reason, 'Forbidden');
    assert.equal(ev.annotations['authorization.orch.io/decision'], 'forbid');

    await s.api.admin('GET', '/api/v1/namespaces/default/configmaps', {
      headers: { 'Audit-ID': 'impersonated', 'Impersonate-User': 'bob', 'Impersonate-Group': 'system:masters' },
    });
    const imp = (await byId('impersonated')).at(-1);
    assert.equal(imp.user.username, 'orch-admin');
    assert.equal(imp.impersonatedUser.username, 'bob');

    const unauth = await request(s.url, '/api/v1/namespaces', {
      ca: s.admin.ca,
      headers: { 'Audit-ID': 'unauth', authorization: 'Bearer not-a-token' },
    });
    assert.equal(unauth.status, 401);
    const u = await byId('unauth');
    assert.deepEqual(
      u.map((e) => [e.stage, e.responseStatus.code]),
      [['ResponseStarted', 401]],
    );
    assert.ok(!JSON.stringify(u).includes('not-a-token'), 'credentials never reach the log');
  });

  it('records a watch as started when it opens and complete when it ends', async () => {
    const ac = new AbortController();
    const ended = new Promise<void>((resolve) => {
      const req = httpsRequest(
        new URL('/api/v1/namespaces/audited/configmaps?watch=1&timeoutSeconds=1', s.url),
        { ca: s.admin.ca, cert: s.admin.cert, key: s.admin.key, headers: { 'Audit-ID': 'watch' }, signal: ac.signal },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => resolve());
          res.on('error', () => resolve());
        },
      );
      req.on('error', () => resolve());
      req.end();
    });
    await ended;
    await eventually(async () => (await byId('watch')).some((e) => e.stage === 'ResponseComplete'), 'the watch ends');
    assert.deepEqual(
      (await byId('watch')).map((e) => e.stage),
      ['RequestReceived', 'ResponseStarted', 'ResponseComplete'],
    );
  });

  it('annotates requests of deprecated versions', async () => {
    await createEstablished(
      s.api.admin,
      crdManifest({
        group: 'audit.example.com',
        versions: [widgetVersion('v1'), widgetVersion('v1beta1', { storage: false, deprecated: true })],
      }),
    );
    await s.api.admin('GET', '/apis/audit.example.com/v1beta1/widgets', { headers: { 'Audit-ID': 'deprecated' } });
    await s.api.admin('GET', '/apis/audit.example.com/v1/widgets', { headers: { 'Audit-ID': 'current' } });
    assert.equal((await byId('deprecated')).at(-1).annotations['orch.io/deprecated'], 'true');
    assert.equal((await byId('current')).at(-1).annotations['orch.io/deprecated'], undefined);
  });
});

describe('audit policy files', () => {
  it('refuses a policy that does not validate, listing every problem and naming the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orch-audit-bad-'));
    try {
      const file = join(dir, 'policy.yaml');
      await writeFile(
        file,
        toYaml({
          apiVersion: 'audit.orch.io/v1',
          kind: 'Policy',
          rules: [{ level: 'Everything' }, { level: 'Metadata', nonResourceURLs: ['healthz'], namespaces: ['a'] }],
        }),
      );
      await assert.rejects(
        startInProcess({ runControllers: false, audit: { policyFile: file, logPath: join(dir, 'a.log') } }),
        (e: Error) => {
          assert.match(
            e.message,
            /rules\[0\]\.level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"/,
          );
          assert.match(
            e.message,
            /rules\[1\]\.nonResourceURLs\[0\]: Invalid value: "healthz": non-resource URL rules must begin with a '\/' character/,
          );
          assert.match(
            e.message,
            /rules\[1\]\.nonResourceURLs: Invalid value: \[\]string\{"healthz"\}: rules cannot apply to both regular resources and non-resource URLs/,
          );
          return true;
        },
      );
      await writeFile(
        file,
        toYaml({ apiVersion: 'audit.orch.io/v1beta1', kind: 'Policy', rules: [{ level: 'None' }] }),
      );
      await assert.rejects(
        startInProcess({ runControllers: false, audit: { policyFile: file, logPath: join(dir, 'a.log') } }),
        (e: Error) => e.message.includes(`from file ${file}`),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
