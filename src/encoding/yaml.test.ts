import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UnsupportedValueError, YamlSyntaxError } from './errors.js';
import { decodeYamlStrict, yamlStrictErrorText } from './yaml-decode.js';
import { encodeYaml, yamlKeyLess } from './yaml-encode.js';
import { resolvePlainScalar } from './yaml-resolve.js';

// Every expected text below is what sigs.k8s.io/yaml (go-yaml v2) produces for the same input.

describe('encodeYaml', () => {
  it('writes an object as kube does', () => {
    const obj = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'cm',
        namespace: 'default',
        creationTimestamp: '2024-01-02T03:04:05Z',
        labels: { app: 'web', tier: '1' },
        annotations: {},
      },
      data: {
        'a.txt': 'line1\nline2\n',
        b: '',
        c: 'true',
        d: 'yes',
        e: '0x1F',
        f: 'a: b',
        g: ' lead',
        h: 'trail ',
        i: '#x',
        j: "it's",
        k: 'x\ty',
        l: '1:20',
        m: '~',
      },
      list: [],
      items: [{ name: 'a', value: 1.5 }, { name: 'b' }],
      n: null,
      num: [0, -1, 1e21, 123456789.5, 0.00001],
      skipped: undefined,
    };
    assert.equal(
      encodeYaml(obj),
      `apiVersion: v1
data:
  a.txt: |
    line1
    line2
  b: ""
  c: "true"
  d: "yes"
  e: "0x1F"
  f: 'a: b'
  g: ' lead'
  h: 'trail '
  i: '#x'
  j: it's
  k: "x\\ty"
  l: "1:20"
  m: "~"
items:
- name: a
  value: 1.5
- name: b
kind: ConfigMap
list: []
metadata:
  annotations: {}
  creationTimestamp: "2024-01-02T03:04:05Z"
  labels:
    app: web
    tier: "1"
  name: cm
  namespace: default
"n": null
num:
- 0
- -1
- 1e+21
- 1.234567895e+08
- 1e-05
`,
    );
  });

  it("sorts keys in go-yaml's natural order", () => {
    assert.equal(
      encodeYaml({ keys: { a10: 1, a2: 2, a1: 3, b: 4, A: 5, _: 6, '1': 7, '10': 8, '2': 9 } }),
      'keys:\n  _: 6\n  "1": 7\n  "2": 9\n  "10": 8\n  A: 5\n  a1: 3\n  a2: 2\n  a10: 1\n  b: 4\n',
    );
    assert.equal(yamlKeyLess('a2', 'a10'), true);
  });

  it('folds long scalars at column 80', () => {
    assert.equal(
      encodeYaml({
        desc: 'A long plain value that the encoder breaks at a space once a line passes column eighty, then goes on with the rest of the value indented by two spaces, as go-yaml writes it.',
        q: 'It\'s: a "quoted" value that is long enough to need folding because it goes past the eighty column limit',
      }),
      `desc: A long plain value that the encoder breaks at a space once a line passes column
  eighty, then goes on with the rest of the value indented by two spaces, as go-yaml
  writes it.
q: 'It''s: a "quoted" value that is long enough to need folding because it goes past
  the eighty column limit'
`,
    );
  });

  it('chooses literal block chomping and escapes what is not printable', () => {
    assert.equal(
      encodeYaml({
        lit: 'keep\n\n',
        strip: 'no newline\nat end',
        lead: '\n leading',
        uni: '😀 é 日本',
        bom: '\ufeffx',
      }),
      'bom: "\\uFEFF\\x78"\nlead: |2-\n\n   leading\nlit: |+\n  keep\n\nstrip: |-\n  no newline\n  at end\nuni: "\\U0001F600 é 日本"\n',
    );
  });

  it('writes sequences, scalars and null documents', () => {
    assert.equal(encodeYaml([1, 'two', [3, []], {}]), '- 1\n- two\n- - 3\n  - []\n- {}\n');
    assert.equal(encodeYaml('just a string'), 'just a string\n');
    assert.equal(encodeYaml(null), 'null\n');
    assert.equal(
      encodeYaml({ x: { y: { z: [{ a: [{ b: 'c' }] }] } } }),
      'x:\n  "y":\n    z:\n    - a:\n      - b: c\n',
    );
  });

  it('refuses what JSON cannot hold', () => {
    assert.throws(
      () => encodeYaml({ a: Number.NaN }),
      (e) => e instanceof UnsupportedValueError && e.message === 'json: unsupported value: NaN',
    );
  });
});

describe('resolvePlainScalar', () => {
  const cases: [string, string, unknown][] = [
    ['yes', 'bool', true],
    ['Off', 'bool', false],
    ['~', 'null', null],
    ['', 'null', null],
    ['017', 'int', 15],
    ['0o17', 'int', 15],
    ['0x1F', 'int', 31],
    ['-0b11', 'int', -3],
    ['1_000', 'int', 1000],
    ['08', 'float', 8],
    ['1e3', 'float', 1000],
    ['.5', 'float', 0.5],
    ['.5_1', 'float', 0.51],
    ['1e400', 'str', '1e400'],
    ['1:20', 'str', '1:20'],
    ['2024-01-01', 'timestamp', '2024-01-01'],
    ['2024-02-30', 'str', '2024-02-30'],
    ['2024-1-2 3:4:5.5', 'timestamp', '2024-1-2 3:4:5.5'],
    ['<<', 'str', '<<'],
    ['yesterday', 'str', 'yesterday'],
  ];
  for (const [text, tag, value] of cases) {
    it(`${JSON.stringify(text)} is ${tag}`, () => {
      assert.deepEqual(resolvePlainScalar(text), { tag, value });
    });
  }
});

describe('decodeYamlStrict', () => {
  const values: [string, unknown][] = [
    ['a: yes\nb: No\nc: on\nd: OFF\ne: y\nf: "yes"\n', { a: true, b: false, c: true, d: false, e: true, f: 'yes' }],
    [
      'a: 017\nb: 0o17\nc: 0x1F\nd: 1_000\ne: +5\nf: -0b11\ng: 08\nh: 1e3\ni: .5\nj: 1.\nk: 1:20\n',
      { a: 15, b: 15, c: 31, d: 1000, e: 5, f: -3, g: 8, h: 1000, i: 0.5, j: 1, k: '1:20' },
    ],
    [
      'a: 2024-01-01\nb: 2024-01-01T10:00:00Z\nc: ~\nd:\ne: null\n',
      { a: '2024-01-01', b: '2024-01-01T10:00:00Z', c: null, d: null, e: null },
    ],
    ['1: a\n1.5: c\ntrue: d\n', { '1': 'a', '1.5': 'c', true: 'd' }],
    ['a: &x\n  b: 1\nc:\n  <<: *x\n  d: 2\n', { a: { b: 1 }, c: { b: 1, d: 2 } }],
    ['a: |\n  lit\n  eral\nb: >\n  fold\n  ed\nc: |-\n  x\n', { a: 'lit\neral\n', b: 'fold ed\n', c: 'x' }],
    ['a: !!str 1\nb: !!float 1\nc: !!binary aGVsbG8=\nd: !foo bar\n', { a: '1', b: 1, c: 'hello', d: 'bar' }],
    ['', null],
    ['# c\n', null],
    ['a: 1\n---\nb: 2\n', { a: 1 }],
    ['- a\n- b: c\n', ['a', { b: 'c' }]],
  ];
  for (const [text, value] of values) {
    it(`decodes ${JSON.stringify(text)}`, () => {
      assert.deepEqual(decodeYamlStrict(text), { value, duplicates: [] });
    });
  }

  const duplicates: [string, unknown, string[]][] = [
    ['a: &x\n  b: 1\nc:\n  <<: *x\n  b: 2\n', { a: { b: 1 }, c: { b: 2 } }, ['line 5: key "b" already set in map']],
    [
      'a: 1\nb:\n  c: 1\n  c: 2\nb: 3\n',
      { a: 1, b: 3 },
      ['line 4: key "c" already set in map', 'line 5: key "b" already set in map'],
    ],
    [
      'a: "x"\na: "y"\na: z\n',
      { a: 'z' },
      ['line 2: key "a" already set in map', 'line 3: key "a" already set in map'],
    ],
    ['? a\n: 1\n? a\n: 2\n', { a: 2 }, ['line 4: key "a" already set in map']],
    [
      '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "labels": {"a": "1", "a": "2"}}}',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { a: '2' } } },
      ['line 1: key "a" already set in map'],
    ],
  ];
  for (const [text, value, dups] of duplicates) {
    it(`reports duplicates in ${JSON.stringify(text)}`, () => {
      assert.deepEqual(decodeYamlStrict(text), { value, duplicates: dups });
    });
  }
  it("words the strict error as go-yaml's", () => {
    assert.equal(
      yamlStrictErrorText(decodeYamlStrict('a: 1\nb:\n  c: 1\n  c: 2\nb: 3\n').duplicates),
      'yaml: unmarshal errors:\n  line 4: key "c" already set in map\n  line 5: key "b" already set in map',
    );
  });

  const errors: [string, string][] = [
    ['a: b: c\n', 'yaml: mapping values are not allowed in this context'],
    ['x: 1\na: b: c\n', 'yaml: line 2: mapping values are not allowed in this context'],
    ['a:\n  b: 1\n c: 2\n', 'yaml: line 2: did not find expected key'],
    ['a:\n\tb: 1\n', 'yaml: line 2: found character that cannot start any token'],
    ['a: "foo\nb: 2\n', 'yaml: line 3: found unexpected end of stream'],
    ['a: [1, 2\nb: 3\n', "yaml: line 1: did not find expected ',' or ']'"],
    ['a: 1\n- b\n', 'yaml: line 1: did not find expected key'],
    ['a: @foo\n', 'yaml: found character that cannot start any token'],
    ['foo\nbar: 1\n', 'yaml: line 2: mapping values are not allowed in this context'],
    ['{a: 1\n', "yaml: line 1: did not find expected ',' or '}'"],
    ['a:\n  - b\n  c: 1\n', "yaml: line 2: did not find expected '-' indicator"],
    ['a: *x\n', "yaml: unknown anchor 'x' referenced"],
    ['a: &a [*a]\n', "yaml: anchor 'a' value contains itself"],
    ['a: !!int x\n', 'yaml: cannot decode !!str `x` as a !!int'],
    ['~: 1\n', 'unsupported map key of type: %!s(<nil>), key: <nil>, value: 1'],
  ];
  for (const [text, message] of errors) {
    it(`fails on ${JSON.stringify(text)}`, () => {
      assert.throws(
        () => decodeYamlStrict(text),
        (e) => e instanceof YamlSyntaxError && e.message === message,
      );
    });
  }
  it('refuses infinities as JSON does', () => {
    assert.throws(
      () => decodeYamlStrict('a: .inf\n'),
      (e) => e instanceof UnsupportedValueError && e.message === 'json: unsupported value: +Inf',
    );
  });
  it('stops billion-laughs expansion', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${prev}`).join(',')}]`,
      );
    }
    assert.throws(
      () => decodeYamlStrict(`${lines.join('\n')}\n`),
      (e) => e instanceof YamlSyntaxError && e.message === 'yaml: document contains excessive aliasing',
    );
  });

  it('holds nesting to its maximum depth with a message of ours, however deep the text goes', () => {
    const flow = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}\n`;
    const block = (n: number) => Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    assert.equal(JSON.stringify(decodeYamlStrict(flow(500)).value), flow(500).trim());
    assert.equal(decodeYamlStrict(`${block(500)} 1\n`).duplicates.length, 0);
    const deep: Array<[string, string]> = [
      [`a: 1\nb: ${flow(10_000)}`, 'yaml: line 2: exceeded max depth of 500'],
      [`${block(1_000)} 1\n`, 'yaml: line 501: exceeded max depth of 500'],
      [`${'- '.repeat(10_000)}x\n`, 'yaml: line 1: exceeded max depth of 500'],
      // Aliases nest what they refer to: the decoded depth counts.
      [`a: &x ${flow(400)}b: ${'['.repeat(200)}*x${']'.repeat(200)}\n`, 'yaml: line 1: exceeded max depth of 500'],
    ];
    for (const [text, message] of deep) {
      assert.throws(
        () => decodeYamlStrict(text),
        (e) => e instanceof YamlSyntaxError && e.message === message,
        message,
      );
    }
    // Only the first document is read, as go-yaml does: a deep one after it does not matter.
    assert.deepEqual(decodeYamlStrict(`a: 1\n---\n${flow(10_000)}`).value, { a: 1 });
  });
});
