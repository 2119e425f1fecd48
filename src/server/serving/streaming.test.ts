import assert from 'node:assert/strict';
import { once } from 'node:events';
import { constants } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { createTestPki, type TestPki } from '../tls/testing/test-pki.js';
import type { HttpExchange } from './exchange.js';
import { h2Connect, latch } from './testing/clients.js';
import { clientTls, eventually, withServer } from './testing/server-fixture.js';

let pki: TestPki;
before(async () => {
  pki = await createTestPki();
});
after(() => pki.cleanup());

const CHUNKS = 3;

/** Starts a streamed request; calls `onData` with the accumulated text after each chunk. Returns a canceller. */
type StreamClient = (
  path: string,
  onData: (text: string) => void,
) => Promise<{ cancel(): void; done: Promise<string>; complete: Promise<boolean> }>;

function clients(url: string): Record<'http/1.1' | 'h2', StreamClient> {
  const tls = clientTls(pki.certs);
  return {
    'http/1.1': async (path, onData) => {
      const done = latch<string>();
      const complete = latch<boolean>();
      const req = httpsRequest(`${url}${path}`, { agent: false, ca: tls.ca }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
          onData(text);
        });
        res.on('end', () => done.settle(text));
        res.on('error', () => done.settle(text));
        res.on('close', () => {
          done.settle(text);
          complete.settle(res.complete);
        });
      });
      req.on('error', () => {});
      req.end();
      return { cancel: () => req.destroy(), done: done.promise, complete: complete.promise };
    },
    h2: async (path, onData) => {
      const session = await h2Connect(url, tls);
      const done = latch<string>();
      const complete = latch<boolean>();
      const stream = session.request({ ':path': path });
      let text = '';
      let ended = false;
      stream.setEncoding('utf8');
      stream.on('data', (c: string) => {
        text += c;
        onData(text);
      });
      stream.on('end', () => {
        ended = true;
        done.settle(text);
      });
      stream.on('close', () => {
        done.settle(text);
        complete.settle(ended && stream.rstCode === constants.NGHTTP2_NO_ERROR);
        session.close();
      });
      stream.on('error', () => {});
      stream.end();
      return { cancel: () => stream.close(constants.NGHTTP2_CANCEL), done: done.promise, complete: complete.promise };
    },
  };
}

for (const protocol of ['http/1.1', 'h2'] as const) {
  describe(`streamed responses over ${protocol}`, () => {
    it('delivers each chunk before the next is written', { timeout: 5000 }, async () => {
      const seen = Array.from({ length: CHUNKS }, () => latch());
      const handler = async (ex: HttpExchange): Promise<void> => {
        const out = ex.stream(200, { 'content-type': 'application/json' });
        for (let i = 0; i < CHUNKS; i++) {
          out.write(`{"n":${i}}\n`);
          // The next chunk is written only once the client has seen this one: a buffering transport deadlocks.
          await seen[i].promise;
        }
        out.end();
      };
      await withServer(pki.certs, handler, async (server) => {
        const client = await clients(server.url)[protocol]('/watch', (text) => {
          for (let i = 0; i < CHUNKS; i++) if (text.includes(`{"n":${i}}`)) seen[i].settle();
        });
        assert.equal(await client.done, '{"n":0}\n{"n":1}\n{"n":2}\n');
        assert.equal(await client.complete, true);
      });
    });

    it('ends the response abnormally when the handler fails mid-stream', { timeout: 5000 }, async () => {
      const handler = async (ex: HttpExchange): Promise<void> => {
        ex.stream(200, { 'content-type': 'application/json' }).write('{"n":0}\n');
        await new Promise((r) => setTimeout(r, 20));
        throw new Error('storage went away');
      };
      await withServer(pki.certs, handler, async (server) => {
        const client = await clients(server.url)[protocol]('/watch', () => {});
        assert.equal(await client.done, '{"n":0}\n');
        assert.equal(await client.complete, false, 'a truncated stream must not look like a clean end');
        await eventually(() => server.inFlight === 0);
      });
    });

    it('aborts the exchange signal when the client goes away mid-stream', { timeout: 5000 }, async () => {
      const observed = latch<{ aborted: boolean; closed: boolean }>();
      const handler = async (ex: HttpExchange): Promise<void> => {
        const out = ex.stream(200, { 'content-type': 'text/plain' });
        out.write('first\n');
        const signal = ex.signal;
        if (!signal.aborted) await once(signal, 'abort');
        observed.settle({ aborted: signal.aborted, closed: ex.closed });
        out.write('ignored after close\n');
        out.end();
      };
      await withServer(pki.certs, handler, async (server) => {
        const client = await clients(server.url)[protocol]('/watch', (text) => {
          if (text.includes('first')) client.cancel();
        });
        assert.deepEqual(await observed.promise, { aborted: true, closed: true });
        await eventually(() => server.inFlight === 0);
      });
    });

    it('aborts the signal when the client leaves before any response', { timeout: 5000 }, async () => {
      const started = latch();
      const observed = latch<boolean>();
      const handler = async (ex: HttpExchange): Promise<void> => {
        const signal = ex.signal;
        started.settle();
        await once(signal, 'abort');
        observed.settle(ex.closed);
        ex.respond(200, {}, 'too late');
      };
      await withServer(pki.certs, handler, async (server) => {
        const client = await clients(server.url)[protocol]('/slow', () => {});
        await started.promise;
        client.cancel();
        assert.equal(await observed.promise, true);
        await eventually(() => server.inFlight === 0);
      });
    });

    it('leaves the signal alone when the response completes normally', async () => {
      let signal: AbortSignal | undefined;
      const handler = (ex: HttpExchange): void => {
        signal = ex.signal;
        ex.respond(200, {}, 'done');
      };
      await withServer(pki.certs, handler, async (server) => {
        const client = await clients(server.url)[protocol]('/x', () => {});
        assert.equal(await client.done, 'done');
        await eventually(() => server.inFlight === 0);
        assert.equal(signal?.aborted, false);
      });
    });
  });
}
