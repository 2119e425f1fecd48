import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../../apis/builtin.js';
import { fieldsV1Text } from '../fieldpath/fields-v1.js';
import { widget, widgetSchema } from '../testing/widget-schema.js';
import { compareTyped } from './compare.js';
import { fieldSetOf } from './to-field-set.js';
import { TypeCompiler } from './type-node.js';
import { formatValidationErrors, validateTyped } from './validate.js';

const compiler = new TypeCompiler();
const W = compiler.compile(widgetSchema);
const CM = compiler.compile(builtinResources().find((d) => d.kind === 'ConfigMap')!.schema);

function setText(value: unknown, t = W): string {
  return fieldsV1Text(fieldSetOf(value, t));
}

describe('fieldSetOf (what an apply owns)', () => {
  it('a ConfigMap: leaves and map keys, no `.` for the containers', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { app: 'a' } }, data: { a: 'b' } };
    assert.equal(
      setText(cm, CM),
      '{"f:apiVersion":{},"f:data":{"f:a":{}},"f:kind":{},"f:metadata":{"f:labels":{"f:app":{}},"f:name":{}}}',
    );
  });

  it('owner references: items keyed by uid, atomic (nothing below the item)', () => {
    const cm = {
      metadata: {
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1', controller: true }],
        finalizers: ['example.com/a', 'b'],
      },
    };
    assert.equal(
      setText(cm, CM),
      '{"f:metadata":{"f:finalizers":{"v:\\"b\\"":{},"v:\\"example.com/a\\"":{}},"f:ownerReferences":{"k:{\\"uid\\":\\"u1\\"}":{}}}}',
    );
  });

  it('empty and null fields are leaves; empty lists own nothing', () => {
    assert.equal(setText({ spec: { config: {}, image: null, tags: [] } }), '{"f:spec":{"f:config":{},"f:image":{}}}');
  });

  it('list maps with two keys and a key default; patch-strategy lists are list maps', () => {
    const w = {
      spec: {
        ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP', name: 'dns' }],
        containers: [{ name: 'c', image: 'i', env: [{ name: 'E', value: '1' }] }],
      },
    };
    assert.equal(
      setText(w),
      '{"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:env":{"k:{\\"name\\":\\"E\\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:name":{}}},' +
        '"f:ports":{"k:{\\"containerPort\\":53,\\"protocol\\":\\"UDP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},' +
        '"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}}',
    );
  });

  it('atomic lists, maps and structs are single leaves', () => {
    const w = { spec: { args: ['a', 'b'], selector: { a: 'b' }, target: { kind: 'K', name: 'n' } } };
    assert.equal(setText(w), '{"f:spec":{"f:args":{},"f:selector":{},"f:target":{}}}');
  });

  it('unknown fields: granular maps, atomic lists', () => {
    const w = { spec: { extra: { a: { b: 1 }, list: [{ x: 1 }], s: 's' } } };
    assert.equal(setText(w), '{"f:spec":{"f:extra":{"f:a":{".":{},"f:b":{}},"f:list":{},"f:s":{}}}}');
  });

  it('a duplicated item is owned as a whole', () => {
    const w = { spec: { tags: ['a', 'a', 'b'] } };
    assert.equal(setText(w), '{"f:spec":{"f:tags":{"v:\\"a\\"":{},"v:\\"b\\"":{}}}}');
  });
});

describe('compareTyped (what an update changes)', () => {
  it('reports added containers with their leaves (`.` entries), modified leaves, removals', () => {
    const before = widget({ replicas: 1, config: { a: '1' } });
    const after = widget({ replicas: 2, config: { b: '2' }, tags: ['x'] });
    const c = compareTyped(before, after, W);
    assert.equal(fieldsV1Text(c.added), '{"f:spec":{"f:config":{"f:b":{}},"f:tags":{".":{},"v:\\"x\\"":{}}}}');
    assert.equal(fieldsV1Text(c.modified), '{"f:spec":{"f:replicas":{}}}');
    assert.equal(fieldsV1Text(c.removed), '{"f:spec":{"f:config":{"f:a":{}}}}');
  });

  it('a create from nothing adds every container', () => {
    const c = compareTyped(undefined, { data: { a: 'b' } }, CM);
    assert.equal(fieldsV1Text(c.added), '{"f:data":{".":{},"f:a":{}}}');
  });

  it('empty and null containers compare as leaves', () => {
    const c = compareTyped({ spec: { config: {} } }, { spec: { config: null } }, W);
    assert.equal(fieldsV1Text(c.modified), '{"f:spec":{"f:config":{}}}');
  });

  it('atomic values change as a whole', () => {
    const c = compareTyped(widget({ args: ['a'] }), widget({ args: ['a', 'b'] }), W);
    assert.equal(fieldsV1Text(c.modified), '{"f:spec":{"f:args":{}}}');
    assert.ok(c.added.empty);
  });

  it('duplicates appearing or disappearing mark the item', () => {
    const c = compareTyped(widget({ tags: ['a'] }), widget({ tags: ['a', 'a'] }), W);
    assert.equal(fieldsV1Text(c.added), '{"f:spec":{"f:tags":{"v:\\"a\\"":{}}}}');
    assert.equal(fieldsV1Text(c.removed), '{"f:spec":{"f:tags":{"v:\\"a\\"":{}}}}');
  });
});

describe('validateTyped (kube messages)', () => {
  const cases: [string, unknown, string][] = [
    ['undeclared field', { spec: { nope: 1 } }, '.spec.nope: field not declared in schema'],
    ['string expected', { spec: { image: 5 } }, '.spec.image: expected string, got &value.valueUnstructured{Value:5}'],
    ['numeric expected', { spec: { replicas: 'x' } }, '.spec.replicas: expected numeric (int or float), got string'],
    ['boolean expected', { spec: { paused: 'yes' } }, '.spec.paused: expected boolean, got &{yes}'],
    ['map expected', { spec: 'x' }, '.spec: expected map, got &{x}'],
    ['list expected', { spec: { tags: 'x' } }, '.spec.tags: expected list, got &{x}'],
    [
      'missing key',
      { spec: { containers: [{ image: 'i' }] } },
      '.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    ],
    [
      'duplicate key',
      { spec: { ports: [{ containerPort: 1 }, { containerPort: 1, protocol: 'TCP' }] } },
      '.spec.ports: duplicate entries for key [containerPort=1,protocol="TCP"]',
    ],
    [
      'nested path',
      { spec: { containers: [{ name: 'c', x: 1 }] } },
      '.spec.containers[name="c"].x: field not declared in schema',
    ],
    ['int-or-string takes scalars only', { spec: { port: {} } }, '.spec.port: expected any scalar, got &{map[]}'],
  ];
  for (const [name, value, message] of cases) {
    it(name, () => assert.deepEqual(validateTyped(value, W), [message]));
  }

  it('allows duplicates in live objects when asked', () => {
    assert.deepEqual(validateTyped({ spec: { tags: ['a', 'a'] } }, W, { allowDuplicates: true }), []);
  });

  it('formats several errors as kube does', () => {
    assert.equal(formatValidationErrors(['a: x', 'b: y']), 'errors:\n  a: x\n  b: y');
  });
});
