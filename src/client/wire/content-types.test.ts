import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContentTypeConfigError, type ContentTypeSettings, resolveContentTypes } from './content-types.js';

const PB = 'application/vnd.kubernetes.protobuf';
const OWN_PB = 'application/vnd.example.protobuf';

describe('resolveContentTypes', () => {
  // [case, settings, with Protobuf {contentType, bodyFormat, accept}, without Protobuf {…}]
  const cases: [string, ContentTypeSettings, [string, string, string], [string, string, string]][] = [
    [
      'defaults',
      {},
      ['application/json', 'json', 'application/json'],
      ['application/json', 'json', 'application/json'],
    ],
    [
      'Protobuf with client-go default Accept',
      { contentType: PB },
      [PB, 'protobuf', `${PB}, */*`],
      ['application/json', 'json', 'application/json, */*'],
    ],
    [
      "the profile's own Protobuf type",
      { contentType: OWN_PB, acceptContentTypes: `${OWN_PB},application/json` },
      [OWN_PB, 'protobuf', `${OWN_PB},application/json`],
      ['application/json', 'json', 'application/json'],
    ],
    [
      'the controller manager pair',
      { contentType: PB, acceptContentTypes: `${PB},application/json` },
      [PB, 'protobuf', `${PB},application/json`],
      ['application/json', 'json', 'application/json'],
    ],
    [
      'only Protobuf accepted: JSON for kinds without it',
      { acceptContentTypes: PB },
      ['application/json', 'json', PB],
      ['application/json', 'json', 'application/json'],
    ],
    [
      'CBOR bodies, CBOR then JSON accepted',
      { contentType: 'application/cbor', acceptContentTypes: 'application/cbor, application/json' },
      ['application/cbor', 'cbor', 'application/cbor,application/json'],
      ['application/cbor', 'cbor', 'application/cbor,application/json'],
    ],
    [
      'JSON bodies, CBOR responses',
      { contentType: 'application/json', acceptContentTypes: 'application/cbor' },
      ['application/json', 'json', 'application/cbor'],
      ['application/json', 'json', 'application/cbor'],
    ],
    [
      'parameters and wildcards kept',
      { acceptContentTypes: 'application/json;q=0.9, application/yaml, */*' },
      ['application/json', 'json', 'application/json;q=0.9,application/yaml,*/*'],
      ['application/json', 'json', 'application/json;q=0.9,application/yaml,*/*'],
    ],
  ];
  for (const [what, settings, withPb, withoutPb] of cases) {
    it(what, () => {
      const got = resolveContentTypes(settings, OWN_PB);
      assert.deepEqual(
        [got.withProtobuf.contentType, got.withProtobuf.bodyFormat, got.withProtobuf.accept],
        withPb,
        'with Protobuf',
      );
      assert.deepEqual(
        [got.withoutProtobuf.contentType, got.withoutProtobuf.bodyFormat, got.withoutProtobuf.accept],
        withoutPb,
        'without Protobuf',
      );
    });
  }

  it('lists every unusable setting with its field', () => {
    let err: unknown;
    try {
      resolveContentTypes(
        { contentType: 'application/yaml', acceptContentTypes: 'application/json, text/plain, application/x;;=' },
        OWN_PB,
      );
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof ContentTypeConfigError);
    assert.deepEqual(
      err.problems.map((p) => p.split(':')[0]),
      ['contentType', 'acceptContentTypes[1]', 'acceptContentTypes[2]'],
    );
    assert.match(err.problems[0], /unsupported media type "application\/yaml"/);
  });
});
