import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import { configMapSchema } from '../../src/apis/core/core-v1-schemas.js';
import { StatusError } from '../../src/apis/meta/status.js';
import type { ApiResource, ClientWatchEvent } from '../../src/client/api/api-client.js';
import { HttpResourceClient } from '../../src/client/api/http-resource-client.js';
import { WatchDecodeError } from '../../src/client/api/json-watch.js';
import { RestClient } from '../../src/client/rest/rest-client.js';
import { resolveContentTypes } from '../../src/client/wire/content-types.js';
import { ResponseDecodeError, WireCodecs } from '../../src/client/wire/wire-codecs.js';
import { encodeCborWatchEvent } from '../../src/encoding/index.js';
import { encodeObject, encodeStatus, encodeWatchFrame } from '../../src/encoding/protobuf/index.js';
import { createCertificateAuthority, issueServingCertificate } from '../../src/server/tls/certificate-factory.js';

const PB = 'application/vnd.kubernetes.protobuf';
const CONFIGMAPS: ApiResource = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
  verbs: ['get', 'list', 'watch'],
  subresources: [],
};
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, resourceVersion: '7' } });
const gone = {
  kind: 'Status' as const,
  apiVersion: 'v1' as const,
  metadata: {},
  status: 'Failure' as const,
  message: 'too old resource version: 1 (9)',
  reason: 'Expired' as const,
  code: 410,
};

/**
 * A loopback HTTPS server answering every request with what the test sets: bodies the real
 * server would never send (a Protobuf content type over a JSON body, cut-off streams).
 */
describe('the client reads what a fake server sends', () => {
  let server: Server;
  let url: string;
  let ca: string;
  let answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const signal = new AbortController().signal;

  before(async () => {
    const authority = await createCertificateAuthority();
    const serving = await issueServingCertificate({ ca: authority, hostNames: ['127.0.0.1'] });
    ca = authority.cert;
    server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      req.resume();
      req.on('end', () => answer(req, res));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  function client(contentType = PB): { rest: RestClient; configmaps: HttpResourceClient } {
    const codecs = new WireCodecs(ORCH_DOMAIN);
    const rest = new RestClient({ server: url, ca }, { codec: codecs });
    const types = resolveContentTypes({ contentType }, ORCH_DOMAIN.protobufMediaType).withProtobuf;
    return { rest, configmaps: new HttpResourceClient(CONFIGMAPS, rest, 'tester', { codecs, types }) };
  }

  const send = (status: number, contentType: string, body: Uint8Array | string) => {
    answer = (_req, res) => {
      res.writeHead(status, { 'content-type': contentType });
      res.end(body);
    };
  };

  async function rejection(p: Promise<unknown>): Promise<Error> {
    try {
      await p;
    } catch (e) {
      assert.ok(e instanceof Error);
      return e;
    }
    assert.fail('expected a rejection');
  }

  it('rejects a Protobuf response without the k8s\\0 prefix, naming the request', async () => {
    const { rest, configmaps } = client();
    try {
      const cases: [string, Uint8Array | string, RegExp][] = [
        ['a JSON body', JSON.stringify(cm('a')), /first bytes 7b 22 61 70 69 56 65 72/],
        ['a shifted prefix', Buffer.from([0x00, 0x6b, 0x38, 0x73, 0x00, 0x0a]), /first bytes 00 6b 38 73 00 0a/],
        ['an empty body', '', /empty body/],
      ];
      for (const [what, body, detail] of cases) {
        send(200, PB, body);
        const e = await rejection(configmaps.get('ns', 'a', signal));
        assert.ok(!(e instanceof StatusError), what);
        assert.match(
          e.message,
          /^GET \/api\/v1\/namespaces\/ns\/configmaps\/a: the response is not Protobuf: it does not start with the prefix k8s\\x00/,
          what,
        );
        assert.match(e.message, detail, what);
        assert.ok(e.cause instanceof ResponseDecodeError, what);
      }
      // A well-formed document of the same kind is read.
      send(200, PB, encodeObject(configMapSchema, { ...cm('a'), data: { k: 'v' } }));
      assert.deepEqual((await configmaps.get('ns', 'a', signal)).data, { k: 'v' });
    } finally {
      rest.close();
    }
  });

  it('reads a Protobuf Status of a failed request, and survives one with a wrong prefix', async () => {
    const { rest, configmaps } = client();
    try {
      send(404, PB, encodeStatus({ ...gone, code: 404, reason: 'NotFound', message: 'configmaps "a" not found' }));
      const e = await rejection(configmaps.get('ns', 'a', signal));
      assert.ok(e instanceof StatusError);
      assert.deepEqual([e.code, e.reason, e.message], [404, 'NotFound', 'configmaps "a" not found']);

      send(500, PB, '{"kind":"Status"}');
      const bad = await rejection(configmaps.get('ns', 'a', signal));
      assert.ok(bad instanceof StatusError);
      assert.deepEqual([bad.code, bad.message], [500, 'the server responded with status 500']);

      send(503, 'text/plain', 'overloaded\n');
      const text = await rejection(configmaps.get('ns', 'a', signal));
      assert.ok(text instanceof StatusError);
      assert.deepEqual([text.code, text.message], [503, 'overloaded']);
    } finally {
      rest.close();
    }
  });

  /** Serves `stream` as a watch response in `chunkSize`-byte writes. */
  function streamWatch(contentType: string, stream: Uint8Array, chunkSize: number): void {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': contentType });
      for (let i = 0; i < stream.length; i += chunkSize) res.write(stream.subarray(i, i + chunkSize));
      res.end();
    };
  }

  async function events(configmaps: HttpResourceClient): Promise<ClientWatchEvent[]> {
    const w = await configmaps.watch('ns', {}, signal);
    const out: ClientWatchEvent[] = [];
    for await (const ev of w) out.push(ev);
    return out;
  }

  const protobufStream = Buffer.concat([
    encodeWatchFrame({ type: 'ADDED', object: encodeObject(configMapSchema, cm('a')) }),
    encodeWatchFrame({ type: 'ERROR', object: encodeStatus(gone) }),
  ]);
  const cborStream = Buffer.concat([encodeCborWatchEvent('ADDED', cm('a')), encodeCborWatchEvent('ERROR', gone)]);
  const jsonStream = `${JSON.stringify({ type: 'ADDED', object: cm('a') })}\n${JSON.stringify({ type: 'ERROR', object: gone })}`;

  const streams: [string, string, Uint8Array][] = [
    ['Protobuf frames', `${PB};stream=watch`, protobufStream],
    ['a CBOR sequence', 'application/cbor-seq', cborStream],
    ['JSON lines (the last without newline)', 'application/json', Buffer.from(jsonStream)],
  ];
  for (const [what, contentType, stream] of streams) {
    for (const chunkSize of [1, 5, stream.length]) {
      it(`reads watch events and an ERROR Status from ${what} in ${chunkSize}-byte chunks`, async () => {
        const { rest, configmaps } = client();
        try {
          streamWatch(contentType, stream, chunkSize);
          const got = await events(configmaps);
          assert.deepEqual(
            got.map((e) => [e.type, e.object.kind, e.object.metadata?.name ?? (e.object as { code?: number }).code]),
            [
              ['ADDED', 'ConfigMap', 'a'],
              ['ERROR', 'Status', 410],
            ],
          );
          assert.equal((got[1].object as unknown as { message: string }).message, gone.message);
        } finally {
          rest.close();
        }
      });
    }
  }

  it('ends a watch with an error for undecodable frames and cut-off streams', async () => {
    const { rest, configmaps } = client();
    try {
      const cases: [string, string, Uint8Array][] = [
        [
          'a Protobuf object without prefix',
          `${PB};stream=watch`,
          encodeWatchFrame({ type: 'ADDED', object: Buffer.from(JSON.stringify(cm('a'))) }),
        ],
        ['a Protobuf frame cut off', `${PB};stream=watch`, protobufStream.subarray(0, protobufStream.length - 3)],
        ['a CBOR item cut off', 'application/cbor-seq', cborStream.subarray(0, cborStream.length - 3)],
        ['a CBOR item that is no event', 'application/cbor-seq', encodeCborWatchEvent('RENAMED', cm('a'))],
        ['a content type that is no watch stream', 'application/yaml', Buffer.from('type: ADDED\n')],
      ];
      for (const [what, contentType, stream] of cases) {
        streamWatch(contentType, stream, 4);
        const e = await rejection(events(configmaps));
        assert.ok(e instanceof WatchDecodeError, `${what}: ${e}`);
        assert.match(e.message, /^watch stream: /, what);
      }
    } finally {
      rest.close();
    }
  });
});
