import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectMetaField } from '../../apis/meta/object-meta-schema.js';
import { apiVersionField, kindField } from '../../apis/meta/type-meta-fields.js';
import type { JsonObject, JsonValue } from '../../apis/object.js';
import type { Schema } from '../../apis/schema/schema.js';
import { seededRandom } from '../../util/testing/seeded-random.js';
import { FieldSet, fieldPathsSet } from '../fieldpath/field-set.js';
import { toFieldsV1 } from '../fieldpath/fields-v1.js';
import {
  fieldElement,
  type KeyField,
  keyElement,
  keyFieldOrder,
  orderedKeyElement,
  type Path,
} from '../fieldpath/path-element.js';
import { compareTyped } from './compare.js';
import { CreatedLevels, createdFields } from './created-fields.js';
import { TypeCompiler, type TypeNode } from './type-node.js';

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };

/** Strings whose Go byte order, JSON escaping or UTF-16 order is easy to get wrong. */
const AWKWARD = ['a', 'B', '', 'a"b', '<x>&', 'line\u2028sep', 'é', '\uffff', '😀', 'back\\slash', 'Z9', 'tab\t'];

const itemSchema: Schema = {
  type: 'object',
  properties: {
    name: str,
    port: int,
    protocol: { type: 'string', default: 'TCP' },
    zValue: str,
    Upper: str,
    nested: { type: 'object', properties: { b: str, a: int, list: { type: 'array', items: str } } },
    labels: { type: 'object', additionalProperties: str },
  },
};

/**
 * Every shape the walk orders or compares: structs with field names in scrambled and mixed-case
 * order, list maps with one and two keys (one defaulted), sets of scalars of every kind, atomic
 * lists, maps and structs, granular maps, a struct with a map part, and unknown fields.
 */
const schema: Schema = {
  type: 'object',
  properties: {
    apiVersion: apiVersionField,
    kind: kindField,
    metadata: objectMetaField(),
    spec: {
      type: 'object',
      properties: {
        zeta: str,
        alpha: int,
        Beta: { type: 'boolean' },
        'a"quoted': str,
        ports: {
          type: 'array',
          items: itemSchema,
          'x-orch-list-type': 'map',
          'x-orch-list-map-keys': ['protocol', 'port'],
        },
        containers: {
          type: 'array',
          items: itemSchema,
          'x-orch-patch-strategy': 'merge',
          'x-orch-patch-merge-key': 'name',
        },
        tags: { type: 'array', items: str, 'x-orch-list-type': 'set' },
        numbers: { type: 'array', items: { type: 'number' }, 'x-orch-list-type': 'set' },
        anything: { type: 'array', items: { 'x-orch-int-or-string': true }, 'x-orch-list-type': 'set' },
        args: { type: 'array', items: str },
        selector: { type: 'object', additionalProperties: str, 'x-orch-map-type': 'atomic' },
        config: { type: 'object', additionalProperties: itemSchema },
        target: { type: 'object', 'x-orch-map-type': 'atomic', properties: { kind: str, name: str } },
        mixed: { type: 'object', properties: { known: str, Other: int }, additionalProperties: str },
        extra: { type: 'object', 'x-orch-preserve-unknown-fields': true },
        free: {},
      },
    },
    status: { type: 'object', properties: { phase: str, ready: int, conditions: { type: 'array', items: str } } },
  },
};

function generator(rnd: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const scalar = (s: Schema): unknown => {
    if (s['x-orch-int-or-string']) return pick([1, 80, 9, 'http', 'a', true, false, 1.5, -0]);
    switch (s.type) {
      case 'integer':
        return pick([0, 9, 80, 443, 8080, -1]);
      case 'number':
        return pick([0, 1.5, 3, -2, 1e21]);
      case 'boolean':
        return rnd() < 0.5;
      default:
        return pick(AWKWARD);
    }
  };
  const value = (s: Schema, depth: number): unknown => {
    if (rnd() < 0.03) return null;
    if (s.type === 'array' || s.items) {
      if (depth > 5 || rnd() < 0.12) return [];
      const n = 1 + Math.floor(rnd() * (rnd() < 0.2 ? 14 : 4));
      const items = Array.from({ length: n }, () => value(s.items ?? {}, depth + 1));
      if (rnd() < 0.25) items.push(structuredClone(items[Math.floor(rnd() * items.length)]));
      return items;
    }
    if (s.type === 'object' || s.properties || s.additionalProperties || s['x-orch-preserve-unknown-fields']) {
      if (depth > 5 || rnd() < 0.08) return {};
      const out: Record<string, unknown> = {};
      // Declared fields in a random order: the walk must not depend on the object's order.
      const props = Object.entries(s.properties ?? {}).sort(() => rnd() - 0.5);
      for (const [k, p] of props) if (rnd() < 0.45) out[k] = value(p, depth + 1);
      if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        for (let i = Math.floor(rnd() * 4); i > 0; i--) out[pick(AWKWARD)] = value(s.additionalProperties, depth + 1);
      }
      if (s['x-orch-preserve-unknown-fields'] && rnd() < 0.6) {
        out[pick(AWKWARD)] = pick([{ nested: [1, { a: 'b' }], s: 'x' }, [1, 2], 'x', {}, null]);
      }
      if (rnd() < 0.05) out.undeclared = 'x';
      if (rnd() < 0.05) out.gone = undefined;
      return out;
    }
    if (!s.type && !s['x-orch-int-or-string']) return pick([{ a: 1 }, [1, 2], 'x', {}, null]);
    return scalar(s);
  };
  return value;
}

const STRIPPED = ['name', 'namespace', 'creationTimestamp', 'uid', 'generation', 'managedFields', 'resourceVersion'];
const STRIPPED_SET = FieldSet.fromPaths(
  [['apiVersion'], ['kind'], ['metadata'], ...STRIPPED.map((f) => ['metadata', f])].map(
    (p): Path => p.map(fieldElement),
  ),
);

/** The general path: compare with the zero object, take out reset and unrecorded fields. */
function generalFields(obj: unknown, zero: unknown, t: TypeNode, reset: FieldSet | undefined): string {
  const c = compareTyped(zero, obj, t);
  const set = c.modified
    .union(c.added)
    .recursiveDifference(reset ?? FieldSet.EMPTY)
    .difference(STRIPPED_SET);
  return set.empty ? 'undefined' : JSON.stringify(toFieldsV1(set));
}

const ZEROS: Record<string, unknown>[] = [
  { apiVersion: 'example.orch.io/v1', kind: 'Thing', metadata: {} },
  { apiVersion: 'example.orch.io/v1', kind: 'Thing', metadata: {}, spec: {} },
  { apiVersion: 'example.orch.io/v1', kind: 'Thing', metadata: {}, spec: { containers: null, tags: [] } },
  { apiVersion: 'example.orch.io/v1', kind: 'Thing', metadata: {}, spec: { alpha: 0, config: {} }, status: {} },
  // Parts the walk leaves to the general path when the object has them too.
  { apiVersion: 'example.orch.io/v1', kind: 'Thing', metadata: {}, spec: { tags: ['a'] } },
  { apiVersion: 'example.orch.io/v1', kind: 'Thing', metadata: {}, spec: { free: { a: 1 } } },
];

const RESETS = [
  undefined,
  fieldPathsSet(['status']),
  fieldPathsSet(['spec.containers', 'metadata.labels']),
  fieldPathsSet(['spec.config', 'spec.alpha', 'status.phase']),
  FieldSet.fromPaths([
    [
      fieldElement('spec'),
      fieldElement('ports'),
      keyElement([
        { name: 'port', value: 80 },
        { name: 'protocol', value: 'TCP' },
      ]),
    ],
    [fieldElement('spec'), fieldElement('tags'), { kind: 'value', id: 'v:"a"', value: 'a' }],
  ]),
];

describe('createdFields', () => {
  const t = new TypeCompiler().compile(schema);

  it('gives what the general path gives, key for key and in the same order, for random objects', () => {
    const value = generator(seededRandom(20240611));
    // Levels shared by all the objects: one table that never fills, one that starts afresh often.
    const levels = [new CreatedLevels(), new CreatedLevels(64)];
    let decided = 0;
    let undecided = 0;
    for (let i = 0; i < 3000; i++) {
      const body = value(schema, 0) as Record<string, unknown>;
      const meta = (body?.metadata ?? {}) as Record<string, unknown>;
      const obj = {
        ...(body ?? {}),
        apiVersion: i % 7 === 0 ? 'other/v1' : 'example.orch.io/v1',
        kind: 'Thing',
        metadata: i % 2 === 0 ? { ...meta, name: 'n', namespace: 'ns', uid: 'u' } : meta,
      };
      const zero = ZEROS[i % ZEROS.length]!;
      const reset = RESETS[i % RESETS.length];
      const fast = createdFields(obj, zero, t, reset, new Set(STRIPPED), levels[i % 2]);
      if (!fast) {
        undecided++;
        continue;
      }
      decided++;
      assert.equal(JSON.stringify(fast.fieldsV1) ?? 'undefined', generalFields(obj, zero, t, reset), `object #${i}`);
    }
    assert.ok(decided > 2000, `decided ${decided}`);
    assert.ok(undecided > 0, 'a zero object with a non-empty list or a schema-less part is left undecided');
  });

  it('gives objects of one shape the same frozen levels, and objects of another shape their own', () => {
    const levels = new CreatedLevels();
    const stripped = new Set(STRIPPED);
    const thing = (ports: unknown[], zeta: string) => ({
      apiVersion: 'v',
      kind: 'Thing',
      metadata: { labels: { app: zeta } },
      spec: { zeta, ports },
    });
    const a = createdFields(thing([{ port: 80, name: 'x' }], 'one'), ZEROS[0]!, t, undefined, stripped, levels);
    const b = createdFields(thing([{ port: 80, name: 'y' }], 'two'), ZEROS[0]!, t, undefined, stripped, levels);
    const c = createdFields(thing([{ port: 81, name: 'x' }], 'one'), ZEROS[0]!, t, undefined, stripped, levels);
    assert.ok(a?.fieldsV1 && b?.fieldsV1 && c?.fieldsV1);
    // Other values, the same fields: the very same objects, which nothing can change.
    assert.equal(b.fieldsV1, a.fieldsV1);
    assert.ok(Object.isFrozen(a.fieldsV1));
    const spec = (v: JsonObject) => v['f:spec'] as JsonObject;
    assert.throws(() => {
      spec(a.fieldsV1!)['f:extra'] = {};
    }, TypeError);
    // Another list item: its own list level, the unchanged fields of the spec still shared.
    assert.notEqual(c.fieldsV1, a.fieldsV1);
    assert.notEqual(spec(c.fieldsV1)['f:ports'], spec(a.fieldsV1)['f:ports']);
    assert.equal(spec(c.fieldsV1)['f:zeta'], spec(a.fieldsV1)['f:zeta']);
    assert.equal(c.fieldsV1['f:metadata'], a.fieldsV1['f:metadata']);
    const general = generalFields(thing([{ port: 81, name: 'x' }], 'one'), ZEROS[0]!, t, undefined);
    assert.equal(JSON.stringify(c.fieldsV1), general);
    // Their text, serialized once, for encoders to copy; nothing for an equal object made elsewhere.
    assert.equal(levels.json(a.fieldsV1), JSON.stringify(a.fieldsV1));
    assert.equal(levels.json(a.fieldsV1), levels.json(b.fieldsV1));
    assert.equal(levels.json(c.fieldsV1), general);
    assert.equal(levels.json(JSON.parse(general)), undefined);
    assert.equal(new CreatedLevels().json(a.fieldsV1), undefined);
    assert.equal(levels.json('text'), undefined);
    // Many shapes after one prefix (past the scanned steps, indexed by key): each finds its own.
    const labelled = (i: number) => ({ apiVersion: 'v', kind: 'Thing', metadata: { labels: { [`k${i % 20}`]: 'v' } } });
    const first = Array.from({ length: 40 }, (_, i) =>
      createdFields(labelled(i), ZEROS[0]!, t, undefined, stripped, levels),
    );
    for (let i = 0; i < 40; i++) {
      assert.equal(first[i]?.fieldsV1, first[i % 20]?.fieldsV1);
      assert.equal(JSON.stringify(first[i]?.fieldsV1), `{"f:metadata":{"f:labels":{".":{},"f:k${i % 20}":{}}}}`);
    }
  });

  it('leaves a non-empty list of the zero object, or a schema-less part, to the general path', () => {
    const base = { apiVersion: 'v', kind: 'Thing', metadata: {} };
    const stripped = new Set(STRIPPED);
    assert.equal(createdFields({ ...base, spec: { tags: ['b'] } }, ZEROS[4]!, t, undefined, stripped), undefined);
    assert.equal(createdFields({ ...base, spec: { free: { b: 1 } } }, ZEROS[5]!, t, undefined, stripped), undefined);
    // Even when the part is reset: the general path decides what a reset hides.
    const reset = fieldPathsSet(['spec.tags']);
    assert.equal(createdFields({ ...base, spec: { tags: ['b'] } }, ZEROS[4]!, t, reset, stripped), undefined);
  });

  it('orders items by key values, numbers numerically, and writes each id as kube does', () => {
    const obj = {
      apiVersion: 'v',
      kind: 'Thing',
      metadata: {},
      spec: {
        ports: [{ port: 8080 }, { port: 80, protocol: 'UDP' }, { port: 9 }, { port: 80, name: 'a"<b>' }],
        tags: ['b', 'a', 'b'],
      },
    };
    const fast = createdFields(obj, ZEROS[0]!, t, undefined, new Set(STRIPPED));
    assert.equal(
      JSON.stringify(fast?.fieldsV1),
      JSON.stringify({
        'f:spec': {
          '.': {},
          'f:ports': {
            '.': {},
            'k:{"port":9,"protocol":"TCP"}': { '.': {}, 'f:port': {} },
            'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {} },
            'k:{"port":80,"protocol":"UDP"}': { '.': {}, 'f:port': {}, 'f:protocol': {} },
            'k:{"port":8080,"protocol":"TCP"}': { '.': {}, 'f:port': {} },
          },
          'f:tags': { '.': {}, 'v:"a"': {}, 'v:"b"': {} },
        },
      }),
    );
  });
});

describe('orderedKeyElement', () => {
  it('is keyElement without its sort: the same id, fields and order', () => {
    const rnd = seededRandom(7);
    const names = ['name', 'Port', 'protocol', 'a"b', '<', 'é', '😀', '\uffff', ''];
    const values = [1, -0, 1.5, 'x', 'a"<>&\u2028', true, null, { b: 1, a: [2] }, 12345678901234567890n];
    for (let i = 0; i < 500; i++) {
      const n = 1 + Math.floor(rnd() * 4);
      const chosen = [...new Set(Array.from({ length: n }, () => names[Math.floor(rnd() * names.length)]!))];
      const fields: KeyField[] = chosen.map((name) => ({ name, value: values[Math.floor(rnd() * values.length)]! }));
      const order = keyFieldOrder(chosen);
      const inOrder = order.names.map((name) => fields.find((f) => f.name === name)!);
      assert.deepEqual(orderedKeyElement(order, inOrder), keyElement(fields));
    }
    assert.deepEqual(orderedKeyElement(keyFieldOrder([]), []), keyElement([]));
  });

  it('gives the element it made before for the same key values, whatever the kind of its values', () => {
    const order = keyFieldOrder(['protocol', 'containerPort']);
    const port = (containerPort: JsonValue, protocol: JsonValue = 'TCP') =>
      orderedKeyElement(order, [
        { name: 'containerPort', value: containerPort },
        { name: 'protocol', value: protocol },
      ]);
    const first = port(80);
    assert.equal(port(80), first);
    assert.equal(first.id, 'k:{"containerPort":80,"protocol":"TCP"}');
    assert.deepEqual(
      port(80, 'UDP'),
      keyElement([
        { name: 'containerPort', value: 80 },
        { name: 'protocol', value: 'UDP' },
      ]),
    );
    for (const value of [-0, 0, '0', 80.5, true, null, { a: 1 }]) {
      const expected = keyElement([
        { name: 'containerPort', value },
        { name: 'protocol', value: 'TCP' },
      ]);
      assert.deepEqual(port(value), expected);
      assert.deepEqual(port(value), expected, 'asked again');
    }
    assert.ok(Object.is(port(-0).fields[0]!.value, -0), 'a -0 keeps its own fields');
    // Bounded: endlessly new key values never make it hold more than its limit.
    for (let i = 0; i < 5000; i++) assert.equal(port(i).id, `k:{"containerPort":${i},"protocol":"TCP"}`);
  });
});
