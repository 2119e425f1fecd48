import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { Agent } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { connect } from 'node:tls';
import { createTestPki, type TestPki } from '../tls/testing/test-pki.js';
import type { HttpExchange } from './exchange.js';
import { h1Request } from './testing/clients.js';
import { clientTls, recordingLogger, withServer } from './testing/server-fixture.js';
import { TurnEndWrites } from './turn-end-writes.js';

let pki: TestPki;
before(async () => {
  pki = await createTestPki();
});
after(() => pki.cleanup());

/** Answers at once with the request's path, as a cached GET does. */
function pathEcho(ex: HttpExchange): void {
  ex.respond(200, { 'content-type': 'text/plain' }, `path ${ex.url}`);
}

describe('HTTP/1.1 responses ended at the end of the turn', () => {
  it('every one of many concurrent requests gets its own whole answer', async () => {
    await withServer(pki.certs, pathEcho, async (server) => {
      const tls = clientTls(pki.certs);
      const agent = new Agent({ keepAlive: true, maxSockets: 16, ca: tls.ca });
      try {
        const answers = await Promise.all(
          Array.from({ length: 200 }, (_, i) => h1Request(server.url, tls, { method: 'GET', path: `/n/${i}` }, agent)),
        );
        answers.forEach((a, i) => {
          assert.equal(a.status, 200);
          assert.equal(a.body.toString(), `path /n/${i}`);
          assert.equal(a.headers['content-length'], String(`path /n/${i}`.length));
        });
      } finally {
        agent.destroy();
      }
    });
  });

  it('pipelined requests on one connection are answered in their order', async () => {
    await withServer(pki.certs, pathEcho, async (server) => {
      const socket = connect({
        host: '127.0.0.1',
        port: server.port,
        ca: clientTls(pki.certs).ca,
        ALPNProtocols: ['http/1.1'],
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('secureConnect', resolve);
        socket.once('error', reject);
      });
      const paths = ['/first', '/second', '/third'];
      socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
      let text = '';
      await new Promise<void>((resolve, reject) => {
        socket.on('data', (d: Buffer) => {
          text += d.toString();
          if (text.includes('path /third')) resolve();
        });
        socket.once('error', reject);
      });
      socket.destroy();
      const order = [...text.matchAll(/path (\/[a-z]+)/g)].map((m) => m[1]);
      assert.deepEqual(order, paths);
    });
  });

  it('a client gone before the end of the turn is skipped; the others are answered', async () => {
    const logger = recordingLogger();
    let gone: HttpExchange | undefined;
    const handler = (ex: HttpExchange): void => {
      if (ex.url === '/gone') {
        gone = ex;
        // Answered, then the connection is cut in the same turn, before the deferred end.
        ex.respond(200, { 'content-type': 'text/plain' }, 'never read');
        (ex.connection as { destroy(): void }).destroy();
        return;
      }
      pathEcho(ex);
    };
    await withServer(
      pki.certs,
      handler,
      async (server) => {
        const tls = clientTls(pki.certs);
        await assert.rejects(h1Request(server.url, tls, { method: 'GET', path: '/gone' }));
        assert.ok(gone?.responded);
        const after = await h1Request(server.url, tls, { method: 'GET', path: '/after' });
        assert.equal(after.body.toString(), 'path /after');
      },
      logger,
    );
    assert.deepEqual(
      logger.entries.filter((e) => e.level === 'error'),
      [],
    );
  });
});

/** What TurnEndWrites touches of a response: its end is recorded in `log` as `name:body`. */
function recordedResponse(name: string, log: string[], fails = false): ServerResponse {
  const res = {
    destroyed: false,
    writableEnded: false,
    end(body?: unknown) {
      if (fails) throw new Error('write failed');
      log.push(`${name}:${String(body)}`);
      res.writableEnded = true;
    },
  };
  return res as unknown as ServerResponse;
}

const noError = (e: unknown): void => assert.fail(String(e));

describe('TurnEndWrites', () => {
  it('ends nothing before the end of the turn, then every response in order', async () => {
    const writes = new TurnEndWrites(noError);
    const ended: string[] = [];
    writes.end(recordedResponse('a', ended), 'x');
    writes.end(recordedResponse('b', ended));
    assert.deepEqual(ended, []);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(ended, ['a:x', 'b:undefined']);
  });

  it('writes what waited longer than its bound when a long turn adds another', async () => {
    const writes = new TurnEndWrites(noError, 2);
    const ended: string[] = [];
    writes.end(recordedResponse('early', ended), 'x');
    const until = performance.now() + 5;
    while (performance.now() < until) {
      // A turn busy with other requests' work.
    }
    writes.end(recordedResponse('late', ended), 'y');
    assert.deepEqual(ended, ['early:x']);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(ended, ['early:x', 'late:y']);
  });

  it('skips a response whose client went away and reports a failing end without stopping', async () => {
    const errors: unknown[] = [];
    const writes = new TurnEndWrites((e) => errors.push(e));
    const ended: string[] = [];
    const gone = recordedResponse('gone', ended);
    (gone as { destroyed: boolean }).destroyed = true;
    writes.end(gone, 'lost');
    writes.end(recordedResponse('failing', ended, true), 'x');
    writes.end(recordedResponse('fine', ended), 'kept');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(ended, ['fine:kept']);
    assert.equal(errors.length, 1);
  });
});
