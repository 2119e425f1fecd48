import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../apis/apiextensions/crd-types.js';
import { StatusError } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import { webhookConverter } from './webhook-converter.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/** A loopback (plain HTTP) webhook answering through the current test's function. */
let answer: (review: Json) => Json = () => ({});
const received: Json[] = [];
let server: Server;
let url = '';

function crd(conversion: object): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'things.example.com' },
    spec: { group: 'example.com', names: { plural: 'things', kind: 'Thing' }, conversion },
  } as CustomResourceDefinition;
}

const thing = (name: string, extra: object = {}): ApiObject =>
  ({
    apiVersion: 'example.com/v1',
    kind: 'Thing',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '7', labels: { a: 'b' } },
    spec: { x: 1 },
    ...extra,
  }) as ApiObject;

/** A well-formed answer converting every object to the desired version. */
const success = (review: Json, edit: (o: Json) => Json = (o) => o) => ({
  apiVersion: review.apiVersion,
  kind: 'ConversionReview',
  response: {
    uid: review.request.uid,
    result: { status: 'Success' },
    convertedObjects: review.request.objects.map((o: Json) =>
      edit({ ...o, apiVersion: review.request.desiredAPIVersion }),
    ),
  },
});

async function convert(objects: ApiObject[], o: { versions?: string[]; list?: boolean } = {}): Promise<ApiObject[]> {
  const c = webhookConverter({
    crd: crd({
      strategy: 'Webhook',
      webhook: { conversionReviewVersions: o.versions ?? ['v1'], clientConfig: { url } },
    }),
    reviewGroup: 'apiextensions.orch.io',
  });
  try {
    return await c.convert(objects, 'example.com/v2', new AbortController().signal, { list: o.list });
  } finally {
    c.close();
  }
}

async function failure(objects: ApiObject[], o: { versions?: string[]; list?: boolean } = {}): Promise<string> {
  try {
    await convert(objects, o);
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 500);
    assert.equal(e.reason, '');
    return e.message;
  }
  return assert.fail('conversion succeeded');
}

describe('webhook converter', () => {
  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString());
        received.push(review);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer(review)));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/convert`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('sends the objects not yet in the desired version, keeps their order and restores metadata', async () => {
    answer = (review) =>
      success(review, (o) => ({ ...o, metadata: { ...o.metadata, generation: 5, labels: { c: 'd' } } }));
    const already = { ...thing('b'), apiVersion: 'example.com/v2' } as ApiObject;
    const out = await convert([thing('a'), already, thing('c')], { list: true });
    const review = received.at(-1);
    assert.equal(review.apiVersion, 'apiextensions.orch.io/v1');
    assert.equal(review.request.desiredAPIVersion, 'example.com/v2');
    assert.deepEqual(
      review.request.objects.map((o: Json) => o.metadata.name),
      ['a', 'c'],
    );
    assert.deepEqual(
      out.map((o) => [
        o.metadata.name,
        o.apiVersion,
        o.metadata.generation,
        o.metadata.labels,
        o.metadata.resourceVersion,
      ]),
      [
        ['a', 'example.com/v2', undefined, { c: 'd' }, '7'],
        ['b', 'example.com/v2', undefined, { a: 'b' }, '7'],
        ['c', 'example.com/v2', undefined, { c: 'd' }, '7'],
      ],
    );
    assert.equal(out[1], already, 'an object already converted is returned as it is');
  });

  it('sends nothing when every object is in the desired version', async () => {
    const n = received.length;
    const v2 = { ...thing('a'), apiVersion: 'example.com/v2' } as ApiObject;
    assert.deepEqual(await convert([v2]), [v2]);
    assert.equal(received.length, n);
  });

  it('speaks v1beta1 when it comes first and v1 is not listed', async () => {
    answer = (review) => ({ ...success(review), response: { ...success(review).response, uid: 'whatever' } });
    const out = await convert([thing('a')], { versions: ['v1beta1', 'v2'] });
    assert.equal(received.at(-1).apiVersion, 'apiextensions.orch.io/v1beta1');
    assert.equal(out[0]?.apiVersion, 'example.com/v2', 'v1beta1 answers are not checked for their uid');
  });

  const single = 'conversion webhook for example.com/v1, Kind=Thing';
  const list = 'conversion webhook for example.com/v1, Kind=ThingList';
  const cases: { name: string; answer: (r: Json) => Json; list?: boolean; versions?: string[]; message: string }[] = [
    {
      name: 'no review version the server speaks',
      answer: success,
      versions: ['v2'],
      message: 'no supported conversion review versions',
    },
    {
      name: 'another kind of answer',
      answer: (r) => ({ ...success(r), kind: 'AdmissionReview' }),
      message: `${single} failed: expected webhook response of apiextensions.orch.io/v1, Kind=ConversionReview, got apiextensions.orch.io/v1, Kind=AdmissionReview`,
    },
    {
      name: 'no response',
      answer: (r) => ({ apiVersion: r.apiVersion, kind: 'ConversionReview' }),
      message: `${single} failed: no response provided`,
    },
    {
      name: 'another uid',
      answer: (r) => ({ ...success(r), response: { ...success(r).response, uid: 'other' } }),
      message: `${single} failed: expected response.uid="UID", got "other"`,
    },
    {
      name: 'failure without a message',
      answer: (r) => ({ ...success(r), response: { uid: r.request.uid, result: { status: 'Failure' } } }),
      message: `${single} failed: response.result.status was 'Failure', not 'Success'`,
    },
    {
      name: 'failure with a message',
      answer: (r) => ({
        ...success(r),
        response: { uid: r.request.uid, result: { status: 'Failure', message: 'nope' } },
      }),
      message: `${single} failed: nope`,
    },
    {
      name: 'too few objects',
      answer: (r) => ({ ...success(r), response: { ...success(r).response, convertedObjects: [] } }),
      list: true,
      message: `${list} returned 0 objects, expected 1`,
    },
    {
      name: 'the wrong version',
      answer: (r) => success(r, (o) => ({ ...o, apiVersion: 'example.com/v3' })),
      message: `${single} returned invalid object at index 0: invalid groupVersion (expected example.com/v2, received example.com/v3)`,
    },
    {
      name: 'another kind in a list',
      answer: (r) => success(r, (o) => ({ ...o, kind: 'Other' })),
      list: true,
      message: `${list} returned invalid converted object at index 0: invalid kind (expected Thing, received Other)`,
    },
    {
      name: 'another namespace',
      answer: (r) => success(r, (o) => ({ ...o, metadata: { ...o.metadata, namespace: 'x' } })),
      message: `${single} returned invalid object: must have the same namespace: ns != x`,
    },
    {
      name: 'another uid in a list',
      answer: (r) => success(r, (o) => ({ ...o, metadata: { ...o.metadata, uid: 'u2' } })),
      list: true,
      message: `${list} returned invalid converted object at index 0: must have the same UID: uid-a != u2`,
    },
    {
      name: 'no metadata',
      answer: (r) => success(r, (o) => ({ ...o, metadata: undefined })),
      message: `${single} returned invalid object: must have the same name: a != `,
    },
    {
      name: 'an invalid label',
      answer: (r) => success(r, (o) => ({ ...o, metadata: { ...o.metadata, labels: { 'bad key!': 'v' } } })),
      message: `${single} returned invalid metadata: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    },
    {
      name: 'a label that is not a string',
      answer: (r) => success(r, (o) => ({ ...o, metadata: { ...o.metadata, labels: { a: 1 } } })),
      list: true,
      message: `${list} returned invalid metadata in object at index 0: metadata.labels[a] must be a string, but is int64 in converted object`,
    },
  ];
  for (const c of cases) {
    it(`refuses ${c.name} with kube's message`, async () => {
      let uid = '';
      answer = (r) => {
        uid = r.request.uid;
        return c.answer(r);
      };
      const message = await failure([thing('a')], { list: c.list, versions: c.versions });
      assert.equal(message, c.message.replace('"UID"', JSON.stringify(uid)));
    });
  }

  it('fails a service reference as a service without endpoints', async () => {
    const c = webhookConverter({
      crd: crd({
        strategy: 'Webhook',
        webhook: {
          conversionReviewVersions: ['v1'],
          clientConfig: { service: { namespace: 'ns', name: 'conv', path: '/convert', port: 8443 } },
        },
      }),
      reviewGroup: 'apiextensions.orch.io',
    });
    await assert.rejects(c.convert([thing('a')], 'example.com/v2', new AbortController().signal), {
      message: `${single} failed: Post "https://conv.ns.svc:8443/convert?timeout=30s": no endpoints available for service "conv"`,
    });
    c.close();
  });

  it('gives up after its timeout with Go client words', async () => {
    const slow = createServer(() => {});
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
    const c = webhookConverter({
      crd: crd({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: target } } }),
      reviewGroup: 'apiextensions.orch.io',
      timeoutMs: 200,
    });
    try {
      await assert.rejects(c.convert([thing('a')], 'example.com/v2', new AbortController().signal), {
        message: `${single} failed: Post "${target}?timeout=200ms": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
      });
    } finally {
      c.close();
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });

  it('reports a webhook answering with an error status', async () => {
    const down = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('busy');
    });
    await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
    const c = webhookConverter({
      crd: crd({
        strategy: 'Webhook',
        webhook: {
          conversionReviewVersions: ['v1'],
          clientConfig: { url: `http://127.0.0.1:${(down.address() as AddressInfo).port}/` },
        },
      }),
      reviewGroup: 'apiextensions.orch.io',
    });
    try {
      await assert.rejects(c.convert([thing('a')], 'example.com/v2', new AbortController().signal), {
        message: `${single} failed: the server is currently unable to handle the request`,
      });
    } finally {
      c.close();
      await new Promise<void>((r) => down.close(() => r()));
    }
  });
});
