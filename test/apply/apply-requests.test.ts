import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeCbor } from '../../src/encoding/index.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { CM_BASE, configMap, JSON_PATCH, MERGE_PATCH, owners, ownershipClient } from './apply-support.js';

// The apply request itself: content types, options and their errors, creation, dry run,
// conditional applies, field validation, and clearing managedFields with other writes.
describe('server-side apply requests', () => {
  let server: ServerProcess;
  let c: ReturnType<typeof ownershipClient>;
  before(async () => {
    server = await startServerProcess();
    c = ownershipClient(server);
  });
  after(async () => server?.dispose());

  const cm = (name: string) => `${CM_BASE}/${name}`;

  it('creates a missing object (201) from a YAML body, then patches it (200)', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  a: "1"\n';
    let r = await c.apply(cm('from-yaml'), 'm', yaml);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json().data, { a: '1' });
    assert.deepEqual(owners(r.json()), { 'm/Apply': '{"f:data":{"f:a":{}}}' });
    assert.ok(r.json().metadata.uid);
    r = await c.apply(cm('from-yaml'), 'm', `${yaml}  b: "2"\n`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json().data, { a: '1', b: '2' });
    // An apply that changes nothing is not written and keeps the entry's time.
    const before = await c.get(cm('from-yaml'));
    r = await c.apply(cm('from-yaml'), 'm', `${yaml}  b: "2"\n`);
    assert.equal(r.json().metadata.resourceVersion, before.metadata.resourceVersion);
    assert.deepEqual(r.json().metadata.managedFields, before.metadata.managedFields);
  });

  it('an apply that repeats the one that created the object writes nothing (same resourceVersion)', async () => {
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'repeat' },
      spec: {
        selector: { matchLabels: { app: 'repeat' } },
        template: { metadata: { labels: { app: 'repeat' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    };
    for (const [path, body] of [
      [cm('repeat'), configMap('repeat', { a: '1' })],
      [`${deployments}/repeat`, deployment],
    ] as const) {
      const created = await c.apply(path, 'm', body);
      assert.equal(created.status, 201, created.text);
      const again = await c.apply(path, 'm', body);
      assert.equal(again.status, 200, again.text);
      assert.equal(again.json().metadata.resourceVersion, created.json().metadata.resourceVersion, path);
      assert.deepEqual(again.json().metadata.managedFields, created.json().metadata.managedFields);
    }
  });

  it('validates the options as kube does (422): fieldManager required and force only on apply, manager names', async () => {
    let r = await c.apply(cm('opts'), undefined, configMap('opts', { a: '1' }));
    assert.equal(r.status, 422);
    assert.equal(r.json().reason, 'Invalid');
    assert.equal(
      r.json().message,
      'PatchOptions.meta.orch.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
    await c.apply(cm('opts'), 'm', configMap('opts', { a: '1' }));
    r = await c.patch(cm('opts'), 'm', MERGE_PATCH, { data: { b: '2' } }, 'force=false');
    assert.equal(r.status, 422);
    assert.equal(r.json().reason, 'Invalid');
    assert.equal(r.json().details.kind, 'PatchOptions');
    assert.equal(
      r.json().message,
      'PatchOptions.meta.orch.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
    assert.equal(r.json().details.causes[0].field, 'force');
    r = await c.post(CM_BASE, 'x'.repeat(129), configMap('opts-long'));
    assert.equal(r.status, 422);
    assert.equal(
      r.json().message,
      'CreateOptions.meta.orch.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes',
    );
    r = await c.put(cm('opts'), 'tab\there', await c.get(cm('opts')));
    assert.equal(r.status, 422);
    assert.equal(
      r.json().message,
      'UpdateOptions.meta.orch.io "" is invalid: fieldManager: Invalid value: "tab\\there": invalid character U+0009',
    );
    // Create and update options have no `force`: kube ignores the parameter there.
    r = await c.put(cm('opts'), 'm', await c.get(cm('opts')), 'force=true');
    assert.equal(r.status, 200, r.text);
    // `force=true` with a value kube reads as true (anything but 0/false) takes over.
    await c.patch(cm('opts'), 'other', MERGE_PATCH, { data: { a: 'other' } });
    r = await c.apply(cm('opts'), 'm', configMap('opts', { a: '1' }), { force: false });
    assert.equal(r.status, 409);
    r = await c.apply(cm('opts'), 'm', configMap('opts', { a: '1' }), { query: 'force=1' });
    assert.equal(r.status, 200, r.text);
  });

  it('rejects what an apply body may not hold (400)', async () => {
    await c.apply(cm('bad'), 'm', configMap('bad', { a: '1' }));
    const live = await c.get(cm('bad'));
    const cases: [unknown, string][] = [
      [
        { ...configMap('bad'), metadata: { name: 'bad', managedFields: live.metadata.managedFields } },
        'metadata.managedFields must be nil',
      ],
      [{ ...configMap('bad'), kind: 'Secret' }, 'invalid object type: /v1, Kind=Secret'],
      [{ ...configMap('bad'), apiVersion: 'v2' }, 'invalid object type: /v2, Kind=ConfigMap'],
      [configMap('other-name'), 'the name of the object (other-name) does not match the name on the URL (bad)'],
    ];
    for (const [body, message] of cases) {
      const r = await c.apply(cm('bad'), 'm', body as Record<string, unknown>);
      assert.equal(r.status, 400, `${message}: ${r.text}`);
      assert.equal(r.json().reason, 'BadRequest');
      assert.equal(r.json().message, message);
    }
    let r = await c.apply(cm('bad'), 'm', 'a: [');
    assert.equal(r.status, 400);
    assert.match(r.json().message, /^error decoding YAML: error converting YAML to JSON: yaml: /);
    r = await c.apply(cm('bad'), 'm', '- a\n- b\n');
    assert.equal(r.status, 400);
    assert.equal(
      r.json().message,
      'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
    assert.deepEqual((await c.get(cm('bad'))).metadata.resourceVersion, live.metadata.resourceVersion);
    // Ill-typed values are the field manager's 500, as kube answers (the namespace is the body's).
    r = await c.apply(cm('bad'), 'm', { ...configMap('bad'), data: { a: 1 } });
    assert.equal(r.status, 500);
    assert.equal(
      r.json().message,
      'failed to create typed patch object (/bad; /v1, Kind=ConfigMap): .data.a: expected string, got &value.valueUnstructured{Value:1}',
    );
    // An unknown content type is a 415 listing the patch types.
    r = await c.apply(cm('bad'), 'm', configMap('bad'), { contentType: 'application/apply-patch+json' });
    assert.equal(r.status, 415);
    assert.match(r.json().message, /application\/apply-patch\+yaml/);
  });

  it('prunes unknown fields and reports them per fieldValidation, with duplicate keys', async () => {
    const body = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fv\nspec: 1\ndata:\n  a: "1"\n  a: "2"\n';
    let r = await c.apply(cm('fv'), 'm', body);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json().data, { a: '2' });
    assert.equal(r.json().spec, undefined);
    // (Node's client joins the two Warning headers.)
    assert.equal(r.headers.warning, '299 - "line 8: key \\"a\\" already set in map", 299 - "unknown field \\"spec\\""');
    r = await c.apply(cm('fv'), 'm', body, { query: 'fieldValidation=Strict' });
    assert.equal(r.status, 400);
    assert.equal(
      r.json().message,
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 8: key "a" already set in map, unknown field "spec"',
    );
    r = await c.apply(cm('fv'), 'm', body, { query: 'fieldValidation=Ignore' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.warning, undefined);
  });

  it('dry run: answers as a real apply would and stores nothing', async () => {
    let r = await c.apply(cm('dry'), 'm', configMap('dry', { a: '1' }), { query: 'dryRun=All' });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(owners(r.json()), { 'm/Apply': '{"f:data":{"f:a":{}}}' });
    assert.equal((await c.api('GET', cm('dry'))).status, 404);
    await c.apply(cm('dry'), 'm', configMap('dry', { a: '1' }));
    r = await c.apply(cm('dry'), 'n', configMap('dry', { b: '2' }), { query: 'dryRun=All' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(owners(r.json())), ['m/Apply', 'n/Apply']);
    const stored = await c.get(cm('dry'));
    assert.deepEqual(stored.data, { a: '1' });
    assert.deepEqual(Object.keys(owners(stored)), ['m/Apply']);
    // A dry-run conflict is still a conflict.
    r = await c.apply(cm('dry'), 'n', configMap('dry', { a: 'x' }), { query: 'dryRun=All' });
    assert.equal(r.status, 409);
  });

  it('conditional apply: a resourceVersion in the body must match (409, no retry)', async () => {
    const created = (await c.apply(cm('cond'), 'm', configMap('cond', { a: '1' }))).json();
    const rv = created.metadata.resourceVersion;
    await c.patch(cm('cond'), 'other', MERGE_PATCH, { data: { b: '2' } });
    let r = await c.apply(cm('cond'), 'm', configMap('cond', { a: '2' }, { resourceVersion: rv }));
    assert.equal(r.status, 409, r.text);
    assert.equal(
      r.json().message,
      'Operation cannot be fulfilled on configmaps "cond": the object has been modified; please apply your changes to the latest version and try again',
    );
    const current = (await c.get(cm('cond'))).metadata.resourceVersion as string;
    r = await c.apply(cm('cond'), 'm', configMap('cond', { a: '2' }, { resourceVersion: current }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json().data, { a: '2', b: '2' });
    // Naming a uid for an object that does not exist is a conflict, as in kube.
    r = await c.apply(cm('cond-new'), 'm', configMap('cond-new', {}, { uid: 'u-1' }));
    assert.equal(r.status, 409);
    assert.match(
      r.json().message,
      /uid mismatch: the provided object specified uid u-1, and no existing object was found/,
    );
  });

  it('clears managedFields with [{}] through a merge patch or a JSON patch; [] does not', async () => {
    await c.apply(cm('reset'), 'a', configMap('reset', { k: 'v' }, { labels: { l: '1' } }));
    await c.patch(cm('reset'), 'b', MERGE_PATCH, { data: { j: 'w' } });
    // [] leaves the entries as they are (the specification's rule).
    let r = await c.patch(cm('reset'), 'e', MERGE_PATCH, { metadata: { managedFields: [] } });
    assert.deepEqual(Object.keys(owners(r.json())), ['a/Apply', 'b/Update']);
    // [{}] with other changes: the reset comes first, so the writer owns just what it changed.
    r = await c.patch(cm('reset'), 'e', MERGE_PATCH, { metadata: { managedFields: [{}] }, data: { z: '1' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(owners(r.json()), { 'e/Update': '{"f:data":{"f:z":{}}}' });
    // [{}] alone through a JSON patch clears them all.
    r = await c.patch(cm('reset'), 'e', JSON_PATCH, [{ op: 'replace', path: '/metadata/managedFields', value: [{}] }]);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().metadata.managedFields, undefined);
    // Untracked until the next apply, which finds everything owned by `before-first-apply`.
    r = await c.patch(cm('reset'), 'e', MERGE_PATCH, { data: { y: '2' } });
    assert.equal(r.json().metadata.managedFields, undefined);
    r = await c.apply(cm('reset'), 'a', configMap('reset', { k: 'changed' }));
    assert.equal(r.status, 409);
    assert.equal(
      r.json().message,
      'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.k',
    );
    r = await c.apply(cm('reset'), 'a', configMap('reset', { k: 'v' }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(owners(r.json())), ['a/Apply', 'before-first-apply/Update']);
  });

  it('answers 415 for apply-patch+cbor while the CBOR gate is off', async () => {
    const r = await c.apply(cm('cbor'), 'm', encodeCbor(configMap('cbor', { a: '1' })).toString('latin1'), {
      contentType: 'application/apply-patch+cbor',
    });
    assert.equal(r.status, 415);
  });
});

describe('server-side apply with the CBOR gate on', () => {
  let server: ServerProcess;
  before(async () => {
    server = await startServerProcess({ args: ['--feature-gates=CBORServingAndStorage=true'] });
  });
  after(async () => server?.dispose());

  it('accepts application/apply-patch+cbor', async () => {
    const c = ownershipClient(server);
    const r = await c.api('PATCH', `${CM_BASE}/cbor?fieldManager=m`, {
      body: encodeCbor(configMap('cbor', { a: '1' })),
      headers: { 'content-type': 'application/apply-patch+cbor' },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json().data, { a: '1' });
    assert.deepEqual(owners(r.json()), { 'm/Apply': '{"f:data":{"f:a":{}}}' });
  });
});
