import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer } from '../../src/server/start-server.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { apiOf } from '../support/api.js';
import { crdManifest, crdPath, createEstablished, eventually, widgetVersion } from './crd-fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

const AGGREGATED = 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

const condition = (crd: Json, type: string) => crd.status?.conditions?.find((c: Json) => c.type === type);

describe('CustomResourceDefinition lifecycle', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: true });
  });
  after(() => s.stop());

  it('refuses an invalid definition with every error, as kube words them', async () => {
    const bad = crdManifest({ group: 'bad.example.com' }) as Json;
    bad.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size = { description: 'no type' };
    bad.spec.versions[0].storage = false;
    const r = await s.api.admin('POST', crdPath(), { body: bad });
    assert.equal(r.status, 422, r.text);
    const status = r.json();
    assert.equal(status.reason, 'Invalid');
    assert.equal(status.details.kind, 'CustomResourceDefinition');
    assert.equal(status.details.group, 'apiextensions.orch.io');
    const fields = status.details.causes.map((c: Json) => c.field);
    assert.ok(fields.includes('spec.validation.openAPIV3Schema.properties[spec].properties[size].type'), r.text);
    assert.ok(fields.includes('spec.versions'), r.text);
    assert.match(
      status.message,
      /^CustomResourceDefinition.apiextensions.orch.io "widgets.bad.example.com" is invalid: \[/,
    );
  });

  it('accepts names, establishes, and serves in discovery and OpenAPI within a second', async () => {
    const aggBefore = await s.api.admin('GET', '/apis', { headers: { accept: AGGREGATED } });
    const started = Date.now();
    const r = await s.api.admin('POST', crdPath(), { body: crdManifest({ shortNames: ['wd'] }) });
    assert.equal(r.status, 201, r.text);
    const created = r.json();
    assert.equal(created.metadata.generation, 1);
    assert.deepEqual(created.status.storedVersions, ['v1']);
    assert.equal(created.spec.names.singular, 'widget');
    assert.equal(created.spec.names.listKind, 'WidgetList');
    assert.deepEqual(created.spec.conversion, { strategy: 'None' });
    const crd = await eventually(
      'served in discovery and OpenAPI',
      async () => {
        const group = await s.api.admin('GET', '/apis/example.com/v1');
        const v3 = await s.api.admin('GET', '/openapi/v3');
        if (group.status !== 200 || !v3.json().paths['apis/example.com/v1']) return undefined;
        return (await s.api.admin('GET', crdPath(undefined, 'widgets.example.com'))).json();
      },
      1000,
    );
    assert.ok(Date.now() - started < 1000);
    assert.deepEqual(condition(crd, 'NamesAccepted'), {
      type: 'NamesAccepted',
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
      lastTransitionTime: condition(crd, 'NamesAccepted').lastTransitionTime,
    });
    assert.equal(condition(crd, 'Established').status, 'True');
    assert.equal(condition(crd, 'Established').reason, 'InitialNamesAccepted');
    assert.deepEqual(crd.status.acceptedNames, {
      plural: 'widgets',
      singular: 'widget',
      shortNames: ['wd'],
      kind: 'Widget',
      listKind: 'WidgetList',
    });
    const list = (await s.api.admin('GET', '/apis/example.com/v1')).json();
    assert.deepEqual(
      list.resources.map((x: Json) => x.name),
      ['widgets', 'widgets/status', 'widgets/scale'],
    );
    assert.deepEqual(list.resources[0].shortNames, ['wd']);
    const groups = (await s.api.admin('GET', '/apis')).json();
    assert.ok(groups.groups.some((g: Json) => g.name === 'example.com' && g.preferredVersion.version === 'v1'));
    const agg = await s.api.admin('GET', '/apis', { headers: { accept: AGGREGATED } });
    assert.notEqual(agg.headers.etag, aggBefore.headers.etag);
    const entry = agg.json().items.find((g: Json) => g.metadata.name === 'example.com');
    assert.equal(entry.versions[0].resources[0].resource, 'widgets');
    const v2 = (await s.api.admin('GET', '/openapi/v2')).json();
    assert.ok(v2.definitions['com.example.v1.Widget'], 'the kind is in OpenAPI v2');
    assert.deepEqual(v2.definitions['com.example.v1.Widget']['x-kubernetes-group-version-kind'], [
      { group: 'example.com', kind: 'Widget', version: 'v1' },
    ]);
  });

  it('reports a name another definition of the group holds, or a resource the server serves', async () => {
    const twin = crdManifest({ plural: 'gizmos', kind: 'Widget', shortNames: ['wd'] });
    assert.equal((await s.api.admin('POST', crdPath(), { body: twin })).status, 201);
    const crd = await eventually('names rejected', async () => {
      const g = (await s.api.admin('GET', crdPath(undefined, 'gizmos.example.com'))).json();
      return condition(g, 'NamesAccepted') ? g : undefined;
    });
    const names = condition(crd, 'NamesAccepted');
    assert.equal(names.status, 'False');
    // The last conflicting name decides the reason, as in kube (the kind conflicts too).
    assert.equal(names.reason, 'ListKindConflict');
    assert.equal(names.message, '"WidgetList" is already in use');
    assert.deepEqual(condition(crd, 'Established'), {
      ...condition(crd, 'Established'),
      status: 'False',
      reason: 'NotAccepted',
      message: 'not all names are accepted',
    });
    assert.equal(crd.status.acceptedNames.plural, 'gizmos');
    assert.equal(crd.status.acceptedNames.kind, '');
    assert.equal((await s.api.admin('GET', '/apis/example.com/v1/gizmos')).status, 404);

    const builtin = crdManifest({ group: 'rbac.authorization.orch.io', plural: 'roles', kind: 'Role' }) as Json;
    builtin.metadata.annotations = { 'api-approved.orch.io': 'unapproved, testing' };
    assert.equal((await s.api.admin('POST', crdPath(), { body: builtin })).status, 201);
    const shadow = await eventually('built-in name rejected', async () => {
      const g = (await s.api.admin('GET', crdPath(undefined, 'roles.rbac.authorization.orch.io'))).json();
      return condition(g, 'NamesAccepted') ? g : undefined;
    });
    assert.equal(condition(shadow, 'NamesAccepted').status, 'False');
    assert.equal(condition(shadow, 'NamesAccepted').reason, 'ListKindConflict');
    assert.equal(condition(shadow, 'NamesAccepted').message, '"RoleList" is already in use');
    assert.equal(shadow.status.acceptedNames.plural, '', 'the built-in plural is not accepted');
    const approval = condition(shadow, 'KubernetesAPIApprovalPolicyConformant');
    assert.equal(approval.status, 'False');
    assert.equal(approval.reason, 'UnapprovedAnnotation');
    assert.equal(approval.message, 'not approved: "unapproved, testing"');
    // The built-in resource is untouched.
    assert.equal((await s.api.admin('GET', '/apis/rbac.authorization.orch.io/v1/roles')).json().kind, 'RoleList');
    await s.api.admin('DELETE', crdPath(undefined, 'roles.rbac.authorization.orch.io'));
  });

  it('accepts a freed name once the definition holding it is gone', async () => {
    const holder = crdManifest({ group: 'free.example.com', plural: 'things', kind: 'Thing' });
    await createEstablished(s.api.admin, holder);
    const waiting = crdManifest({ group: 'free.example.com', plural: 'items', kind: 'Thing' });
    assert.equal((await s.api.admin('POST', crdPath(), { body: waiting })).status, 201);
    await eventually('kind conflict', async () => {
      const g = (await s.api.admin('GET', crdPath(undefined, 'items.free.example.com'))).json();
      return condition(g, 'NamesAccepted')?.reason === 'ListKindConflict' ? true : undefined;
    });
    assert.equal((await s.api.admin('DELETE', crdPath(undefined, 'things.free.example.com'))).status, 200);
    await eventually('kind accepted once freed', async () => {
      const g = (await s.api.admin('GET', crdPath(undefined, 'items.free.example.com'))).json();
      return condition(g, 'Established')?.status === 'True' ? true : undefined;
    });
  });

  it('does not establish a definition whose conversion webhook has an invalid CA bundle', async () => {
    const manifest = crdManifest({ group: 'hooked.example.com', plural: 'hooks', kind: 'Hook' }) as Json;
    manifest.spec.conversion = {
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: {
          url: 'https://converter.example.com/convert',
          caBundle: Buffer.from('not a certificate').toString('base64'),
        },
      },
    };
    const r = await s.api.admin('POST', crdPath(), { body: manifest });
    assert.equal(r.status, 201, r.text);
    const crd = await eventually('establishing refused', async () => {
      const g = (await s.api.admin('GET', crdPath(undefined, 'hooks.hooked.example.com'))).json();
      return condition(g, 'Established')?.reason === 'InvalidCABundle' ? g : undefined;
    });
    assert.equal(condition(crd, 'Established').status, 'False');
    assert.equal(condition(crd, 'Established').message, 'The conversion webhook CABundle is invalid');
    assert.equal((await s.api.admin('GET', '/apis/hooked.example.com/v1')).status, 404);
  });

  it('deletes the objects first, refusing creates meanwhile, then the definition', async () => {
    const manifest = crdManifest({ group: 'doomed.example.com', plural: 'doomeds', kind: 'Doomed' });
    await createEstablished(s.api.admin, manifest);
    const base = '/apis/doomed.example.com/v1/namespaces/default/doomeds';
    for (const name of ['a', 'b']) {
      const body = { apiVersion: 'doomed.example.com/v1', kind: 'Doomed', metadata: { name } };
      assert.equal((await s.api.admin('POST', base, { body })).status, 201);
    }
    const blocked = {
      apiVersion: 'doomed.example.com/v1',
      kind: 'Doomed',
      metadata: { name: 'c', finalizers: ['example.com/hold'] },
    };
    assert.equal((await s.api.admin('POST', base, { body: blocked })).status, 201);

    const del = await s.api.admin('DELETE', crdPath(undefined, 'doomeds.doomed.example.com'));
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.json().metadata.finalizers, ['customresourcecleanup.apiextensions.orch.io']);
    assert.ok(del.json().metadata.deletionTimestamp);
    assert.equal(condition(del.json(), 'Terminating').reason, 'InstanceDeletionPending');

    const terminating = await eventually('deletion in progress', async () => {
      const g = (await s.api.admin('GET', crdPath(undefined, 'doomeds.doomed.example.com'))).json();
      return condition(g, 'Terminating')?.reason === 'InstanceDeletionInProgress' ? g : undefined;
    });
    assert.equal(condition(terminating, 'Terminating').message, 'CustomResource deletion is in progress');
    const refused = await s.api.admin('POST', base, {
      body: { apiVersion: 'doomed.example.com/v1', kind: 'Doomed', metadata: { name: 'late' } },
    });
    assert.equal(refused.status, 405, refused.text);
    assert.equal(refused.json().message, 'create not allowed while custom resource definition is terminating');
    assert.deepEqual(refused.json().details, { group: 'doomed.example.com', kind: 'doomeds' });
    // The held object waits for its finalizer; the others are gone.
    const left = await eventually('unheld objects deleted', async () => {
      const items = (await s.api.admin('GET', base)).json().items;
      return items.length === 1 ? items : undefined;
    });
    assert.equal(left[0].metadata.name, 'c');
    const release = await s.api.admin('PATCH', `${base}/c`, {
      body: { metadata: { finalizers: null } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(release.status, 200, release.text);
    await eventually(
      'definition removed',
      async () =>
        (await s.api.admin('GET', crdPath(undefined, 'doomeds.doomed.example.com'))).status === 404 ? true : undefined,
      10000,
    );
    assert.equal((await s.api.admin('GET', base)).status, 404);
    assert.equal((await s.api.admin('GET', '/apis/doomed.example.com/v1')).status, 404);
  });

  it('keeps status out of main-resource writes and bumps generation on spec changes only', async () => {
    const crd = (await s.api.admin('GET', crdPath(undefined, 'widgets.example.com'))).json();
    const put = await s.api.admin('PUT', crdPath(undefined, 'widgets.example.com'), {
      body: { ...crd, status: { ...crd.status, storedVersions: ['v1', 'v0'] } },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.json().status.storedVersions, ['v1']);
    assert.equal(put.json().metadata.generation, crd.metadata.generation);
    const changed = structuredClone(crd);
    changed.spec.versions[0].additionalPrinterColumns = [];
    changed.metadata.resourceVersion = put.json().metadata.resourceVersion;
    const r = await s.api.admin('PUT', crdPath(undefined, 'widgets.example.com'), { body: changed });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().metadata.generation, crd.metadata.generation + 1);
    // Restore the columns for the other tests.
    const back = r.json();
    back.spec.versions[0] = widgetVersion();
    assert.equal((await s.api.admin('PUT', crdPath(undefined, 'widgets.example.com'), { body: back })).status, 200);
  });
});

describe('definitions across a restart', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-crd-restart-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('serves the stored definitions as soon as the server is ready again', async () => {
    const first = await startInProcess({ dataDir, runControllers: false });
    await createEstablished(first.api.admin, crdManifest());
    const c = await first.api.admin('POST', WIDGETS, {
      body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'kept' }, spec: { color: 'red' } },
    });
    assert.equal(c.status, 201, c.text);
    await first.server.close();
    const second = await startServer({ dataDir, securePort: 0, bindAddress: '127.0.0.1', runControllers: false });
    try {
      const api = apiOf({ url: second.url, admin: second.admin! });
      const g = await api.admin('GET', `${WIDGETS}/kept`);
      assert.equal(g.status, 200, g.text);
      assert.equal(g.json().spec.replicas, 1);
      assert.equal((await api.admin('GET', '/apis/example.com/v1')).status, 200);
    } finally {
      await second.close();
    }
  });
});
