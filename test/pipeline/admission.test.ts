import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AdmissionAttributes, AdmissionPlugin } from '../../src/admission/index.js';
import { StatusError } from '../../src/apis/meta/status.js';
import { type InProcessServer, startInProcess } from './server-fixture.js';

interface Seen {
  readonly step: string;
  readonly op: string;
  readonly name: string;
  readonly user: string;
  readonly dryRun: boolean;
  readonly label?: string;
}

/** Records every call; the mutating plugin labels ConfigMaps, the validating one rejects `forbidden-*`. */
function recordingPlugins(seen: Seen[]): AdmissionPlugin[] {
  const note = (step: string, a: AdmissionAttributes) =>
    seen.push({
      step,
      op: a.operation,
      name: a.name,
      user: a.user.name,
      dryRun: a.dryRun,
      label: a.object?.metadata.labels?.admitted,
    });
  const mutating: AdmissionPlugin = {
    name: 'Labeler',
    handles: () => true,
    async admit(a) {
      if (a.resource.resource !== 'configmaps') return;
      note('admit', a);
      if (a.object) a.object.metadata.labels = { ...(a.object.metadata.labels ?? {}), admitted: 'yes' };
      a.warnings.add('labelled by the test admission plugin');
    },
  };
  const validating: AdmissionPlugin = {
    name: 'Rejecter',
    handles: (op) => op !== 'CONNECT',
    async validate(a) {
      if (a.resource.resource !== 'configmaps') return;
      note('validate', a);
      if (a.name.startsWith('forbidden-')) throw new Error('names starting with forbidden- are not admitted');
      if (a.name.startsWith('invalid-')) {
        throw new StatusError(422, 'Invalid', `ConfigMap "${a.name}" is invalid: rejected by a policy`);
      }
    },
  };
  return [validating, mutating];
}

describe('admission chain through the API', () => {
  let s: InProcessServer;
  const seen: Seen[] = [];
  before(async () => {
    s = await startInProcess({ admissionPlugins: recordingPlugins(seen), runControllers: false });
  });
  after(() => s.stop());

  const cm = (name: string, data: Record<string, string> = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data,
  });

  it('runs mutating plugins before validating ones on create, and the mutation is stored', async () => {
    seen.length = 0;
    const r = await s.api.admin('POST', '/api/v1/namespaces/default/configmaps', { body: cm('a') });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().metadata.labels.admitted, 'yes');
    assert.deepEqual(
      seen.map((x) => `${x.step}:${x.op}:${x.label ?? ''}`),
      ['admit:CREATE:', 'validate:CREATE:yes'],
    );
    assert.equal(seen[0].user, 'orch-admin');
  });

  it('runs on update, patch and delete with the operation and old object', async () => {
    seen.length = 0;
    const got = (await s.api.admin('GET', '/api/v1/namespaces/default/configmaps/a')).json();
    const put = await s.api.admin('PUT', '/api/v1/namespaces/default/configmaps/a', {
      body: { ...got, data: { k: 'v' } },
    });
    assert.equal(put.status, 200, put.text);
    const patch = await s.api.admin('PATCH', '/api/v1/namespaces/default/configmaps/a', {
      body: { data: { k: 'w' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patch.status, 200, patch.text);
    const del = await s.api.admin('DELETE', '/api/v1/namespaces/default/configmaps/a');
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(
      seen.map((x) => `${x.step}:${x.op}`),
      ['admit:UPDATE', 'validate:UPDATE', 'admit:UPDATE', 'validate:UPDATE', 'admit:DELETE', 'validate:DELETE'],
    );
  });

  it("returns a plugin's Status as it is, and a plain error as 403", async () => {
    const invalid = await s.api.admin('POST', '/api/v1/namespaces/default/configmaps', { body: cm('invalid-x') });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.json().message, 'ConfigMap "invalid-x" is invalid: rejected by a policy');
    const forbidden = await s.api.admin('POST', '/api/v1/namespaces/default/configmaps', { body: cm('forbidden-x') });
    assert.equal(forbidden.status, 403);
    assert.equal(
      forbidden.json().message,
      'configmaps "forbidden-x" is forbidden: names starting with forbidden- are not admitted',
    );
  });

  it('runs admission on a dry run without persisting', async () => {
    seen.length = 0;
    const r = await s.api.admin('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { body: cm('dry') });
    assert.equal(r.status, 201);
    assert.equal(r.json().metadata.labels.admitted, 'yes');
    assert.ok(seen.every((x) => x.dryRun));
    assert.equal(seen.length, 2);
    assert.equal((await s.api.admin('GET', '/api/v1/namespaces/default/configmaps/dry')).status, 404);
    const rejected = await s.api.admin('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', {
      body: cm('forbidden-dry'),
    });
    assert.equal(rejected.status, 403);
    const missingNs = await s.api.admin('POST', '/api/v1/namespaces/nowhere/configmaps?dryRun=All', { body: cm('x') });
    assert.equal(missingNs.status, 404);
    assert.equal(missingNs.json().message, 'namespaces "nowhere" not found');
  });

  it('sends warnings from decoding and from admission on one response', async () => {
    const r = await s.api.admin('POST', '/api/v1/namespaces/default/configmaps?fieldValidation=Warn', {
      body: { ...cm('warned'), bogus: 1 },
    });
    assert.equal(r.status, 201, r.text);
    const warning = r.headers.warning;
    const values = Array.isArray(warning) ? warning : String(warning).split(/,\s*(?=299)/);
    assert.ok(
      values.some((w) => w.includes('unknown field \\"bogus\\"') || w.includes('unknown field "bogus"')),
      String(warning),
    );
    assert.ok(
      values.some((w) => w.includes('labelled by the test admission plugin')),
      String(warning),
    );
  });

  it('keeps NamespaceLifecycle: the immortal namespaces cannot be deleted', async () => {
    const r = await s.api.admin('DELETE', '/api/v1/namespaces/default');
    assert.equal(r.status, 403);
    assert.equal(r.json().message, 'namespaces "default" is forbidden: this namespace may not be deleted');
  });
});

describe('audit ID', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false });
  });
  after(() => s.stop());

  it("echoes the client's Audit-ID and generates one otherwise, errors included", async () => {
    const sent = await s.api.admin('GET', '/api/v1/namespaces', { headers: { 'audit-id': 'trace-123' } });
    assert.equal(sent.headers['audit-id'], 'trace-123');
    const generated = await s.api.admin('GET', '/api/v1/namespaces/nope');
    assert.equal(generated.status, 404);
    assert.match(String(generated.headers['audit-id']), /^[0-9a-f-]{36}$/);
    const other = await s.api.admin('GET', '/version');
    assert.notEqual(other.headers['audit-id'], generated.headers['audit-id']);
  });
});
