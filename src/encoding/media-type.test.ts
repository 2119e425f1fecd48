import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MediaTypeParseError, UnsupportedMediaTypeError } from './errors.js';
import {
  type AcceptClause,
  acceptClauseMatches,
  mediaTypeEssence,
  parseAccept,
  parseContentType,
  preferredMediaType,
} from './media-type.js';
import { negotiatePatchType, negotiateRequestMedia } from './request-media.js';

describe('parseContentType (Go mime.ParseMediaType)', () => {
  const ok: [string, string, Record<string, string>][] = [
    ['application/json', 'application/json', {}],
    ['Application/JSON; Charset=UTF-8', 'application/json', { charset: 'UTF-8' }],
    ['  application/yaml  ', 'application/yaml', {}],
    ['application/json;', 'application/json', {}],
    ['application/json; charset="utf-8"', 'application/json', { charset: 'utf-8' }],
    ['text/plain; x="a\\"b"', 'text/plain', { x: 'a"b' }],
    ['json', 'json', {}],
  ];
  for (const [header, mediaType, params] of ok) {
    it(`parses ${JSON.stringify(header)}`, () => {
      assert.deepEqual(parseContentType(header), { mediaType, params });
    });
  }
  const bad: [string, string][] = [
    ['', 'mime: no media type'],
    ['/json', 'mime: no media type'],
    ['application json', 'mime: expected slash after first token'],
    ['application/', 'mime: expected token after slash'],
    ['application/json/x', 'mime: unexpected content after media subtype'],
    ['application/json; charset', 'mime: invalid media parameter'],
    ['application/json; a=1; A=2', 'mime: duplicate parameter name'],
    ['application/json; a="unterminated', 'mime: invalid media parameter'],
  ];
  for (const [header, message] of bad) {
    it(`rejects ${JSON.stringify(header)}`, () => {
      assert.throws(
        () => parseContentType(header),
        (e) => e instanceof MediaTypeParseError && e.message === message,
      );
    });
  }
});

describe('parseAccept (goautoneg)', () => {
  const order = (header: string) => parseAccept(header).map((c) => `${c.type}/${c.subType}`);
  it('orders by q, then specificity, keeping header order among equals', () => {
    // Expected order computed by goautoneg itself; its comparison is not transitive.
    assert.deepEqual(order('*/*;q=0.8, text/*, application/json;q=0.9, application/yaml'), [
      'application/yaml',
      'application/json',
      'text/*',
      '*/*',
    ]);
  });
  it('parses parameters without unquoting and q as float32', () => {
    assert.deepEqual(parseAccept('application/json ; as="x" ;q=0.3;pretty=1'), [
      { type: 'application', subType: 'json', q: Math.fround(0.3), params: { as: '"x"', pretty: '1' } },
    ]);
  });
  it('drops malformed ranges and parameters', () => {
    assert.deepEqual(parseAccept('a/b/c, foo, */, text/plain;bad;k=;x=1=2;y=2='), [
      { type: 'text', subType: 'plain', q: 1, params: { y: '2' } },
      { type: '*', subType: '*', q: 1, params: {} },
    ]);
  });
  it('reads an unparsable q as 0', () => {
    assert.equal(parseAccept('text/plain;q= 0.5')[0].q, 0);
    assert.equal(parseAccept('text/plain;q=abc')[0].q, 0);
  });
});

describe('parseAccept table (goautoneg, clause by clause)', () => {
  const clause = (type: string, subType: string, q = 1, params: Record<string, string> = {}): AcceptClause => ({
    type,
    subType,
    q,
    params,
  });
  const cases: [name: string, header: string, expected: AcceptClause[]][] = [
    ['a plain media type', 'application/json', [clause('application', 'json')]],
    ['the empty header', '', []],
    ['spaces around the clause', '   application/json  ', [clause('application', 'json')]],
    ['spaces around type and subtype', 'application / json', [clause('application', 'json')]],
    ['tabs, which are kept', '\tapplication/json', [clause('\tapplication', 'json')]],
    ['case, which is kept', 'Application/JSON', [clause('Application', 'JSON')]],
    ['empty clauses', ',, application/json ,', [clause('application', 'json')]],
    ['a parameter', 'application/json;charset=utf-8', [clause('application', 'json', 1, { charset: 'utf-8' })]],
    [
      'spaces around parameter names and values',
      'application/json ; as = Table ;g=meta.orch.io',
      [clause('application', 'json', 1, { as: 'Table', g: 'meta.orch.io' })],
    ],
    [
      'a quoted value, quotes kept',
      'application/json;as="Table"',
      [clause('application', 'json', 1, { as: '"Table"' })],
    ],
    [
      'a quoted value holding ";" (split anyway)',
      'application/json;x="a;b"',
      [clause('application', 'json', 1, { x: '"a' })],
    ],
    [
      'a quoted value holding "," (split anyway)',
      'application/json;x="a,b"',
      [clause('application', 'json', 1, { x: '"a' })],
    ],
    ['a parameter without value', 'text/plain;flag', [clause('text', 'plain')]],
    ['a parameter with two "="', 'text/plain;x=1=2', [clause('text', 'plain')]],
    ['a later duplicate parameter', 'text/plain;x=1;x=2', [clause('text', 'plain', 1, { x: '2' })]],
    ['q', 'text/plain;q=0.5', [clause('text', 'plain', 0.5)]],
    ['q as float32', 'text/plain;q=0.3', [clause('text', 'plain', Math.fround(0.3))]],
    ['q without leading digit', 'text/plain;q=.25', [clause('text', 'plain', 0.25)]],
    ['q with exponent', 'text/plain;q=5e-1', [clause('text', 'plain', 0.5)]],
    ['q=0, kept', 'text/plain;q=0', [clause('text', 'plain', 0)]],
    ['q above 1, kept', 'text/plain;q=2', [clause('text', 'plain', 2)]],
    ['q with a space before the value', 'text/plain;q= 0.5', [clause('text', 'plain', 0)]],
    ['q unparsable', 'text/plain;q=high', [clause('text', 'plain', 0)]],
    ['q empty, ignored', 'text/plain;q=', [clause('text', 'plain')]],
    ['Q, an ordinary parameter', 'text/plain;Q=0.5', [clause('text', 'plain', 1, { Q: '0.5' })]],
    ['q next to parameters', 'text/plain;a=1;q=0.5;b=2', [clause('text', 'plain', 0.5, { a: '1', b: '2' })]],
    ['the full wildcard', '*/*', [clause('*', '*')]],
    ['a bare "*"', '*', [clause('*', '*')]],
    ['"*/" read as the full wildcard', '*/', [clause('*', '*')]],
    ['a subtype wildcard', 'text/*', [clause('text', '*')]],
    ['a type without subtype, dropped', 'text', []],
    ['an empty subtype, dropped', 'text/', []],
    ['two slashes, dropped', 'a/b/c', []],
  ];
  for (const [name, header, expected] of cases) {
    it(name, () => assert.deepEqual(parseAccept(header), expected));
  }
});

describe('acceptClauseMatches', () => {
  const cases: [header: string, type: string, subType: string, matches: boolean][] = [
    ['application/json', 'application', 'json', true],
    ['application/*', 'application', 'json', true],
    ['*/*', 'application', 'yaml', true],
    ['*/json', 'application', 'json', false],
    ['application/yaml', 'application', 'json', false],
    ['Application/json', 'application', 'json', false],
  ];
  for (const [header, type, subType, matches] of cases) {
    it(`${header} ${matches ? 'admits' : 'does not admit'} ${type}/${subType}`, () => {
      assert.equal(acceptClauseMatches(parseAccept(header)[0], type, subType), matches);
    });
  }
});

describe('preferredMediaType', () => {
  const offered = ['application/json', 'application/yaml'];
  const cases: [accept: string | undefined, expected: string | undefined][] = [
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['application/yaml', 'application/yaml'],
    ['application/yaml, application/json', 'application/yaml'],
    ['application/yaml;q=0.5, application/json', 'application/json'],
    ['*/*;q=0.1, application/yaml;q=0.2', 'application/yaml'],
    ['application/*', 'application/json'],
    ['text/html, */*', 'application/json'],
    ['text/html', undefined],
    ['application/vnd.orch.protobuf', undefined],
  ];
  for (const [accept, expected] of cases) {
    it(`${JSON.stringify(accept)} → ${expected}`, () => assert.equal(preferredMediaType(accept, offered), expected));
  }
});

describe('mediaTypeEssence', () => {
  const cases: [string, string][] = [
    ['application/json', 'application/json'],
    [' Application/YAML ; charset=utf-8', 'application/yaml'],
    ['application/vnd.kubernetes.protobuf;stream=watch', 'application/vnd.kubernetes.protobuf'],
    ['', ''],
  ];
  for (const [header, essence] of cases) {
    it(`${JSON.stringify(header)} → ${JSON.stringify(essence)}`, () => assert.equal(mediaTypeEssence(header), essence));
  }
});

describe('negotiateRequestMedia', () => {
  const opts = { cborEnabled: false };
  const ACCEPTED =
    'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.orch.protobuf';
  const cases: [string | undefined, string | { error: string }][] = [
    [undefined, 'json'],
    ['', 'json'],
    ['application/json', 'json'],
    ['application/json; charset=utf-8', 'json'],
    ['APPLICATION/YAML', 'yaml'],
    ['application/vnd.kubernetes.protobuf', 'protobuf'],
    ['application/vnd.orch.protobuf', 'protobuf'],
    ['application/cbor', { error: ACCEPTED }],
    ['text/plain', { error: ACCEPTED }],
    ['application/json; charset', { error: ACCEPTED }],
    ['application/merge-patch+json', { error: ACCEPTED }],
  ];
  for (const [header, want] of cases) {
    it(`Content-Type ${JSON.stringify(header)}`, () => {
      if (typeof want === 'string') {
        assert.equal(negotiateRequestMedia(header, opts).encoding, want);
      } else {
        assert.throws(
          () => negotiateRequestMedia(header, opts),
          (e) => e instanceof UnsupportedMediaTypeError && e.message === want.error,
        );
      }
    });
  }
  it('accepts CBOR with the gate, and lists it', () => {
    assert.equal(negotiateRequestMedia('application/cbor', { cborEnabled: true }).encoding, 'cbor');
    assert.throws(
      () => negotiateRequestMedia('text/plain', { cborEnabled: true }),
      (e) => e instanceof UnsupportedMediaTypeError && e.message.endsWith(', application/cbor'),
    );
  });
  it('can refuse protobuf for custom resources', () => {
    assert.throws(
      () =>
        negotiateRequestMedia('application/vnd.kubernetes.protobuf', {
          cborEnabled: false,
          encodings: ['json', 'yaml'],
        }),
      UnsupportedMediaTypeError,
    );
  });
  it('gives the 415 Status', () => {
    const status = new UnsupportedMediaTypeError('text/plain', ['application/json']).toStatusError().toStatus();
    assert.equal(status.code, 415);
    assert.equal(status.reason, 'UnsupportedMediaType');
    assert.equal(status.details, undefined);
  });
});

describe('negotiatePatchType', () => {
  const builtin = { strategicMerge: true, cborEnabled: false };
  const cases: [string | undefined, string | { error: string }][] = [
    ['application/json-patch+json', 'json-patch'],
    ['application/merge-patch+json; charset=utf-8', 'merge-patch'],
    ['application/strategic-merge-patch+json', 'strategic-merge-patch'],
    ['application/apply-patch+yaml', 'apply-yaml'],
    [
      'Application/Merge-Patch+JSON',
      {
        error:
          'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
      },
    ],
    [
      undefined,
      {
        error:
          'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
      },
    ],
  ];
  for (const [header, want] of cases) {
    it(`Content-Type ${JSON.stringify(header)}`, () => {
      if (typeof want === 'string') assert.equal(negotiatePatchType(header, builtin).patchType, want);
      else {
        assert.throws(
          () => negotiatePatchType(header, builtin),
          (e) => e instanceof UnsupportedMediaTypeError && e.message === want.error,
        );
      }
    });
  }
  it('has no strategic merge for custom resources and apply CBOR only with the gate', () => {
    assert.throws(
      () => negotiatePatchType('application/strategic-merge-patch+json', { strategicMerge: false, cborEnabled: true }),
      (e) =>
        e instanceof UnsupportedMediaTypeError &&
        e.message ===
          'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/apply-patch+cbor',
    );
    assert.equal(
      negotiatePatchType('application/apply-patch+cbor', { strategicMerge: false, cborEnabled: true }).patchType,
      'apply-cbor',
    );
  });
});
