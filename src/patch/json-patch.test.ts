import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { JsonPatchError, type JsonPatchErrorKind } from './errors.js';
import { applyJsonPatch } from './json-patch.js';

/**
 * The public json-patch-tests suite (tests.json, spec_tests.json) from the
 * `json-patch-test-suite` dev dependency; `ORCH_JSON_PATCH_TESTDATA` names another directory
 * holding the same two files (e.g. a newer checkout of the suite).
 */
function suitePath(file: string): string {
  const dir = process.env.ORCH_JSON_PATCH_TESTDATA;
  return dir ? join(dir, file) : createRequire(import.meta.url).resolve(`json-patch-test-suite/${file}`);
}

interface SuiteRecord {
  comment?: string;
  doc: unknown;
  patch: unknown;
  expected?: unknown;
  error?: string;
  disabled?: boolean;
}

function loadSuite(file: string): SuiteRecord[] {
  return JSON.parse(readFileSync(suitePath(file), 'utf8')) as SuiteRecord[];
}

function snapshot(value: unknown): string {
  return JSON.stringify(value);
}

for (const file of ['tests.json', 'spec_tests.json']) {
  describe(`json-patch-tests ${file}`, () => {
    const records = loadSuite(file);
    records.forEach((record, i) => {
      const name = `#${i} ${record.comment ?? record.error ?? JSON.stringify(record.patch)}`;
      it(name, { skip: record.disabled === true }, () => {
        const docBefore = snapshot(record.doc);
        const patchBefore = snapshot(record.patch);
        if (record.error !== undefined) {
          assert.throws(() => applyJsonPatch(record.doc, record.patch), JsonPatchError);
        } else {
          const result = applyJsonPatch(record.doc, record.patch);
          // Records without `expected` only assert that the patch applies.
          if ('expected' in record) assert.deepStrictEqual(result, record.expected);
        }
        assert.equal(snapshot(record.doc), docBefore, 'input document was modified');
        assert.equal(snapshot(record.patch), patchBefore, 'patch was modified');
      });
    });
  });
}

/**
 * Behaviour the json-patch-tests suite checks only after the 1.1.0 release that the npm package
 * ships: whole-document replacement through the root, pointer and index syntax, and missing
 * sources or targets.
 */
describe('json-patch-tests cases newer than the packaged suite', () => {
  const applies: { name: string; doc: unknown; patch: unknown; expected: unknown }[] = [
    {
      name: 'add at the root swaps an object for an array',
      doc: { a: 1 },
      patch: [{ op: 'add', path: '', value: [1] }],
      expected: [1],
    },
    {
      name: 'add at the root swaps an array for an object',
      doc: [1],
      patch: [{ op: 'add', path: '', value: { a: 1 } }],
      expected: { a: 1 },
    },
    { name: 'append to a root array', doc: [], patch: [{ op: 'add', path: '/-', value: 'x' }], expected: ['x'] },
    {
      name: 'member names are case-sensitive',
      doc: { k: 'v' },
      patch: [{ op: 'add', path: '/K', value: 'W' }],
      expected: { k: 'v', K: 'W' },
    },
    {
      name: 'a copy does not alias its source (change the copy)',
      doc: { s: { l: [{ v: 1 }] } },
      patch: [
        { op: 'copy', from: '/s', path: '/d' },
        { op: 'replace', path: '/d/l/0/v', value: 2 },
      ],
      expected: { s: { l: [{ v: 1 }] }, d: { l: [{ v: 2 }] } },
    },
    {
      name: 'a copy does not alias its source (change the source)',
      doc: { s: { l: [{ v: 1 }] } },
      patch: [
        { op: 'copy', from: '/s', path: '/d' },
        { op: 'replace', path: '/s/l/0/v', value: 2 },
      ],
      expected: { s: { l: [{ v: 2 }] }, d: { l: [{ v: 1 }] } },
    },
  ];
  for (const c of applies) {
    it(c.name, () => assert.deepStrictEqual(applyJsonPatch(c.doc, c.patch), c.expected));
  }

  const fails: { name: string; doc: unknown; patch: unknown }[] = [
    { name: 'replace under a missing parent', doc: { a: 1 }, patch: [{ op: 'replace', path: '/b/c', value: true }] },
    { name: 'no path member', doc: {}, patch: [{ op: 'add', value: 1 }] },
    { name: 'null path', doc: {}, patch: [{ op: 'add', path: null, value: 1 }] },
    { name: 'pointer without a leading slash', doc: {}, patch: [{ op: 'add', path: 'a', value: 1 }] },
    { name: 'copy from a missing location', doc: { a: 1 }, patch: [{ op: 'copy', from: '/z', path: '/a' }] },
    { name: 'move from a missing location', doc: { a: 1 }, patch: [{ op: 'move', from: '/z', path: '/a' }] },
    { name: 'index with a leading zero (00)', doc: ['x', 'y'], patch: [{ op: 'test', path: '/00', value: 'x' }] },
    { name: 'index with a leading zero (01)', doc: ['x', 'y'], patch: [{ op: 'test', path: '/01', value: 'y' }] },
    { name: 'remove a missing member', doc: { a: 1 }, patch: [{ op: 'remove', path: '/b' }] },
    { name: 'remove under a missing parent', doc: { a: 1 }, patch: [{ op: 'remove', path: '/b/c' }] },
    { name: 'remove past the end of an array', doc: ['x', 'y'], patch: [{ op: 'remove', path: '/2' }] },
  ];
  for (const c of fails) {
    it(`fails: ${c.name}`, () => assert.throws(() => applyJsonPatch(c.doc, c.patch), JsonPatchError));
  }
});

function failure(doc: unknown, patch: unknown): JsonPatchError {
  try {
    applyJsonPatch(doc, patch);
  } catch (e) {
    assert.ok(e instanceof JsonPatchError, `expected a JsonPatchError, got ${String(e)}`);
    return e;
  }
  assert.fail('patch applied but was expected to fail');
}

describe('applyJsonPatch error kinds and messages', () => {
  const cases: {
    name: string;
    doc: unknown;
    patch: unknown;
    kind: JsonPatchErrorKind;
    message?: RegExp;
    index?: number;
  }[] = [
    {
      name: 'object body',
      doc: {},
      patch: { op: 'add' },
      kind: 'invalid-patch',
      message: /^json: cannot unmarshal object into Go value of type jsonpatch\.Patch$/,
    },
    {
      name: 'string operation',
      doc: {},
      patch: ['add'],
      kind: 'invalid-patch',
      message: /^json: cannot unmarshal string into Go value of type jsonpatch\.Operation$/,
      index: 0,
    },
    {
      name: 'null operation',
      doc: {},
      patch: [null],
      kind: 'invalid-operation',
      message: /^Unexpected kind: unknown$/,
    },
    { name: 'unknown op', doc: {}, patch: [{ op: 'spam', path: '/a' }], kind: 'invalid-operation', message: /spam/ },
    { name: 'op not a string', doc: {}, patch: [{ op: 1, path: '/a' }], kind: 'invalid-operation' },
    { name: 'path not a string', doc: {}, patch: [{ op: 'remove', path: 1 }], kind: 'invalid-operation' },
    {
      name: 'failed test',
      doc: { metadata: { name: 'a' } },
      patch: [
        { op: 'add', path: '/x', value: 1 },
        { op: 'test', path: '/metadata/name', value: 'b' },
      ],
      kind: 'test-failed',
      message: /^testing value \/metadata\/name failed: test failed$/,
      index: 1,
    },
    {
      name: 'test of a missing member',
      doc: {},
      patch: [{ op: 'test', path: '/a', value: null }],
      kind: 'invalid-path',
    },
    { name: 'bad escape', doc: { a: 1 }, patch: [{ op: 'remove', path: '/~2' }], kind: 'invalid-path' },
    { name: 'remove the root', doc: { a: 1 }, patch: [{ op: 'remove', path: '' }], kind: 'invalid-path' },
    { name: 'replace of index -', doc: [1], patch: [{ op: 'replace', path: '/-', value: 2 }], kind: 'invalid-path' },
    { name: 'traverse a scalar', doc: { a: 1 }, patch: [{ op: 'add', path: '/a/b', value: 2 }], kind: 'invalid-path' },
    {
      name: 'move into own child',
      doc: { a: { b: {} } },
      patch: [{ op: 'move', from: '/a', path: '/a/b/c' }],
      kind: 'invalid-operation',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const err = failure(c.doc, c.patch);
      assert.equal(err.kind, c.kind);
      if (c.message) assert.match(err.message, c.message);
      if (c.index !== undefined) assert.equal(err.operationIndex, c.index);
    });
  }

  it('rejects more operations than the limit (kube: 10000)', () => {
    const ops = Array.from({ length: 3 }, () => ({ op: 'test', path: '', value: {} }));
    assert.deepEqual(applyJsonPatch({}, ops, { maxOperations: 3 }), {});
    assert.throws(
      () => applyJsonPatch({}, [...ops, ops[0]], { maxOperations: 3 }),
      (e: unknown) =>
        e instanceof JsonPatchError &&
        e.kind === 'too-many-operations' &&
        e.message === 'The allowed maximum operations in a JSON patch is 3, got 4',
    );
  });

  it('limits the bytes copy operations add', () => {
    const doc = { a: 'x'.repeat(10) };
    assert.deepEqual(applyJsonPatch(doc, [{ op: 'copy', from: '/a', path: '/b' }], { maxCopyBytes: 12 }), {
      a: doc.a,
      b: doc.a,
    });
    const err = (() => {
      try {
        applyJsonPatch(
          doc,
          [
            { op: 'copy', from: '/a', path: '/b' },
            { op: 'copy', from: '/a', path: '/c' },
          ],
          { maxCopyBytes: 12 },
        );
      } catch (e) {
        return e;
      }
    })();
    assert.ok(err instanceof JsonPatchError && err.kind === 'invalid-operation');
    assert.equal(
      err.message,
      'Unable to complete the copy, the accumulated size increase of copy is 24, exceeding the limit 12',
    );
  });
});

describe('applyJsonPatch on API objects', () => {
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cm', namespace: 'default', labels: { 'app.orch.io/name': 'web' }, finalizers: ['a', 'b'] },
    data: { key: 'value' },
  };

  it('treats a null patch as empty, as kube decodes it', () => {
    assert.deepEqual(applyJsonPatch(configMap, null), configMap);
  });

  it('edits labels with an escaped key, appends with -, and guards with test', () => {
    const result = applyJsonPatch(configMap, [
      { op: 'test', path: '/metadata/labels/app.orch.io~1name', value: 'web' },
      { op: 'replace', path: '/metadata/labels/app.orch.io~1name', value: 'api' },
      { op: 'add', path: '/metadata/finalizers/-', value: 'c' },
      { op: 'remove', path: '/metadata/finalizers/0' },
      { op: 'add', path: '/data/other', value: 'x' },
    ]);
    assert.deepEqual(result, {
      ...configMap,
      metadata: { ...configMap.metadata, labels: { 'app.orch.io/name': 'api' }, finalizers: ['b', 'c'] },
      data: { key: 'value', other: 'x' },
    });
    assert.deepEqual(configMap.metadata.finalizers, ['a', 'b']);
  });

  it('compares numbers by value and objects regardless of member order', () => {
    const doc = { spec: { replicas: 3, selector: { a: '1', b: '2' } } };
    const patch = [
      { op: 'test', path: '/spec/replicas', value: 3.0 },
      { op: 'test', path: '/spec/selector', value: { b: '2', a: '1' } },
    ];
    assert.deepEqual(applyJsonPatch(doc, patch), doc);
    assert.equal(failure(doc, [{ op: 'test', path: '/spec/replicas', value: '3' }]).kind, 'test-failed');
  });

  it('returns a result that shares nothing with the patch values', () => {
    const value = { nested: ['x'] };
    const result = applyJsonPatch({}, [{ op: 'add', path: '/a', value }]) as { a: { nested: string[] } };
    result.a.nested.push('y');
    assert.deepEqual(value, { nested: ['x'] });
  });

  it('treats __proto__ as an ordinary member name', () => {
    const result = applyJsonPatch({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]) as Record<
      string,
      unknown
    >;
    assert.deepEqual(Object.keys(result), ['__proto__']);
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
