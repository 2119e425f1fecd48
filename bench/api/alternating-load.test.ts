import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { selfSignedServingCertificate } from '../../src/controllermanager/serving/self-signed-certificate.js';
import {
  alternatingLoad,
  type Completions,
  neighbourRatios,
  type Phase,
  phaseRates,
  ResponseReader,
  summarize,
} from './alternating-load.js';

const phase = (kind: 0 | 1, start: number, end: number, sampled = 0): Phase => ({ kind, start, end, sampled });

/** Completions at the given times (ms), each with its kind. */
function completions(...at: [kind: 0 | 1, time: number][]): Completions {
  return { kinds: at.map(([k]) => k), times: at.map(([, t]) => t) };
}

describe('phaseRates', () => {
  it("counts a phase's own kind after the last answer of the other kind", () => {
    const done = completions([0, 10], [0, 20], [0, 110], [1, 115], [0, 120], [1, 150], [1, 200], [0, 210]);
    const rates = phaseRates([phase(0, 0, 100), phase(1, 100, 200)], done);
    assert.deepEqual(rates[0], { kind: 0, count: 2, ms: 100, rate: 20 });
    // The ConfigMap answered at 110 and 120 drained the phase before: its steady part is 120–200.
    assert.deepEqual(rates[1], { kind: 1, count: 2, ms: 80, rate: 25 });
  });

  it('gives a phase without a steady answer no rate', () => {
    const rates = phaseRates([phase(1, 0, 100)], completions([0, 50], [0, 99]));
    assert.equal(rates[0]!.count, 0);
    assert.ok(Number.isNaN(rates[0]!.rate));
  });
});

describe('neighbourRatios', () => {
  it("divides each b phase's rate by the mean of the a phases around it", () => {
    const rate = (kind: 0 | 1, r: number) => ({ kind, count: r, ms: 1000, rate: r });
    const ratios = neighbourRatios([rate(0, 100), rate(1, 60), rate(0, 140), rate(1, 90), rate(0, 160)]);
    assert.deepEqual(ratios, [0.5, 0.6]);
  });

  it('leaves out b phases at the ends and those without a rate', () => {
    const rate = (kind: 0 | 1, r: number) => ({ kind, count: 1, ms: 1, rate: r });
    assert.deepEqual(neighbourRatios([rate(1, 5), rate(0, 10), rate(1, Number.NaN), rate(0, 10), rate(1, 5)]), []);
  });
});

describe('summarize', () => {
  it("pools each kind's steady parts and scales the sampled growth to them", () => {
    const phases = [phase(0, 0, 100, 100), phase(1, 100, 200, 100), phase(0, 200, 300, 100)];
    const done = completions([0, 50], [0, 100], [0, 120], [1, 150], [1, 200], [1, 220], [0, 250], [0, 300]);
    const s = summarize(phases, done);
    // a: 2 + 2 answers in 100 + 80 ms; b: 2 answers in 80 ms.
    assert.deepEqual(s.rates, [(4 * 1000) / 180, 25]);
    assert.deepEqual(s.sampledPerRequest, [(100 + 80) / 4, 80 / 2]);
    assert.equal(s.ratios.length, 1);
    assert.equal(s.ratio, 25 / ((20 + 25) / 2));
    assert.equal(s.steadyShare, 260 / 300);
  });
});

describe('ResponseReader', () => {
  const answer = (status: number, body: string) =>
    `HTTP/1.1 ${status} X\r\nContent-Type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;

  it('ends answers by Content-Length, in pieces of any size', () => {
    const bytes = Buffer.from(answer(201, '{"a":1}') + answer(200, '') + answer(409, '{"kind":"Status"}'));
    for (const size of [1, 3, 7, bytes.length]) {
      const reader = new ResponseReader();
      const statuses: number[] = [];
      for (let i = 0; i < bytes.length; i += size) {
        for (const a of reader.push(bytes.subarray(i, i + size))) statuses.push(a.status);
      }
      assert.deepEqual(statuses, [201, 200, 409], `pieces of ${size}`);
    }
  });

  it('ends a chunked answer at its last chunk', () => {
    const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\na\r\n0123456789\r\n0\r\n\r\n';
    const bytes = Buffer.from(chunked + answer(201, '{}'));
    for (const size of [1, 4, bytes.length]) {
      const reader = new ResponseReader();
      const statuses: number[] = [];
      for (let i = 0; i < bytes.length; i += size) {
        for (const a of reader.push(bytes.subarray(i, i + size))) statuses.push(a.status);
      }
      assert.deepEqual(statuses, [200, 201], `pieces of ${size}`);
    }
  });

  it('refuses an answer whose end it cannot find', () => {
    assert.throws(() => new ResponseReader().push(Buffer.from('HTTP/1.1 200 OK\r\n\r\n')), /neither Content-Length/);
  });
});

describe('alternatingLoad', () => {
  let server: Server;
  let url = '';
  let ca = '';
  const seen: string[] = [];

  before(async () => {
    const { cert, key } = await selfSignedServingCertificate();
    ca = cert;
    server = createServer({ cert, key }, (req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/refused') {
          res.writeHead(403, { 'content-type': 'application/json' }).end('{"kind":"Status"}');
          return;
        }
        const body = Buffer.concat(chunks).toString();
        res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
        // The GETs are answered in chunks, the POSTs with a length.
        if (req.method === 'GET') res.write('{"got":');
        res.end(req.method === 'GET' ? `"${req.url}"}` : body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => new Promise<void>((r) => server.close(() => r())));

  it('alternates the two kinds on the same connections and records every answer', async () => {
    let samples = 0;
    const { phases, done } = await alternatingLoad({
      url,
      ca,
      token: 't0ken',
      connections: 4,
      a: { method: 'POST', path: '/a', body: { x: 1 } },
      b: { method: 'GET', path: '/b?rv=0' },
      phaseMs: 30,
      phases: 5,
      warmUpMs: 0,
      sample: () => ++samples,
    });
    assert.deepEqual(
      phases.map((p) => p.kind),
      [0, 1, 0, 1, 0],
    );
    for (const p of phases) assert.equal(p.sampled, 1);
    for (let i = 1; i < phases.length; i++) assert.ok(phases[i]!.start >= phases[i - 1]!.end);
    assert.equal(done.kinds.length, done.times.length);
    assert.ok(done.kinds.includes(0) && done.kinds.includes(1));
    assert.ok(seen.includes('POST /a Bearer t0ken') && seen.includes('GET /b?rv=0 Bearer t0ken'));
    const s = summarize(phases, done);
    assert.ok(s.rates.every((r) => r > 0));
  });

  it('stops at an answer other than 2xx, naming it', async () => {
    await assert.rejects(
      alternatingLoad({
        url,
        ca,
        token: 't',
        connections: 2,
        a: { method: 'GET', path: '/a' },
        b: { method: 'GET', path: '/refused' },
        phaseMs: 20,
        phases: 4,
        warmUpMs: 0,
      }),
      /answer 403 to GET \/refused HTTP\/1.1/,
    );
  });
});
