import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goJsonString, goValueString } from './go-text.js';
import {
  comparePathElements,
  fieldElement,
  indexElement,
  keyElement,
  PathElementSyntaxError,
  parsePathElement,
  pathString,
  UnknownPathElementTypeError,
  valueElement,
} from './path-element.js';

describe('path element ids (fieldsV1 keys)', () => {
  const cases: [string, ReturnType<typeof parsePathElement>, string][] = [
    ['field', fieldElement('data'), 'f:data'],
    ['field names are raw', fieldElement('a"b<c'), 'f:a"b<c'],
    [
      'key fields sorted by name',
      keyElement([
        { name: 'protocol', value: 'TCP' },
        { name: 'containerPort', value: 80 },
      ]),
      'k:{"containerPort":80,"protocol":"TCP"}',
    ],
    [
      'key with bool and float',
      keyElement([
        { name: 'b', value: true },
        { name: 'a', value: 1.5 },
      ]),
      'k:{"a":1.5,"b":true}',
    ],
    [
      'key strings escaped HTML-safe',
      keyElement([{ name: 'uid', value: 'a<b>&c' }]),
      'k:{"uid":"a\\u003cb\\u003e\\u0026c"}',
    ],
    ['set value', valueElement('example.com/foo'), 'v:"example.com/foo"'],
    ['number value', valueElement(3), 'v:3'],
    ['control characters', valueElement('a\nb\u0001'), 'v:"a\\nb\\u0001"'],
    ['index', indexElement(4), 'i:4'],
  ];
  for (const [name, pe, id] of cases) {
    it(name, () => {
      assert.equal(pe.id, id);
      assert.equal(parsePathElement(id).id, id, 'round trip');
    });
  }

  it('reads key fields in any order and re-sorts them', () => {
    assert.equal(
      parsePathElement('k:{"protocol":"TCP","containerPort":80}').id,
      'k:{"containerPort":80,"protocol":"TCP"}',
    );
  });

  it('canonicalizes escapes of values', () => {
    assert.equal(parsePathElement('v:"<"').id, 'v:"\\u003c"');
  });

  it('rejects malformed keys and flags unknown types', () => {
    assert.throws(() => parsePathElement('f'), PathElementSyntaxError);
    assert.throws(() => parsePathElement('fx'), /missing colon: fx/);
    assert.throws(() => parsePathElement('k:[1]'), PathElementSyntaxError);
    assert.throws(() => parsePathElement('v:{'), PathElementSyntaxError);
    assert.throws(() => parsePathElement('i:x'), /strconv.Atoi: parsing "x": invalid syntax/);
    assert.throws(() => parsePathElement('r:x'), UnknownPathElementTypeError);
  });
});

describe('path element order', () => {
  it('orders fields < keys < values < indexes, values numbers < strings < bools', () => {
    const shuffled = [
      indexElement(2),
      valueElement(true),
      valueElement('aa'),
      keyElement([
        { name: 'port', value: 443 },
        { name: 'protocol', value: 'udp' },
      ]),
      valueElement(2),
      fieldElement('b'),
      keyElement([{ name: 'name', value: 'first' }]),
      indexElement(1),
      fieldElement('a'),
      valueElement(1.5),
    ];
    assert.deepEqual(
      shuffled.sort(comparePathElements).map((p) => p.id),
      [
        'f:a',
        'f:b',
        'k:{"name":"first"}',
        'k:{"port":443,"protocol":"udp"}',
        'v:1.5',
        'v:2',
        'v:"aa"',
        'v:true',
        'i:1',
        'i:2',
      ],
    );
  });
});

describe('path strings (conflict messages)', () => {
  it('prints fields, keys, values and indexes as kube does', () => {
    const path = [
      fieldElement('spec'),
      fieldElement('ports'),
      keyElement([
        { name: 'protocol', value: 'TCP' },
        { name: 'containerPort', value: 80 },
      ]),
      fieldElement('name'),
    ];
    assert.equal(pathString(path), '.spec.ports[containerPort=80,protocol="TCP"].name');
    assert.equal(
      pathString([fieldElement('metadata'), fieldElement('finalizers'), valueElement('a')]),
      '.metadata.finalizers[="a"]',
    );
    assert.equal(pathString([fieldElement('x'), indexElement(3)]), '.x[3]');
  });

  it('formats values as Go %v', () => {
    assert.equal(goValueString('a\tb'), '"a\\tb"');
    assert.equal(goValueString(1.5), '1.5');
    assert.equal(goValueString(1234567.5), '1.2345675e+06');
    assert.equal(goValueString(0.00001), '1e-05');
    assert.equal(goValueString(null), 'null');
  });

  it('escapes JSON strings as Go does', () => {
    assert.equal(goJsonString('\u2028'), '"\\u2028"');
    assert.equal(goJsonString('\b'), '"\\u0008"');
    assert.equal(goJsonString('\b', true), '"\\b"');
    assert.equal(goJsonString('\ud800x'), '"\\ufffdx"');
    assert.equal(goJsonString('😀'), '"😀"');
  });
});
