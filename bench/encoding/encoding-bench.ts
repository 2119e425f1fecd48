import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinResources } from '../../src/apis/builtin.js';
import {
  decodeCbor,
  decodeJsonStrict,
  decodeYamlStrict,
  encodeCbor,
  encodeJson,
  encodeYaml,
} from '../../src/encoding/index.js';
import { decodeList, decodeObject, encodeList, encodeObject } from '../../src/encoding/protobuf/index.js';
import { startServer } from '../../src/index.js';
import { printFigures } from '../figures.js';
import { printTable, type Row } from '../storage/measure.js';

const event = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: {
    name: 'cm.17a',
    namespace: 'default',
    uid: '5b6c1f7e-1f0a-4d5e-9a57-0d3f1a2b3c4d',
    resourceVersion: '123',
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels: { app: 'web' },
  },
  involvedObject: {
    kind: 'ConfigMap',
    namespace: 'default',
    name: 'cm',
    uid: '8a9b',
    apiVersion: 'v1',
    resourceVersion: '120',
  },
  reason: 'Updated',
  message: 'configuration changed by the deployment controller after a rollout',
  source: { component: 'orch-controller-manager' },
  firstTimestamp: '2026-01-01T00:00:00Z',
  lastTimestamp: '2026-01-01T00:05:00Z',
  count: 3,
  type: 'Normal',
};

function opsPerSec(fn: () => unknown, ms = 400): number {
  for (let i = 0; i < 200; i++) fn();
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    for (let i = 0; i < 50; i++) fn();
    n += 50;
  }
  return n / ((performance.now() - t0) / 1000);
}

function get(url: string, agent: Agent, ca: string, accept: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, ca, headers: { accept } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(String(res.statusCode)))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Encode/decode throughput per media type, beside JSON measured in the same run; then GETs. */
export async function runEncodingBench(): Promise<void> {
  const def = builtinResources().find((d) => d.kind === 'Event')!;
  const list = {
    apiVersion: 'v1',
    kind: 'EventList',
    metadata: { resourceVersion: '9' },
    items: Array.from({ length: 100 }, (_, i) => ({ ...event, metadata: { ...event.metadata, name: `e${i}` } })),
  };
  const rows: Row[] = [];
  const figures: Record<string, number> = {};
  const jsonEnc = opsPerSec(() => encodeJson(event));
  const jsonText = encodeJson(event);
  const jsonDec = opsPerSec(() => decodeJsonStrict(jsonText));
  const listJsonEnc = opsPerSec(() => encodeJson(list), 600);
  const listJsonText = encodeJson(list);
  const listJsonDec = opsPerSec(() => decodeJsonStrict(listJsonText), 600);
  const pb = encodeObject(def.schema, event);
  const pbList = encodeList(def.schema, list);
  const yaml = encodeYaml(event);
  const cbor = encodeCbor(event);
  const cborList = encodeCbor(list);
  const cases: Array<[string, () => unknown, number]> = [
    ['object encode: Protobuf', () => encodeObject(def.schema, event), jsonEnc],
    ['object decode: Protobuf', () => decodeObject(def.schema, pb), jsonDec],
    ['object encode: YAML', () => encodeYaml(event), jsonEnc],
    ['object decode: YAML', () => decodeYamlStrict(yaml), jsonDec],
    ['object encode: CBOR', () => encodeCbor(event), jsonEnc],
    ['object decode: CBOR', () => decodeCbor(cbor), jsonDec],
    ['100-item list encode: Protobuf', () => encodeList(def.schema, list), listJsonEnc],
    ['100-item list decode: Protobuf', () => decodeList(def.schema, pbList), listJsonDec],
    ['100-item list encode: CBOR', () => encodeCbor(list), listJsonEnc],
    ['100-item list decode: CBOR', () => decodeCbor(cborList), listJsonDec],
  ];
  rows.push({ metric: 'object encode: JSON', ours: jsonEnc, baseline: jsonEnc, unit: 'ops/s' });
  rows.push({ metric: 'object decode: JSON (duplicate-aware)', ours: jsonDec, baseline: jsonDec, unit: 'ops/s' });
  for (const [metric, fn, baseline] of cases) {
    const ours = opsPerSec(fn, metric.includes('list') ? 600 : 400);
    rows.push({ metric, ours, baseline, unit: 'ops/s (baseline: JSON)' });
    figures[
      metric
        .replace(/[^a-zA-Z0-9]+/g, '.')
        .replace(/\.$/, '')
        .toLowerCase()
    ] = Math.round(ours);
  }
  const dir = mkdtempSync(join(tmpdir(), 'orch-enc-bench-'));
  const server = await startServer({ dataDir: dir, securePort: 0, featureGates: { CBORServingAndStorage: true } });
  try {
    const agent = new Agent({ keepAlive: true, cert: server.admin!.cert, key: server.admin!.key, maxSockets: 16 });
    const base = `${server.url}/api/v1/namespaces/default/events`;
    await new Promise<void>((resolve, reject) => {
      const req = request(
        base,
        { method: 'POST', agent, ca: server.admin!.ca, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ ...event, metadata: { name: 'bench' } }));
    });
    const rate = async (accept: string) => {
      const n = 2000;
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next++ < n) await get(`${base}/bench?resourceVersion=0`, agent, server.admin!.ca, accept);
        }),
      );
      return n / ((performance.now() - t0) / 1000);
    };
    await rate('application/json'); // warm-up: TLS sessions, JIT, the encoding cache
    const jsonRps = await rate('application/json');
    for (const [name, accept] of [
      ['Protobuf', 'application/vnd.orch.protobuf'],
      ['CBOR', 'application/cbor'],
    ]) {
      const r = await rate(accept);
      rows.push({
        metric: `GET (in-process server, 16 keep-alive conns): ${name}`,
        ours: r,
        baseline: jsonRps,
        unit: 'req/s (baseline: JSON)',
      });
      figures[`get.${name.toLowerCase()}.rps`] = Math.round(r);
    }
    figures['get.json.rps'] = Math.round(jsonRps);
    agent.destroy();
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  printTable('Encodings (Event object, 100-item EventList)', rows);
  printFigures(figures);
}
