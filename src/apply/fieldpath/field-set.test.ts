import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldSet, fieldPathsSet } from './field-set.js';
import { FieldsV1Error, fieldsV1Text, fromFieldsV1, toFieldsV1 } from './fields-v1.js';
import { fieldElement as f, keyElement, type Path, pathString, valueElement as v } from './path-element.js';

function set(...paths: Path[]): FieldSet {
  return FieldSet.fromPaths(paths);
}

function text(s: FieldSet): string {
  return fieldsV1Text(s);
}

const a = [f('a')];
const ab = [f('a'), f('b')];
const abc = [f('a'), f('b'), f('c')];
const ad = [f('a'), f('d')];
const x = [f('x')];

describe('FieldSet', () => {
  it('has members only, never their parents, never the empty path', () => {
    const s = set(abc, []);
    assert.ok(s.has(abc));
    assert.ok(!s.has(ab));
    assert.ok(!s.has([]));
    assert.equal(s.size, 1);
  });

  it('union keeps both and marks shared elements once', () => {
    assert.equal(text(set(ab, x).union(set(a, ad))), '{"f:a":{".":{},"f:b":{},"f:d":{}},"f:x":{}}');
    assert.equal(set(ab).union(FieldSet.EMPTY).size, 1);
  });

  it('intersection keeps members of both', () => {
    assert.equal(text(set(ab, ad, x).intersection(set(ad, a, abc))), '{"f:a":{"f:d":{}}}');
    assert.ok(set(ab).intersection(set(a)).empty, 'a parent is not its child');
  });

  it('difference removes members only: parent − child = parent, child − parent = child', () => {
    assert.equal(text(set(a, ab).difference(set(ab))), '{"f:a":{}}');
    assert.equal(text(set(ab).difference(set(a))), '{"f:a":{"f:b":{}}}');
    assert.equal(text(set(ab, ad).difference(set(ad))), '{"f:a":{"f:b":{}}}');
  });

  it('recursive difference also removes everything below a member', () => {
    assert.equal(text(set(abc, ad, x).recursiveDifference(set(ab))), '{"f:a":{"f:d":{}},"f:x":{}}');
    assert.equal(text(set(abc, x).recursiveDifference(set(a))), '{"f:x":{}}');
    assert.equal(
      text(fieldPathsSet(['status', 'spec.x']).recursiveDifference(fieldPathsSet(['status']))),
      '{"f:spec":{"f:x":{}}}',
    );
  });

  it('leaves drops members that have members below them', () => {
    assert.equal(text(set(a, ab, x).leaves()), '{"f:a":{"f:b":{}},"f:x":{}}');
  });

  it('iterates a level’s members before what is below, in element order', () => {
    const s = set(ad, x, ab, a, [f('a'), v('z'), f('q')]);
    assert.deepEqual(s.paths().map(pathString), ['.a', '.x', '.a.b', '.a.d', '.a[="z"].q']);
    assert.equal(s.toString(), '.a\n.x\n.a.b\n.a.d\n.a[="z"].q');
  });

  it('compares structurally', () => {
    assert.ok(set(ab, x).equals(set(x, ab)));
    assert.ok(!set(ab).equals(set(a, ab)));
    assert.deepEqual(set(ab).withPrefix(f('a')).paths(), [[f('b')]]);
    assert.ok(set(ab).withPrefix(f('zz')).empty);
  });
});

describe('fieldsV1', () => {
  // structured-merge-diff's golden serialization: element order across all four kinds.
  const golden =
    '{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\\"name\\":\\"first\\"}":{},"k:{\\"name\\":\\"second\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\\"aa\\"":{},"v:\\"ab\\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}';
  const nested =
    '{"f:aaa":{"k:{\\"name\\":\\"second\\"}":{"v:3":{"f:aab":{}}},"v:3":{},"v:true":{}},"f:aab":{"f:aaa":{},"f:aaf":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"k:{\\"name\\":\\"first\\"}":{}},"i:4":{"v:\\"aa\\"":{"f:aab":{"k:{\\"name\\":\\"second\\"}":{}}}}}';

  for (const [name, json] of [
    ['flat golden data', golden],
    ['nested golden data', nested],
    ['member with members below', '{"f:data":{".":{},"f:a":{}}}'],
  ]) {
    it(`round-trips ${name} byte for byte`, () => {
      const parsed = fromFieldsV1(JSON.parse(json));
      assert.equal(fieldsV1Text(parsed), json);
      assert.equal(JSON.stringify(toFieldsV1(parsed)), json);
    });
  }

  it('writes keys in kube order whatever the input order', () => {
    const s = fromFieldsV1(JSON.parse('{"v:true":{},"i:1":{},"f:z":{},"k:{\\"b\\":1,\\"a\\":2}":{},"f:a":{}}'));
    assert.equal(fieldsV1Text(s), '{"f:a":{},"f:z":{},"k:{\\"a\\":2,\\"b\\":1}":{},"v:true":{},"i:1":{}}');
  });

  it('escapes keys HTML-safe in the byte form only', () => {
    const s = set([f('metadata'), f('finalizers'), v('a<b')]);
    assert.equal(fieldsV1Text(s), '{"f:metadata":{"f:finalizers":{"v:\\"a\\\\u003cb\\"":{}}}}');
    assert.deepEqual(toFieldsV1(s), { 'f:metadata': { 'f:finalizers': { 'v:"a\\u003cb"': {} } } });
  });

  it('reads `.` and empty objects as membership', () => {
    const s = fromFieldsV1({ 'f:a': { '.': {}, 'f:b': {} }, 'f:c': { '.': {} } });
    assert.deepEqual(s.paths().map(pathString), ['.a', '.c', '.a.b']);
  });

  it('drops keys of unknown types (a newer format)', () => {
    assert.equal(fieldsV1Text(fromFieldsV1({ 'f:aaa': {}, 'r:aab': {} })), '{"f:aaa":{}}');
    assert.equal(
      fieldsV1Text(fromFieldsV1({ 'f:a': { 'r:x': {} } })),
      '{"f:a":{}}',
      'nothing understood below: a member',
    );
  });

  it('rejects malformed keys and values', () => {
    assert.throws(() => fromFieldsV1({ 'k:nope': {} }), FieldsV1Error);
    assert.throws(() => fromFieldsV1({ 'f:a': 1 }), FieldsV1Error);
    assert.ok(fromFieldsV1(undefined).empty);
  });

  it('serializes list-map keys with several fields and set values', () => {
    const s = set(
      [
        f('spec'),
        f('ports'),
        keyElement([
          { name: 'protocol', value: 'TCP' },
          { name: 'containerPort', value: 8080 },
        ]),
      ],
      [f('metadata'), f('finalizers'), v('example.com/x')],
    );
    assert.equal(
      fieldsV1Text(s),
      '{"f:metadata":{"f:finalizers":{"v:\\"example.com/x\\"":{}}},"f:spec":{"f:ports":{"k:{\\"containerPort\\":8080,\\"protocol\\":\\"TCP\\"}":{}}}}',
    );
  });
});
