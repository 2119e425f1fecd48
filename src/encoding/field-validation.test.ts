import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pruneUnknownFields } from '../apis/schema/prune.js';
import type { Schema } from '../apis/schema/schema.js';
import { cannotBeHandledMessage, summarizeData, unrecognizedObjectMessage } from './decode-errors.js';
import { StrictDecodingError } from './errors.js';
import {
  fieldValidation,
  InvalidFieldValidationError,
  parseFieldValidation,
  splitYamlWarnings,
  strictDecodingErrors,
} from './field-validation.js';
import { decodeJsonStrict } from './json-strict.js';
import { WarningRecorder, warningHeaderValue } from './warnings.js';
import { decodeYamlStrict } from './yaml-decode.js';

const deploymentSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: {
      type: 'object',
      properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } },
    },
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        selector: { type: 'object', 'x-orch-preserve-unknown-fields': true },
        template: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                containers: {
                  type: 'array',
                  items: { type: 'object', properties: { name: { type: 'string' }, image: { type: 'string' } } },
                },
              },
            },
          },
        },
      },
    },
  },
};

/** Decode, prune against the schema, and list the strict errors, as a create handler would. */
function strictErrorsOf(text: string, kind: 'typed' | 'unstructured' = 'typed'): string[] {
  const { value, duplicates } = decodeJsonStrict(text);
  const unknown = pruneUnknownFields(deploymentSchema, value);
  return strictDecodingErrors({ unknown, duplicates, jsonText: text, kind });
}

// The body of the conformance test "should detect unknown and duplicate fields of a typed object".
const CONFORMANCE_BODY = `{
  "apiVersion": "apps/v1",
  "kind": "Deployment",
  "metadata": {"name": "my-dep", "labels": {"app": "nginx"}},
  "spec": {
    "unknownField": "foo",
    "replicas": 2,
    "replicas": 3,
    "selector": {"matchLabels": {"app": "nginx"}},
    "template": {"spec": {"containers": [{"name": "nginx", "image": "nginx:latest"}]}}
  }
}`;

describe('parseFieldValidation', () => {
  for (const [value, want] of [
    [undefined, 'Warn'],
    [null, 'Warn'],
    ['', 'Warn'],
    ['Ignore', 'Ignore'],
    ['Warn', 'Warn'],
    ['Strict', 'Strict'],
  ] as const) {
    it(`${JSON.stringify(value)} → ${want}`, () => assert.equal(parseFieldValidation(value), want));
  }
  it('rejects other values with the 422 kube answers', () => {
    let caught: unknown;
    assert.throws(
      () => parseFieldValidation('strict'),
      (e) => {
        caught = e;
        return e instanceof InvalidFieldValidationError;
      },
    );
    const status = (caught as InvalidFieldValidationError).toStatusError('CreateOptions', 'meta.orch.io').toStatus();
    assert.equal(status.code, 422);
    assert.equal(status.reason, 'Invalid');
    assert.equal(
      status.message,
      'CreateOptions.meta.orch.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
    );
    assert.deepEqual(status.details?.causes, [
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
        field: 'fieldValidation',
      },
    ]);
  });
});

describe('strictDecodingErrors', () => {
  it('passes the typed-object conformance check (document order)', () => {
    assert.throws(
      () => fieldValidation('Strict', strictErrorsOf(CONFORMANCE_BODY)),
      (e) =>
        e instanceof StrictDecodingError &&
        e.message === 'strict decoding error: unknown field "spec.unknownField", duplicate field "spec.replicas"',
    );
  });
  it('lists duplicates first and sorted unknown fields for custom resources', () => {
    assert.deepEqual(strictErrorsOf(CONFORMANCE_BODY, 'unstructured'), [
      'duplicate field "spec.replicas"',
      'unknown field "spec.unknownField"',
    ]);
  });
  it('reports nested unknown fields with kube paths', () => {
    const body =
      '{"metadata":{"name":"a","x":1},"spec":{"template":{"spec":{"containers":[{"name":"c","imagePullPolicyTwo":"x"}]}},"zeta":1,"alpha":2}}';
    assert.deepEqual(strictErrorsOf(body), [
      'unknown field "metadata.x"',
      'unknown field "spec.template.spec.containers[0].imagePullPolicyTwo"',
      'unknown field "spec.zeta"',
      'unknown field "spec.alpha"',
    ]);
    assert.deepEqual(strictErrorsOf(body, 'unstructured'), [
      'unknown field "metadata.x"',
      'unknown field "spec.alpha"',
      'unknown field "spec.template.spec.containers[0].imagePullPolicyTwo"',
      'unknown field "spec.zeta"',
    ]);
  });
  it('puts the go-yaml report first for YAML bodies and unknown fields in sorted-key order', () => {
    const yaml = 'spec:\n  zeta: 1\n  replicas: 1\n  replicas: 2\n  alpha: 2\nmetadata:\n  x: 1\n';
    const { value, duplicates } = decodeYamlStrict(yaml);
    const unknown = pruneUnknownFields(deploymentSchema, value);
    const errors = strictDecodingErrors({ unknown, yamlDuplicates: duplicates });
    assert.deepEqual(errors, [
      'yaml: unmarshal errors:\n  line 4: key "replicas" already set in map',
      'unknown field "metadata.x"',
      'unknown field "spec.alpha"',
      'unknown field "spec.zeta"',
    ]);
    assert.deepEqual(fieldValidation('Warn', errors).warnings, [
      'line 4: key "replicas" already set in map',
      'unknown field "metadata.x"',
      'unknown field "spec.alpha"',
      'unknown field "spec.zeta"',
    ]);
    assert.throws(
      () => fieldValidation('Strict', errors),
      (e) =>
        e instanceof StrictDecodingError &&
        e.message ===
          'strict decoding error: yaml: unmarshal errors:\n  line 4: key "replicas" already set in map, unknown field "metadata.x", unknown field "spec.alpha", unknown field "spec.zeta"',
    );
  });
  it('caps typed errors at 100', () => {
    const body = `{"spec":{${Array.from({ length: 120 }, (_, i) => `"u${i}":1`).join(',')}}}`;
    assert.equal(strictErrorsOf(body).length, 100);
  });
  it('quotes duplicate paths like strconv.Quote', () => {
    assert.deepEqual(strictDecodingErrors({ duplicates: ['metadata.labels.a"b'] }), [
      'duplicate field "metadata.labels.a\\"b"',
    ]);
  });
});

describe('fieldValidation', () => {
  const errors = ['unknown field "spec.x"', 'duplicate field "a"'];
  it('Ignore drops everything', () => assert.deepEqual(fieldValidation('Ignore', errors), { warnings: [] }));
  it('Warn gives one warning per field', () => assert.deepEqual(fieldValidation('Warn', errors), { warnings: errors }));
  it('Strict throws with every field', () => {
    assert.throws(
      () => fieldValidation('Strict', errors),
      (e) =>
        e instanceof StrictDecodingError &&
        e.message === 'strict decoding error: unknown field "spec.x", duplicate field "a"' &&
        e.errors.length === 2,
    );
  });
  it('Strict passes a clean body', () =>
    assert.deepEqual(fieldValidation('Strict', { unknown: [], duplicates: [] }), { warnings: [] }));
  it('accepts the report directly', () => {
    assert.deepEqual(
      fieldValidation('Warn', { unknown: ['spec.x'], duplicates: [{ path: 'a', offset: 0 }] }).warnings,
      ['duplicate field "a"', 'unknown field "spec.x"'],
    );
  });
  it('splits go-yaml reports like kube', () => {
    assert.deepEqual(
      splitYamlWarnings(
        'error converting YAML to JSON: yaml: unmarshal errors:\n  line 8: key "app" already set in map\n  line 11: key "tag" already set in map',
      ),
      ['line 8: key "app" already set in map', 'line 11: key "tag" already set in map'],
    );
    assert.deepEqual(splitYamlWarnings('unknown field "x"'), ['unknown field "x"']);
  });
});

describe('Warning headers', () => {
  it('formats and escapes', () => {
    assert.equal(warningHeaderValue('unknown field "spec.x"'), '299 - "unknown field \\"spec.x\\""');
    assert.equal(warningHeaderValue('back\\slash'), '299 - "back\\\\slash"');
    assert.equal(warningHeaderValue('a\nb'), undefined);
    assert.equal(warningHeaderValue('bad \ud800'), undefined);
    assert.equal(warningHeaderValue('x', 'bad agent'), undefined);
    assert.equal(warningHeaderValue('x', 'kube'), '299 kube "x"');
  });
  it('dedupes and keeps order', () => {
    const r = new WarningRecorder();
    for (const t of ['b', 'a', 'b', '', 'line\nbreak', 'c']) r.add(t);
    assert.deepEqual(r.headerValues(), ['299 - "b"', '299 - "a"', '299 - "c"']);
  });
  it('truncates every text to 256 characters once past 4096 in total', () => {
    const r = new WarningRecorder();
    const long = (c: string) => c.repeat(1000);
    for (const c of 'abcd') r.add(long(c));
    assert.equal(r.headerValues().length, 4);
    r.add(long('e'));
    assert.deepEqual(
      r.headerValues(),
      [...'abcde'].map((c) => `299 - "${c.repeat(256)}"`),
    );
    for (let i = 0; i < 20; i++) r.add(`${i}${long('f')}`);
    const total = r.headerValues().reduce((n, h) => n + h.length - 8, 0);
    assert.ok(total <= 4096 + 256, `total ${total}`);
  });
});

describe('decode error messages', () => {
  it('summarizes bodies like kube', () => {
    assert.equal(summarizeData(new Uint8Array()), '<empty>');
    assert.equal(
      summarizeData(Buffer.from('{"apiVersion":"v1","kind":"ConfigMap"}')),
      '{"apiVersion":"v1","kind":"Con ...',
    );
    assert.equal(summarizeData(Buffer.from('[1]')), '5b315d');
  });
  it('wraps strict errors for create and update', () => {
    assert.equal(
      cannotBeHandledMessage({
        kind: 'ConfigMap',
        version: 'v1',
        targetKind: 'ConfigMap',
        cause: new StrictDecodingError(['unknown field "x"']).message,
      }),
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "x"',
    );
    assert.equal(
      unrecognizedObjectMessage({ targetKind: 'ConfigMap', cause: 'boom', body: Buffer.from('') }),
      'the object provided is unrecognized (must be of type ConfigMap): boom (<empty>)',
    );
  });
});
