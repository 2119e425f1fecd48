import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QuantityError } from '../../util/go-quantity.js';
import { seededRandom } from '../../util/testing/seeded-random.js';
import { deploymentSchema } from '../apps/apps-v1-schemas.js';
import { configMapSchema, podSchema, serviceSchema } from '../core/core-v1-schemas.js';
import { applyDefaults } from './defaults.js';
import { goDecodeError } from './go-type-decode.js';
import { pruneUnknownFields } from './prune.js';
import { canonicalizeQuantitiesIn } from './quantities.js';
import type { Schema } from './schema.js';
import { walkTypedBody } from './typed-body-walk.js';

/** Every key of every object in a parsed JSON value. */
function keyCount(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + keyCount(v), 0);
  return Object.values(value).reduce((n: number, v) => n + 1 + keyCount(v), 0);
}

const container = (name: string, port: number) => ({
  name,
  image: 'registry.example/app:1',
  ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }],
  env: [{ name: 'MODE', value: 'production' }],
  resources: { requests: { cpu: '100m' }, limits: { memory: '256Mi' } },
  readinessProbe: { httpGet: { path: '/healthz', port }, periodSeconds: 10 },
  volumeMounts: [{ name: 'data', mountPath: `/var/lib/${name}` }],
});

const BODIES: readonly (readonly [Schema, Record<string, unknown>])[] = [
  [
    podSchema,
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { generateName: 'web-', labels: { app: 'web' }, annotations: { a: 'b' } },
      spec: {
        containers: [container('app', 8080), container('sidecar', 9090)],
        volumes: [{ name: 'data', emptyDir: {} }],
        nodeSelector: { disk: 'ssd' },
        tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      },
    },
  ],
  [configMapSchema, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } }],
  [
    serviceSchema,
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 'http' }] } },
  ],
  [
    deploymentSchema,
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [container('c', 80)] } },
      },
    },
  ],
];

/** Values put in random places: other kinds, integers beyond int32 and 2^53, nesting, nulls. */
const ODD_VALUES: readonly unknown[] = [
  1,
  'x',
  true,
  null,
  [],
  {},
  { a: 1 },
  [1, { b: [2, { c: 3 }] }],
  2147483648,
  -2147483649,
  9007199254740992,
  1e20,
  1.5,
  '100m',
];

/** `value` with fields dropped, values replaced and unknown fields added at random. */
function mutated(value: unknown, rnd: () => number, rate: number): unknown {
  const odd = () => structuredClone(ODD_VALUES[Math.floor(rnd() * ODD_VALUES.length)]);
  if (value === null || typeof value !== 'object') return rnd() < rate ? odd() : value;
  if (Array.isArray(value)) return value.map((v) => mutated(v, rnd, rate));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (rnd() < rate / 2) continue;
    out[k] = rnd() < rate / 2 ? odd() : mutated(v, rnd, rate);
  }
  if (rnd() < rate * 2) out[rnd() < 0.5 ? 'unknownField' : 'zz'] = odd();
  return out;
}

describe('walkTypedBody', () => {
  it('finds what the separate walks find, for every body it decides, and decides the usual ones', () => {
    const rnd = seededRandom(20261127);
    let decided = 0;
    let pruned = 0;
    for (let i = 0; i < 4000; i++) {
      const [schema, body] = BODIES[i % BODIES.length]!;
      const text = JSON.stringify(mutated(body, rnd, i % 3 === 0 ? 0 : 0.04));
      const walked = JSON.parse(text) as Record<string, unknown>;
      const separate = JSON.parse(text) as Record<string, unknown>;
      const keys = keyCount(separate);
      const decodeError = goDecodeError(schema, separate);
      const removed = pruneUnknownFields(schema, separate);
      const result = walkTypedBody(schema, walked);
      if (result === undefined) {
        // Undecided: the caller parses again; only a body the separate walks treat specially is.
        const special = decodeError !== undefined || /\d{16}|e\+/.test(text);
        assert.ok(special || i % 3 !== 0, `a usual body was left undecided: ${text}`);
        continue;
      }
      decided++;
      if (removed.length > 0) pruned++;
      assert.equal(decodeError, undefined, `a body Go rejects was decided: ${text}`);
      assert.equal(result.keys, keys, text);
      assert.deepEqual(result.removed, removed, text);
      assert.deepEqual(walked, separate, text);
    }
    assert.ok(decided > 1500, `${decided} bodies decided`);
    assert.ok(pruned > 100, `${pruned} decided bodies had unknown fields`);
  });

  it('with defaults, gives what the walk and then applyDefaults give, key order included', () => {
    const rnd = seededRandom(20261128);
    let decided = 0;
    let changed = 0;
    for (let i = 0; i < 4000; i++) {
      const [schema, body] = BODIES[i % BODIES.length]!;
      const text = JSON.stringify(mutated(body, rnd, i % 3 === 0 ? 0 : 0.06));
      const fused = JSON.parse(text) as Record<string, unknown>;
      const apart = JSON.parse(text) as Record<string, unknown>;
      const result = walkTypedBody(schema, fused, { defaults: true });
      const plain = walkTypedBody(schema, apart);
      assert.equal(result === undefined, plain === undefined, text);
      if (result === undefined || plain === undefined) continue;
      decided++;
      applyDefaults(schema, apart);
      assert.equal(result.defaulted, true);
      assert.equal(result.keys, plain.keys, text);
      assert.deepEqual(result.removed, plain.removed, text);
      assert.equal(JSON.stringify(fused), JSON.stringify(apart), text);
      if (JSON.stringify(apart) !== text) changed++;
    }
    assert.ok(decided > 1500, `${decided} bodies decided`);
    assert.ok(changed > 1000, `${changed} bodies defaulted`);
  });

  it('with defaults and quantities, gives what applyDefaults and then the quantity walk give', () => {
    const rnd = seededRandom(20261129);
    let decided = 0;
    let malformed = 0;
    for (let i = 0; i < 4000; i++) {
      const [schema, body] = BODIES[i % BODIES.length]!;
      const text = JSON.stringify(mutated(body, rnd, i % 3 === 0 ? 0 : 0.06));
      const fused = JSON.parse(text) as Record<string, unknown>;
      const apart = JSON.parse(text) as Record<string, unknown>;
      const result = walkTypedBody(schema, fused, { defaults: true, quantities: true });
      const plain = walkTypedBody(schema, apart);
      if (plain === undefined) {
        assert.equal(result, undefined, text);
        continue;
      }
      applyDefaults(schema, apart);
      try {
        canonicalizeQuantitiesIn(schema, apart);
      } catch (e) {
        assert.ok(e instanceof QuantityError);
        // A malformed quantity is left to the separate walks, which report it.
        assert.equal(result, undefined, text);
        malformed++;
        continue;
      }
      assert.ok(result, text);
      decided++;
      assert.equal(result.quantities, true);
      assert.equal(result.keys, plain.keys, text);
      assert.equal(JSON.stringify(fused), JSON.stringify(apart), text);
    }
    assert.ok(decided > 1500, `${decided} bodies decided`);
    assert.ok(malformed > 0, `${malformed} bodies with a malformed quantity`);
  });

  it('with quantities, writes them canonical in structs, maps and lists, and leaves a malformed one undecided', () => {
    const pod = (requests: unknown) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'i', resources: { requests } }], overhead: { cpu: 0.5 } },
    });
    const ok = pod({ cpu: '1000m', memory: '1024Mi' }) as { spec: Record<string, unknown> };
    assert.ok(walkTypedBody(podSchema, ok, { defaults: true, quantities: true }));
    assert.deepEqual(ok.spec.overhead, { cpu: '500m' });
    assert.deepEqual((ok.spec.containers as { resources: unknown }[])[0]!.resources, {
      requests: { cpu: '1', memory: '1Gi' },
    });
    assert.equal(walkTypedBody(podSchema, pod({ cpu: 'lots' }), { defaults: true, quantities: true }), undefined);
    // Without defaults, quantities are not asked for.
    const plain = pod({ cpu: '1000m' }) as { spec: Record<string, unknown> };
    assert.ok(walkTypedBody(podSchema, plain, { quantities: true }));
    assert.deepEqual(plain.spec.overhead, { cpu: 0.5 });
  });

  it('with defaults, defaults or removes null members and map values as applyDefaults does', () => {
    const body = () => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', labels: { a: null, b: 'x' }, annotations: null },
      spec: {
        containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, protocol: null }], env: null }],
        restartPolicy: null,
        nodeSelector: { disk: null },
      },
    });
    const fused = body() as Record<string, unknown>;
    const apart = body() as Record<string, unknown>;
    assert.ok(walkTypedBody(podSchema, fused, { defaults: true }));
    walkTypedBody(podSchema, apart);
    applyDefaults(podSchema, apart);
    assert.equal(JSON.stringify(fused), JSON.stringify(apart));
    const meta = fused.metadata as Record<string, unknown>;
    // A label's null becomes the schema's default ""; a null without a default is removed.
    assert.deepEqual(meta.labels, { a: '', b: 'x' });
    assert.equal('annotations' in meta, false);
  });

  it('leaves bodies with large numbers, other kinds and deep nesting undecided', () => {
    const pod = (spec: unknown) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec });
    assert.equal(walkTypedBody(podSchema, pod('not an object')), undefined);
    assert.equal(walkTypedBody(podSchema, pod({ activeDeadlineSeconds: 1e15 })), undefined);
    assert.equal(walkTypedBody(podSchema, pod({ priority: 2147483648 })), undefined);
    let deep: unknown = [];
    for (let i = 0; i < 9000; i++) deep = [deep];
    // An unknown field nested deep is counted without recursion, and removed.
    const body = pod({ containers: [], x: deep });
    assert.deepEqual(walkTypedBody(podSchema, body), {
      keys: 7,
      removed: ['spec.x'],
      defaulted: false,
      quantities: false,
    });
    assert.deepEqual(body.spec, { containers: [] });
  });
});
