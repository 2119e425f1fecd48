import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldSet } from '../fieldpath/field-set.js';
import { fieldElement as f, keyElement, valueElement } from '../fieldpath/path-element.js';
import { widgetSchema } from '../testing/widget-schema.js';
import { TypeCompiler } from '../typed/type-node.js';
import { mergeTyped } from './merge.js';
import { removeItems } from './remove.js';

const W = new TypeCompiler().compile(widgetSchema);

function mergeTags(live: string[], config: string[]): unknown {
  return (mergeTyped({ spec: { tags: live } }, { spec: { tags: config } }, W) as { spec: { tags: unknown } }).spec.tags;
}

describe('mergeTyped: set item order (kube behaviour vectors)', () => {
  const vectors: [string[], string[], string[]][] = [
    [
      ['a', 'b', 'c'],
      ['a', 'b'],
      ['a', 'b', 'c'],
    ],
    [
      ['a', 'b'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ],
    [['a', 'b', 'c'], [], ['a', 'b', 'c']],
    [[], ['a', 'b', 'c'], ['a', 'b', 'c']],
    [
      ['a', 'b'],
      ['b', 'a'],
      ['b', 'a'],
    ],
    [
      ['a', 'b', 'c'],
      ['c', 'd', 'e', 'f'],
      ['a', 'b', 'c', 'd', 'e', 'f'],
    ],
    [
      ['a', 'b', 'c', 'g', 'f'],
      ['c', 'd', 'e', 'f'],
      ['a', 'b', 'c', 'g', 'd', 'e', 'f'],
    ],
    [
      ['c', 'd', 'e', 'f'],
      ['a', 'c', 'e'],
      ['a', 'c', 'd', 'e', 'f'],
    ],
    [
      ['a', 'b', 'c', 'x', 'y', 'z'],
      ['d', 'e', 'f'],
      ['a', 'b', 'c', 'x', 'y', 'z', 'd', 'e', 'f'],
    ],
    [
      ['a', 'b', 'c', 'x', 'y', 'z'],
      ['d', 'e', 'f', 'x', 'y', 'z'],
      ['a', 'b', 'c', 'd', 'e', 'f', 'x', 'y', 'z'],
    ],
    [
      ['c', 'a', 'g', 'f'],
      ['c', 'f', 'a', 'g'],
      ['c', 'f', 'a', 'g'],
    ],
    [
      ['a', 'b', 'c', 'd'],
      ['d', 'e', 'f', 'a'],
      ['b', 'c', 'd', 'e', 'f', 'a'],
    ],
    [
      ['c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'],
      ['2', 'h', '3', 'e', '4', 'k', 'l'],
      ['c', 'd', 'f', 'g', '2', 'h', 'i', 'j', '3', 'e', '4', 'k', 'l'],
    ],
    [
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'],
      ['1', 'b', '2', 'h', '3', 'e', '4', 'k', 'l'],
      ['a', '1', 'b', 'c', 'd', 'f', 'g', '2', 'h', 'i', 'j', '3', 'e', '4', 'k', 'l'],
    ],
    // Duplicates in the live list: kept unless the configuration names the item, then merged once.
    [['a', 'b', 'b'], ['c'], ['a', 'b', 'b', 'c']],
    [['a', 'b', 'b'], ['b'], ['a', 'b']],
    [
      ['a', 'b', 'c', 'd', 'e', 'c'],
      ['1', 'b', '2', 'c', 'e', 'd'],
      ['a', '1', 'b', '2', 'c', 'e', 'd'],
    ],
    [
      ['a', 'a', 'b', 'b'],
      ['b', 'c', 'd'],
      ['a', 'a', 'b', 'c', 'd'],
    ],
  ];
  for (const [live, config, expected] of vectors) {
    it(`${JSON.stringify(live)} + ${JSON.stringify(config)}`, () => {
      assert.deepEqual(mergeTags(live, config), expected);
    });
  }
});

describe('mergeTyped: structure', () => {
  it('merges granular maps key by key and keeps live keys first', () => {
    const out = mergeTyped(
      { spec: { config: { a: '1', b: '2' }, image: 'x' } },
      { spec: { config: { c: '3', a: '9' } } },
      W,
    );
    assert.deepEqual(out, { spec: { config: { a: '9', b: '2', c: '3' }, image: 'x' } });
    assert.deepEqual(Object.keys((out as { spec: { config: object } }).spec.config), ['a', 'b', 'c']);
  });

  it('replaces atomic maps, structs and lists whole', () => {
    const out = mergeTyped(
      { spec: { selector: { a: '1', b: '2' }, target: { kind: 'K', name: 'n' }, args: ['x', 'y'] } },
      { spec: { selector: { c: '3' }, target: { name: 'm' }, args: ['z'] } },
      W,
    );
    assert.deepEqual(out, { spec: { selector: { c: '3' }, target: { name: 'm' }, args: ['z'] } });
  });

  it('merges list-map items by key, fields granularly', () => {
    const out = mergeTyped(
      {
        spec: {
          ports: [
            { containerPort: 80, protocol: 'TCP', name: 'http' },
            { containerPort: 53, protocol: 'UDP' },
          ],
        },
      },
      { spec: { ports: [{ containerPort: 80, name: 'web' }, { containerPort: 443 }] } },
      W,
    );
    assert.deepEqual(out, {
      spec: {
        ports: [
          { containerPort: 80, protocol: 'TCP', name: 'web' },
          { containerPort: 53, protocol: 'UDP' },
          { containerPort: 443 },
        ],
      },
    });
  });

  it('never removes: an empty or null configuration value keeps live content', () => {
    assert.deepEqual(mergeTyped({ spec: { config: { a: '1' } } }, { spec: { config: {} } }, W), {
      spec: { config: { a: '1' } },
    });
    assert.deepEqual(mergeTyped({ spec: { config: { a: '1' } } }, { spec: { config: null } }, W), {
      spec: { config: { a: '1' } },
    });
    assert.deepEqual(mergeTyped({ spec: { image: 'a' } }, { spec: { image: null } }, W), { spec: { image: null } });
  });

  it('merges unknown fields as granular maps and atomic lists', () => {
    const out = mergeTyped(
      { spec: { extra: { a: { b: 1 }, l: [1, 2] } } },
      { spec: { extra: { a: { c: 2 }, l: [3] } } },
      W,
    );
    assert.deepEqual(out, { spec: { extra: { a: { b: 1, c: 2 }, l: [3] } } });
  });

  it('does not mutate its inputs', () => {
    const live = { spec: { config: { a: '1' } } };
    mergeTyped(live, { spec: { config: { b: '2' } } }, W);
    assert.deepEqual(live, { spec: { config: { a: '1' } } });
  });
});

describe('removeItems', () => {
  const live = {
    spec: {
      config: { a: '1', b: '2' },
      tags: ['x', 'y'],
      ports: [
        { containerPort: 80, name: 'http' },
        { containerPort: 53, protocol: 'UDP' },
      ],
      image: 'i',
    },
  };

  it('removes members with everything below them, and list items by key or value', () => {
    const toRemove = FieldSet.fromPaths([
      [f('spec'), f('config'), f('a')],
      [f('spec'), f('tags'), valueElement('x')],
      [
        f('spec'),
        f('ports'),
        keyElement([
          { name: 'containerPort', value: 80 },
          { name: 'protocol', value: 'TCP' },
        ]),
      ],
    ]);
    assert.deepEqual(removeItems(live, toRemove, W), {
      spec: { config: { b: '2' }, tags: ['y'], ports: [{ containerPort: 53, protocol: 'UDP' }], image: 'i' },
    });
  });

  it('turns emptied containers into null, as kube does, and drops members', () => {
    const toRemove = FieldSet.fromPaths([
      [f('spec'), f('config'), f('a')],
      [f('spec'), f('config'), f('b')],
      [f('spec'), f('tags'), valueElement('x')],
      [f('spec'), f('tags'), valueElement('y')],
      [f('spec'), f('image')],
    ]);
    assert.deepEqual(removeItems(live, toRemove, W), {
      spec: { config: null, tags: null, ports: live.spec.ports },
    });
    assert.equal(removeItems(live, FieldSet.fromPaths([[f('spec')]]), W) as unknown, null);
  });
});
