import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { stringify as toYaml } from 'yaml';
import type { AdmissionPlugin } from '../../src/admission/index.js';
import { createCertificateAuthority } from '../../src/server/tls/certificate-factory.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { openWatch } from '../support/watch-client.js';
import { type ConversionWebhook, closedPort, GROUP, startConversionWebhook, webhookCrd } from './conversion-webhook.js';
import { createEstablished, eventually } from './crd-fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

const APPLY = { 'content-type': 'application/apply-patch+yaml' };

describe('custom resources converted by a webhook', () => {
  let s: InProcessServer;
  let hook: ConversionWebhook;
  /** What admission saw of Gadgets: operation, request version, object and old object. */
  const admitted: { op: string; version: string; object?: Json; oldObject?: Json }[] = [];
  const recorder: AdmissionPlugin = {
    name: 'GadgetRecorder',
    handles: () => true,
    async validate(a) {
      if (a.kind.kind !== 'Gadget' || a.subresource) return;
      admitted.push({ op: a.operation, version: a.kind.version, object: a.object, oldObject: a.oldObject });
    },
  };
  const path = (v: string, name = '') => `/apis/${GROUP}/${v}/namespaces/default/gadgets${name ? `/${name}` : ''}`;
  const gadget = (v: string, name: string, spec: object, labels?: object) => ({
    apiVersion: `${GROUP}/${v}`,
    kind: 'Gadget',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec,
  });
  before(async () => {
    hook = await startConversionWebhook();
    s = await startInProcess({ runControllers: true, admissionPlugins: [recorder] });
    await createEstablished(
      s.api.admin,
      webhookCrd({ plural: 'gadgets', kind: 'Gadget', url: hook.url(), caBundle: hook.caBundle }),
    );
    await eventually('v2 served', async () =>
      (await s.api.admin('GET', `/apis/${GROUP}/v2`)).status === 200 ? true : undefined,
    );
  });
  after(async () => {
    await s?.stop();
    await hook?.close();
  });
  afterEach(() => {
    hook.mode = 'convert';
  });

  it('serves every served version, the storage version preferred by priority', async () => {
    const group = (await s.api.admin('GET', `/apis/${GROUP}`)).json();
    assert.deepEqual(
      group.versions.map((v: Json) => v.version),
      ['v2', 'v1'],
    );
  });

  it('creates in v2 through a ConversionReview v1 and reads the object back in both versions', async () => {
    const from = hook.reviews.length;
    const c = await s.api.admin('POST', path('v2'), { body: gadget('v2', 'a', { colour: 'red', size: 1 }) });
    assert.equal(c.status, 201, c.text);
    assert.equal(c.json().apiVersion, `${GROUP}/v2`);
    assert.deepEqual(c.json().spec, { colour: 'red', size: 1 });
    // Controllers (garbage collector, namespaces) read the preferred version too: find ours.
    const sent = hook.reviews
      .slice(from)
      .find(
        (r) =>
          r.review.request.desiredAPIVersion === `${GROUP}/v1` && r.review.request.objects[0]?.metadata.name === 'a',
      );
    assert.ok(sent, 'the create was converted by the webhook');
    assert.equal(sent.review.apiVersion, 'apiextensions.orch.io/v1');
    assert.equal(sent.review.kind, 'ConversionReview');
    assert.equal(sent.review.request.desiredAPIVersion, `${GROUP}/v1`);
    assert.match(sent.review.request.uid, /^[0-9a-f-]{36}$/);
    assert.equal(sent.review.request.objects.length, 1);
    assert.equal(sent.review.request.objects[0].apiVersion, `${GROUP}/v2`);
    assert.match(sent.path, /^\/convert\?timeout=30s$/);
    const v1 = (await s.api.admin('GET', path('v1', 'a'))).json();
    assert.equal(v1.apiVersion, `${GROUP}/v1`);
    assert.deepEqual(v1.spec, { color: 'red', size: 1 }, 'stored in v1');
    const v2 = (await s.api.admin('GET', path('v2', 'a'))).json();
    assert.equal(v2.apiVersion, `${GROUP}/v2`);
    assert.deepEqual(v2.spec, { colour: 'red', size: 1 });
    assert.equal(v2.metadata.uid, v1.metadata.uid);
    assert.equal(v2.metadata.resourceVersion, v1.metadata.resourceVersion);
    // A read from the watch cache converts as well.
    const cached = (await s.api.admin('GET', `${path('v2', 'a')}?resourceVersion=0`)).json();
    assert.deepEqual(cached.spec, { colour: 'red', size: 1 });
  });

  it('creates in v1 (no review: the storage version) and reads it in v2; updates in v2 are stored in v1', async () => {
    const from = hook.reviews.length;
    const c = await s.api.admin('POST', path('v1'), { body: gadget('v1', 'b', { color: 'blue' }) });
    assert.equal(c.status, 201, c.text);
    assert.ok(
      hook.reviews.slice(from).every((r) => r.review.request.desiredAPIVersion !== `${GROUP}/v1`),
      'an object of the storage version is not sent',
    );
    const v2 = (await s.api.admin('GET', path('v2', 'b'))).json();
    assert.deepEqual(v2.spec, { colour: 'blue' });
    v2.spec.colour = 'green';
    const put = await s.api.admin('PUT', path('v2', 'b'), { body: v2 });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.json().spec, { colour: 'green' });
    assert.equal(put.json().metadata.generation, 2);
    const merge = await s.api.admin('PATCH', path('v2', 'b'), {
      body: { spec: { size: 3 } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(merge.status, 200, merge.text);
    assert.deepEqual(merge.json().spec, { colour: 'green', size: 3 });
    assert.deepEqual((await s.api.admin('GET', path('v1', 'b'))).json().spec, { color: 'green', size: 3 });
    // The webhook orders fields its own way (`color` comes back last): an update that changes
    // nothing still writes nothing.
    const c2 = await s.api.admin('POST', path('v1'), { body: gadget('v1', 'c', { color: 'red', size: 2 }) });
    assert.equal(c2.status, 201, c2.text);
    const shown = (await s.api.admin('GET', path('v2', 'c'))).json();
    const same = await s.api.admin('PUT', path('v2', 'c'), { body: shown });
    assert.equal(same.status, 200, same.text);
    assert.equal(same.json().metadata.resourceVersion, c2.json().metadata.resourceVersion);
    assert.equal((await s.api.admin('DELETE', path('v1', 'c'))).status, 200);
  });

  it('admits objects in the request’s version (create, update, delete)', async () => {
    admitted.length = 0;
    const c = await s.api.admin('POST', path('v2'), { body: gadget('v2', 'adm', { colour: 'red' }) });
    assert.equal(c.status, 201, c.text);
    const live = c.json();
    live.spec.colour = 'blue';
    assert.equal((await s.api.admin('PUT', path('v2', 'adm'), { body: live })).status, 200);
    assert.equal((await s.api.admin('DELETE', path('v2', 'adm'))).status, 200);
    assert.deepEqual(
      admitted.map((a) => [a.op, a.version, a.object?.spec, a.oldObject?.apiVersion, a.oldObject?.spec]),
      [
        ['CREATE', 'v2', { colour: 'red' }, undefined, undefined],
        ['UPDATE', 'v2', { colour: 'blue' }, `${GROUP}/v2`, { colour: 'red' }],
        ['DELETE', 'v2', undefined, `${GROUP}/v2`, { colour: 'blue' }],
      ],
    );
  });

  it('lists in both versions, one review per page', async () => {
    for (const v of ['v1', 'v2']) {
      const from = hook.reviews.length;
      const list = (await s.api.admin('GET', path(v))).json();
      assert.equal(list.apiVersion, `${GROUP}/${v}`);
      assert.ok(list.items.length >= 2);
      for (const item of list.items) assert.equal(item.apiVersion, `${GROUP}/${v}`);
      const field = v === 'v1' ? 'color' : 'colour';
      assert.ok(
        list.items.every((i: Json) => field in i.spec),
        JSON.stringify(list.items),
      );
      // Controllers (garbage collector, namespaces) read the preferred version too: only
      // reviews of the whole page are ours.
      const reviews = hook.reviews
        .slice(from)
        .filter(
          (r) =>
            r.review.request.desiredAPIVersion === `${GROUP}/${v}` &&
            r.review.request.objects.length === list.items.length,
        );
      assert.equal(reviews.length, v === 'v1' ? 0 : 1, 'the page is converted in one review');
    }
    const paged = (await s.api.admin('GET', `${path('v2')}?limit=1`)).json();
    assert.equal(paged.items.length, 1);
    assert.equal(paged.items[0].apiVersion, `${GROUP}/v2`);
    const next = (await s.api.admin('GET', `${path('v2')}?limit=1&continue=${paged.metadata.continue}`)).json();
    assert.equal(next.items[0].apiVersion, `${GROUP}/v2`);
  });

  it('watches in both versions: initial objects and changes converted', async () => {
    for (const v of ['v1', 'v2']) {
      const w = await openWatch(s.url, `${path(v)}?watch=true`, s.admin);
      try {
        const initial = await w.waitFor(2);
        for (const ev of initial) {
          assert.equal(ev.type, 'ADDED');
          assert.equal(ev.object.apiVersion, `${GROUP}/${v}`);
        }
        const name = `w-${v}`;
        const c = await s.api.admin('POST', path('v2'), { body: gadget('v2', name, { colour: 'teal' }) });
        assert.equal(c.status, 201, c.text);
        const events = await eventually('the new object', async () => {
          const found = w.events.find((ev) => ev.object.metadata?.name === name);
          return found;
        });
        assert.equal(events.type, 'ADDED');
        assert.equal(events.object.apiVersion, `${GROUP}/${v}`);
        assert.equal(events.object.spec[v === 'v1' ? 'color' : 'colour'], 'teal');
      } finally {
        w.close();
      }
    }
  });

  it('selects with the fields of the requested version, in lists and watches', async () => {
    const names = async (v: string, selector: string) => {
      const r = await s.api.admin('GET', `${path(v)}?fieldSelector=${encodeURIComponent(selector)}`);
      assert.equal(r.status, 200, r.text);
      return r.json().items.map((i: Json) => i.metadata.name);
    };
    assert.deepEqual(await names('v2', 'spec.colour=red'), ['a']);
    assert.deepEqual(await names('v1', 'spec.color=red'), ['a']);
    assert.deepEqual(await names('v2', 'spec.colour=red,metadata.name!=a'), []);
    const w = await openWatch(s.url, `${path('v2')}?watch=true&fieldSelector=spec.colour%3Dpurple`, s.admin);
    try {
      const c = await s.api.admin('POST', path('v1'), { body: gadget('v1', 'p', { color: 'purple' }) });
      assert.equal(c.status, 201, c.text);
      const [ev] = await w.waitFor(1);
      assert.equal(ev?.type, 'ADDED');
      assert.equal(ev?.object.metadata.name, 'p');
      assert.equal(ev?.object.spec.colour, 'purple');
      const patched = await s.api.admin('PATCH', path('v2', 'p'), {
        body: { spec: { colour: 'grey' } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      assert.equal(patched.status, 200, patched.text);
      const events = await w.waitFor(2);
      assert.equal(events[1]?.type, 'DELETED', 'an object that stops matching leaves the watch');
      assert.equal(events[1]?.object.spec.colour, 'grey');
    } finally {
      w.close();
    }
    assert.equal((await s.api.admin('DELETE', path('v2', 'p'))).status, 200);
  });

  it('applies in v2 (create and change), storing v1', async () => {
    const apply = (colour: string) =>
      s.api.admin('PATCH', `${path('v2', 'applied')}?fieldManager=tester`, {
        body: toYaml(gadget('v2', 'applied', { colour })),
        headers: APPLY,
      });
    const first = await apply('red');
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(first.json().spec, { colour: 'red' });
    const second = await apply('blue');
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.json().spec, { colour: 'blue' });
    assert.ok(
      second.json().metadata.managedFields.some((m: Json) => m.manager === 'tester' && m.apiVersion === `${GROUP}/v2`),
    );
    assert.deepEqual((await s.api.admin('GET', path('v1', 'applied'))).json().spec, { color: 'blue' });
  });

  it('keeps labels and annotations the webhook sets, and puts the rest of metadata back', async () => {
    hook.mode = 'label';
    // A write answers what was written, shown in the request's version again (as kube decodes it).
    const c = await s.api.admin('POST', path('v2'), { body: gadget('v2', 'labelled', { colour: 'red' }) });
    assert.equal(c.status, 201, c.text);
    assert.equal(c.json().metadata.labels.converted, 'yes');
    hook.mode = 'convert';
    assert.equal((await s.api.admin('GET', path('v1', 'labelled'))).json().metadata.labels.converted, 'yes');
    assert.equal((await s.api.admin('DELETE', path('v1', 'labelled'))).status, 200);
    hook.mode = 'label';
    const g = (await s.api.admin('GET', path('v2', 'a'))).json();
    assert.equal(g.metadata.labels.converted, 'yes');
    hook.mode = 'meddle';
    const m = (await s.api.admin('GET', path('v2', 'a'))).json();
    assert.equal(m.metadata.generation, 1);
    assert.equal(m.metadata.finalizers, undefined);
  });

  it('refuses a converted object with another name, with kube’s message', async () => {
    hook.mode = 'rename';
    const r = await s.api.admin('GET', path('v2', 'a'));
    assert.equal(r.status, 500);
    assert.equal(r.json().reason, undefined);
    assert.equal(
      r.json().message,
      `conversion webhook for ${GROUP}/v1, Kind=Gadget returned invalid object: must have the same name: a != a-renamed`,
    );
  });

  it('fails a whole list when the webhook returns the wrong number of objects', async () => {
    hook.mode = 'drop-one';
    const r = await s.api.admin('GET', path('v2'));
    assert.equal(r.status, 500);
    const n = (await s.api.admin('GET', path('v1'))).json().items.length;
    assert.equal(
      r.json().message,
      `conversion webhook for ${GROUP}/v1, Kind=GadgetList returned ${n - 1} objects, expected ${n}`,
    );
  });

  it('reports a failed conversion with the webhook’s message and writes nothing', async () => {
    hook.mode = 'fail';
    const g = await s.api.admin('GET', path('v2', 'a'));
    assert.equal(g.status, 500);
    assert.equal(g.json().message, `conversion webhook for ${GROUP}/v1, Kind=Gadget failed: colour wheel broken`);
    const c = await s.api.admin('POST', path('v2'), { body: gadget('v2', 'never', { colour: 'red' }) });
    assert.equal(c.status, 500);
    assert.equal(c.json().message, `conversion webhook for ${GROUP}/v2, Kind=Gadget failed: colour wheel broken`);
    const dry = await s.api.admin('POST', `${path('v2')}?dryRun=All`, {
      body: gadget('v2', 'never', { colour: 'red' }),
    });
    assert.equal(dry.status, 500, 'a dry run converts too');
    hook.mode = 'convert';
    assert.equal((await s.api.admin('GET', path('v1', 'never'))).status, 404, 'nothing was written');
  });

  it('ends a watch with an ERROR event when an object cannot be converted', async () => {
    const w = await openWatch(s.url, `${path('v2')}?watch=true&resourceVersion=0`, s.admin);
    try {
      await w.waitFor(1);
      hook.mode = 'fail';
      const c = await s.api.admin('POST', path('v1'), { body: gadget('v1', 'unwatchable', { color: 'red' }) });
      assert.equal(c.status, 201, c.text);
      await w.ended;
      const last = w.events[w.events.length - 1];
      assert.equal(last?.type, 'ERROR');
      assert.equal(last?.object.kind, 'Status');
      assert.equal(last?.object.code, 500);
      assert.equal(last?.object.message, `conversion webhook for ${GROUP}/v1, Kind=Gadget failed: colour wheel broken`);
    } finally {
      w.close();
    }
  });

  describe('an unreachable or untrusted webhook', () => {
    it('answers 500 with kube’s text when the webhook is down', async () => {
      const port = await closedPort();
      const url = `https://127.0.0.1:${port}/convert`;
      await createEstablished(s.api.admin, webhookCrd({ plural: 'downs', kind: 'Down', url, caBundle: hook.caBundle }));
      const base = `/apis/${GROUP}/v1/namespaces/default/downs`;
      const c = await s.api.admin('POST', base, {
        body: { apiVersion: `${GROUP}/v1`, kind: 'Down', metadata: { name: 'd' }, spec: { color: 'red' } },
      });
      assert.equal(c.status, 201, 'the storage version needs no conversion');
      const g = await eventually('v2 served', async () => {
        const r = await s.api.admin('GET', `/apis/${GROUP}/v2/namespaces/default/downs/d`);
        return r.status === 404 ? undefined : r;
      });
      assert.equal(g.status, 500);
      assert.equal(
        g.json().message,
        `conversion webhook for ${GROUP}/v1, Kind=Down failed: Post "${url}?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
      );
    });

    it('refuses a webhook whose certificate the caBundle does not verify', async () => {
      const other = await createCertificateAuthority({ commonName: 'someone-else' });
      await createEstablished(
        s.api.admin,
        webhookCrd({
          plural: 'strangers',
          kind: 'Stranger',
          url: hook.url(),
          caBundle: Buffer.from(other.cert).toString('base64'),
        }),
      );
      const c = await s.api.admin('POST', `/apis/${GROUP}/v1/namespaces/default/strangers`, {
        body: { apiVersion: `${GROUP}/v1`, kind: 'Stranger', metadata: { name: 'x' }, spec: { color: 'red' } },
      });
      assert.equal(c.status, 201);
      const g = await eventually('v2 served', async () => {
        const r = await s.api.admin('GET', `/apis/${GROUP}/v2/namespaces/default/strangers/x`);
        return r.status === 404 ? undefined : r;
      });
      assert.equal(g.status, 500);
      assert.equal(
        g.json().message,
        `conversion webhook for ${GROUP}/v1, Kind=Stranger failed: Post "${hook.url()}?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
      );
    });
  });
});

describe('kubectl with a webhook-converted custom resource under --api-domain=k8s.io', () => {
  let server: ServerProcess;
  let hook: ConversionWebhook;
  const ok = async (args: string[], input?: string) => {
    const r = await kubectl(server.kubeconfig, args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  };
  before(async () => {
    hook = await startConversionWebhook();
    server = await startServerProcess({ args: ['--api-domain=k8s.io'] });
  });
  after(async () => {
    await server?.dispose();
    await hook?.close();
  });

  it('applies in v2 and gets the object in both versions', async () => {
    const crd = webhookCrd({
      plural: 'gadgets',
      kind: 'Gadget',
      url: hook.url(),
      caBundle: hook.caBundle,
      domain: 'k8s.io',
    });
    await ok(['apply', '-f', '-'], toYaml(crd));
    await ok(['wait', '--for=condition=Established', `crd/gadgets.${GROUP}`, '--timeout=20s']);
    const obj = {
      apiVersion: `${GROUP}/v2`,
      kind: 'Gadget',
      metadata: { name: 'k', namespace: 'default' },
      spec: { colour: 'red' },
    };
    await eventually(
      'v2 applied',
      async () => ((await kubectl(server.kubeconfig, ['apply', '-f', '-'], toYaml(obj))).code === 0 ? true : undefined),
      20000,
    );
    assert.equal(
      await ok(['get', `gadgets.v2.${GROUP}`, 'k', '-n', 'default', '-o', 'jsonpath={.apiVersion} {.spec.colour}']),
      `${GROUP}/v2 red`,
    );
    assert.equal(
      await ok(['get', `gadgets.v1.${GROUP}`, 'k', '-n', 'default', '-o', 'jsonpath={.apiVersion} {.spec.color}']),
      `${GROUP}/v1 red`,
    );
    assert.ok(hook.reviews.length > 0);
    assert.ok(hook.reviews.every((r) => r.review.apiVersion === 'apiextensions.k8s.io/v1'));
  });
});
