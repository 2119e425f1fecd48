import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../../apis/builtin.js';
import { buildOpenApiV2 } from '../../apis/openapi/documents.js';
import { decodeOpenApiV2, encodeOpenApiV2 } from './openapi-v2.js';
import { ProtoReader } from './wire-reader.js';

// biome-ignore lint/suspicious/noExplicitAny: documents are walked as plain JSON
type Json = any;

/** A message as `field number → values` (length-delimited values kept as bytes). */
type Wire = Map<number, Array<number | bigint | Uint8Array>>;

function wire(bytes: Uint8Array): Wire {
  const r = new ProtoReader(bytes);
  const out: Wire = new Map();
  while (r.pos < r.length) {
    const key = r.uint32(r.length);
    const num = key >>> 3;
    let v: number | bigint | Uint8Array;
    switch (key & 7) {
      case 0:
        v = r.int64(r.length);
        break;
      case 1:
        v = r.double(r.length);
        break;
      case 2:
        v = r.bytes(r.length);
        break;
      default:
        throw new Error(`unexpected wire type ${key & 7}`);
    }
    out.set(num, [...(out.get(num) ?? []), v]);
  }
  return out;
}

/** Follows field numbers (first occurrence of each) from the top message; returns the last value. */
function at(bytes: Uint8Array, path: readonly number[]): number | bigint | Uint8Array {
  let cur: number | bigint | Uint8Array = bytes;
  for (const num of path) {
    assert.ok(cur instanceof Uint8Array, `field ${num} is inside a message`);
    const values = wire(cur).get(num);
    assert.ok(values, `field ${num} present on path ${path.join('.')}`);
    cur = values[0];
  }
  return cur;
}
const text = (v: unknown) => Buffer.from(v as Uint8Array).toString('utf8');

/** What proto3 keeps of a JSON document: scalars at their zero value are not written. */
function proto3View(v: Json, key = ''): Json {
  if (key === 'default' || key === 'example' || key === 'enum' || key.startsWith('x-')) return v;
  if (Array.isArray(v)) return v.map((x) => proto3View(x));
  if (v === null || typeof v !== 'object') return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) {
    // Values held as YAML text (defaults, examples, enums, extensions) travel even when zero.
    const asYaml = k === 'default' || k === 'example' || k === 'enum' || k.startsWith('x-');
    if (!asYaml && (x === false || x === '' || x === 0)) continue;
    out[k] = proto3View(x, k);
  }
  return out;
}

describe('OpenAPI v2 as gnostic protobuf', () => {
  it('places every member at the field numbers of openapiv2/OpenAPIv2.proto', () => {
    const doc = {
      swagger: '2.0',
      info: { title: 'T', version: 'v' },
      paths: {
        '/a': {
          get: {
            operationId: 'o',
            parameters: [{ in: 'query', name: 'q', type: 'string', uniqueItems: true }],
            responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/D' } } },
            'x-kubernetes-action': 'get',
          },
        },
      },
      definitions: {
        D: {
          type: 'object',
          required: ['p'],
          properties: { p: { type: 'string', default: 'd' } },
          'x-kubernetes-group-version-kind': [{ group: '', kind: 'D', version: 'v1' }],
        },
      },
      securityDefinitions: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header' } },
      security: [{ BearerToken: [] }],
    };
    const b = encodeOpenApiV2(doc);
    assert.equal(text(at(b, [1])), '2.0');
    assert.equal(text(at(b, [2, 1])), 'T');
    assert.equal(text(at(b, [2, 2])), 'v');
    // paths(8) → path(2) → value(2) → get(2)
    const get = [8, 2, 2, 2];
    assert.equal(text(at(b, [8, 2, 1])), '/a');
    assert.equal(text(at(b, [...get, 5])), 'o');
    // parameters(8) → parameter(1) → non_body_parameter(2) → query_parameter_sub_schema(3)
    const query = [...get, 8, 1, 2, 3];
    assert.equal(text(at(b, [...query, 2])), 'query');
    assert.equal(text(at(b, [...query, 4])), 'q');
    assert.equal(text(at(b, [...query, 6])), 'string');
    assert.equal(at(b, [...query, 20]), 1);
    // responses(9) → response_code(1) → value(2) → response(1) → schema(2) → schema(1) → _ref(1)
    assert.equal(text(at(b, [...get, 9, 1, 1])), '200');
    assert.equal(text(at(b, [...get, 9, 1, 2, 1, 1])), 'OK');
    assert.equal(text(at(b, [...get, 9, 1, 2, 1, 2, 1, 1])), '#/definitions/D');
    // vendor_extension(13) → NamedAny { name(1), value(2) → Any { yaml(2) } }
    assert.equal(text(at(b, [...get, 13, 1])), 'x-kubernetes-action');
    assert.equal(text(at(b, [...get, 13, 2, 2])), 'get\n');
    // definitions(9) → additional_properties(1) → value(2): Schema
    const schema = [9, 1, 2];
    assert.equal(text(at(b, [9, 1, 1])), 'D');
    assert.equal(text(at(b, [...schema, 22, 1])), 'object');
    assert.equal(text(at(b, [...schema, 19])), 'p');
    assert.equal(text(at(b, [...schema, 25, 1, 1])), 'p');
    assert.equal(text(at(b, [...schema, 25, 1, 2, 5, 2])), 'd\n');
    assert.equal(text(at(b, [...schema, 31, 1])), 'x-kubernetes-group-version-kind');
    assert.match(text(at(b, [...schema, 31, 2, 2])), /^- group: ""\n {2}kind: D\n {2}version: v1\n$/);
    // security_definitions(13) → additional_properties(1) → value(2) → api_key_security(2)
    assert.equal(text(at(b, [13, 1, 2, 2, 2])), 'authorization');
    // security(12) → additional_properties(1) → name(1)
    assert.equal(text(at(b, [12, 1, 1])), 'BearerToken');
  });

  it('round-trips every member of the served document that proto3 can carry', () => {
    const doc = JSON.parse(JSON.stringify(buildOpenApiV2(builtinResources())));
    assert.deepEqual(decodeOpenApiV2(encodeOpenApiV2(doc)), proto3View(doc));
  });

  it('chooses the oneof alternative a JSON value stands for', () => {
    const doc = {
      swagger: '2.0',
      info: { title: 'T', version: 'v' },
      parameters: {
        body: { in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/X' } },
        header: { in: 'header', name: 'h', type: 'string' },
        form: { in: 'formData', name: 'f', type: 'file', allowEmptyValue: true },
        path: { in: 'path', name: 'p', required: true, type: 'integer', maximum: 3.5, minLength: 1 },
      },
      responses: {
        file: { description: 'a file', schema: { type: 'file' } },
        headers: { description: 'h', headers: { 'X-A': { type: 'array', items: { type: 'string' } } } },
      },
      paths: {
        'x-root': { a: 1 },
        '/p': {
          parameters: [{ $ref: '#/parameters/header' }],
          post: { responses: { default: { $ref: '#/responses/file' } }, security: [{ oauth: ['read', 'write'] }] },
        },
      },
      definitions: {
        X: {
          type: ['object', 'null'],
          additionalProperties: false,
          items: [{ type: 'string' }, { type: 'integer', enum: [1, 2] }],
          allOf: [{ $ref: '#/definitions/Y' }],
          xml: { name: 'x', wrapped: true },
        },
        Y: { additionalProperties: { type: 'string' }, items: { type: 'boolean' }, example: { a: [1] } },
      },
      securityDefinitions: {
        basic: { type: 'basic' },
        implicit: { type: 'oauth2', flow: 'implicit', authorizationUrl: 'https://a', scopes: { read: 'r' } },
        code: { type: 'oauth2', flow: 'accessCode', authorizationUrl: 'https://a', tokenUrl: 'https://t' },
      },
      tags: [{ name: 't', externalDocs: { url: 'https://d' } }],
      'x-top': 'level',
    };
    const b = encodeOpenApiV2(doc);
    assert.deepEqual(decodeOpenApiV2(b), doc);
    // parameters(10) → additional_properties(1) → value(2): Parameter → body_parameter(1)
    assert.equal(text(at(b, [10, 1, 2, 1, 2])), 'body');
    // The file schema of a response is the second alternative of SchemaItem.
    assert.equal(text(at(b, [11, 1, 2, 2, 2, 6])), 'file');
    // additionalProperties: false is written, as a oneof member.
    assert.equal(at(b, [9, 1, 2, 21, 2]), 0);
  });
});
