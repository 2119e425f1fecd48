import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import {
  acceptsGzip,
  GZIP_RESPONSE_HEADERS,
  GZIP_THRESHOLD_BYTES,
  gzipBody,
  gzipBodyAsync,
  shouldGzip,
} from './compression.js';

describe('acceptsGzip', () => {
  const cases: [string | undefined, boolean][] = [
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['deflate, gzip', true],
    ['br,  gzip  ,deflate', true],
    ['gzip;q=1.0', false],
    ['GZIP', false],
    ['x-gzip', false],
    ['*', false],
  ];
  for (const [header, want] of cases) {
    it(`${JSON.stringify(header)} → ${want}`, () => assert.equal(acceptsGzip(header), want));
  }
});

describe('shouldGzip', () => {
  it('compresses only bodies over 128 KiB', () => {
    assert.equal(shouldGzip('gzip', GZIP_THRESHOLD_BYTES), false);
    assert.equal(shouldGzip('gzip', GZIP_THRESHOLD_BYTES + 1), true);
    assert.equal(shouldGzip('deflate', GZIP_THRESHOLD_BYTES + 1), false);
  });
  it('honours the APIResponseCompression gate', () => {
    assert.equal(shouldGzip('gzip', 10 * GZIP_THRESHOLD_BYTES, false), false);
  });
});

describe('gzip over HTTP', () => {
  it('a real client decodes what the helpers produce', async () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({
      metadata: { name: `cm-${i}` },
      data: { k: 'v'.repeat(40) },
    }));
    const body = Buffer.from(JSON.stringify({ kind: 'ConfigMapList', items }));
    assert.ok(body.length > GZIP_THRESHOLD_BYTES);
    const server = createServer(async (req, res) => {
      const gz = shouldGzip(req.headers['accept-encoding'], body.length);
      const payload = gz ? await gzipBodyAsync(body) : body;
      res.writeHead(200, { 'Content-Type': 'application/json', ...(gz ? GZIP_RESPONSE_HEADERS : {}) });
      res.end(payload);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const fetchRaw = async (acceptEncoding?: string) => {
        const req = get({
          host: '127.0.0.1',
          port,
          path: '/',
          headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {},
        });
        const [res] = (await once(req, 'response')) as [IncomingMessage];
        const chunks: Buffer[] = [];
        for await (const c of res) chunks.push(c as Buffer);
        return { headers: res.headers, raw: Buffer.concat(chunks) };
      };
      const zipped = await fetchRaw('gzip, deflate');
      assert.equal(zipped.headers['content-encoding'], 'gzip');
      assert.equal(zipped.headers.vary, 'Accept-Encoding');
      assert.ok(zipped.raw.length < body.length / 5, `compressed to ${zipped.raw.length}`);
      assert.deepEqual(gunzipSync(zipped.raw), body);
      const plain = await fetchRaw();
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.deepEqual(plain.raw, body);
    } finally {
      server.close();
      await once(server, 'close');
    }
  });

  it('gzips at level 1 synchronously too', () => {
    const body = Buffer.from('x'.repeat(1000));
    const out = gzipBody(body);
    assert.deepEqual(gunzipSync(out), body);
    // The gzip header's XFL byte is 4 for the fastest level.
    assert.equal(out[8], 4);
  });

  it('gives up when aborted', async () => {
    const ctl = new AbortController();
    ctl.abort(new Error('client went away'));
    await assert.rejects(gzipBodyAsync(Buffer.from('x'), ctl.signal), /client went away/);
  });
});
