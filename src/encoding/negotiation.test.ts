import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NotAcceptableError } from './errors.js';
import {
  type NegotiationOptions,
  negotiateErrorOutput,
  negotiateOutput,
  negotiateWatch,
  supportedMediaTypes,
} from './negotiation.js';

const base: NegotiationOptions = { cborEnabled: false };
const ALL =
  'only the following media types are accepted: application/json, application/yaml, application/vnd.orch.protobuf';
const ALL_CBOR = `${ALL}, application/cbor`;
const STREAMS =
  'only the following media types are accepted: application/json;stream=watch, application/vnd.orch.protobuf;stream=watch';

function outcome(fn: () => { contentType: string; encoding: string; target?: object; pretty: boolean }) {
  try {
    const m = fn();
    return { contentType: m.contentType, encoding: m.encoding, target: m.target, pretty: m.pretty };
  } catch (err) {
    assert.ok(err instanceof NotAcceptableError, String(err));
    return { error: err.message };
  }
}

describe('negotiateOutput', () => {
  const cases: { name: string; accept?: string; opts?: Partial<NegotiationOptions>; want: object }[] = [
    { name: 'no header is JSON', want: { contentType: 'application/json', encoding: 'json' } },
    { name: 'empty header is JSON', accept: '', want: { contentType: 'application/json', encoding: 'json' } },
    { name: '*/*', accept: '*/*', want: { contentType: 'application/json', encoding: 'json' } },
    { name: 'application/*', accept: 'application/*', want: { contentType: 'application/json', encoding: 'json' } },
    { name: 'bare * is */*', accept: '*', want: { contentType: 'application/json', encoding: 'json' } },
    { name: 'yaml', accept: 'application/yaml', want: { contentType: 'application/yaml', encoding: 'yaml' } },
    {
      name: 'orch protobuf',
      accept: 'application/vnd.orch.protobuf',
      want: { contentType: 'application/vnd.orch.protobuf', encoding: 'protobuf' },
    },
    {
      name: 'kubernetes protobuf alias answers with the type asked for',
      accept: 'application/vnd.kubernetes.protobuf, */*',
      want: { contentType: 'application/vnd.kubernetes.protobuf', encoding: 'protobuf' },
    },
    {
      name: 'client-go protobuf preference with JSON fallback',
      accept: 'application/vnd.kubernetes.protobuf,application/json',
      want: { contentType: 'application/vnd.kubernetes.protobuf', encoding: 'protobuf' },
    },
    {
      name: 'unknown types are skipped',
      accept: 'text/html, application/xml;q=0.9, application/yaml',
      want: { contentType: 'application/yaml', encoding: 'yaml' },
    },
    {
      name: 'higher q first',
      accept: 'application/json;q=0.5, application/yaml',
      want: { contentType: 'application/yaml', encoding: 'yaml' },
    },
    {
      // goautoneg puts a specific type before */* whatever the q-values say.
      name: 'specific beats */* even with lower q',
      accept: '*/*, application/yaml;q=0.1',
      want: { contentType: 'application/yaml', encoding: 'yaml' },
    },
    {
      name: 'q=0 is not excluded (kube does not treat it as "not acceptable")',
      accept: 'application/yaml;q=0',
      want: { contentType: 'application/yaml', encoding: 'yaml' },
    },
    { name: 'types are case-sensitive', accept: 'Application/JSON', want: { error: ALL } },
    { name: 'nothing served', accept: 'text/plain', want: { error: ALL } },
    { name: 'a range without slash', accept: 'application', want: { error: ALL } },
    {
      name: 'cbor only with the gate',
      accept: 'application/cbor',
      want: { error: ALL },
    },
    {
      name: 'cbor with the gate',
      accept: 'application/cbor',
      opts: { cborEnabled: true },
      want: { contentType: 'application/cbor', encoding: 'cbor' },
    },
    {
      name: '406 lists cbor with the gate',
      accept: 'text/plain',
      opts: { cborEnabled: true },
      want: { error: ALL_CBOR },
    },
    {
      name: 'pretty=1 parameter',
      accept: 'application/json; pretty=1',
      want: { contentType: 'application/json', encoding: 'json', pretty: true },
    },
    {
      name: 'unrecognized then pretty JSON',
      accept: 'unrecognized/stuff,application/json; pretty=1',
      want: { contentType: 'application/json', encoding: 'json', pretty: true },
    },
    {
      name: 'stream=watch is allowed on JSON',
      accept: 'application/json;stream=watch',
      want: { contentType: 'application/json', encoding: 'json' },
    },
    {
      name: 'stream=watch skips YAML (no stream serializer)',
      accept: 'application/yaml;stream=watch, application/json',
      want: { contentType: 'application/json', encoding: 'json' },
    },
    {
      name: 'other stream schemas are skipped',
      accept: 'application/json;stream=other',
      want: { error: ALL },
    },
    {
      name: 'sv must be the meta version',
      accept: 'application/json;sv=v2, application/yaml;sv=v1',
      want: { contentType: 'application/yaml', encoding: 'yaml' },
    },
    {
      name: 'Table conversion',
      accept: 'application/json;as=Table;g=meta.orch.io;v=v1',
      want: {
        contentType: 'application/json',
        encoding: 'json',
        target: { as: 'Table', group: 'meta.orch.io', version: 'v1' },
      },
    },
    {
      name: 'Table conversion in YAML, parameters in any order',
      accept: 'application/yaml;v=v1beta1;g=meta.orch.io;as=Table',
      want: {
        contentType: 'application/yaml',
        encoding: 'yaml',
        target: { as: 'Table', group: 'meta.orch.io', version: 'v1beta1' },
      },
    },
    {
      name: "kubectl's meta.k8s.io Table request falls back to its plain JSON",
      accept:
        'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
      want: { contentType: 'application/json', encoding: 'json' },
    },
    {
      name: 'Table is JSON/YAML only',
      accept: 'application/vnd.kubernetes.protobuf;as=Table;g=meta.orch.io;v=v1, application/json',
      want: { contentType: 'application/json', encoding: 'json' },
    },
    {
      name: 'Table needs a table convertor',
      accept: 'application/json;as=Table;g=meta.orch.io;v=v1',
      opts: { table: false },
      want: { error: ALL },
    },
    {
      name: 'unknown meta version is skipped',
      accept: 'application/json;as=Table;g=meta.orch.io;v=v2',
      want: { error: ALL },
    },
    {
      name: 'unknown conversion kind is skipped',
      accept: 'application/json;as=Status;g=meta.orch.io;v=v1',
      want: { error: ALL },
    },
    {
      name: 'quoted parameter values are not unquoted',
      accept: 'application/json;as="Table";g=meta.orch.io;v=v1',
      want: { error: ALL },
    },
    {
      name: 'PartialObjectMetadata in protobuf',
      accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.orch.io;v=v1',
      want: {
        contentType: 'application/vnd.kubernetes.protobuf',
        encoding: 'protobuf',
        target: { as: 'PartialObjectMetadataList', group: 'meta.orch.io', version: 'v1' },
      },
    },
    {
      name: 'custom resources have no protobuf of their own',
      accept: 'application/vnd.kubernetes.protobuf, application/json',
      opts: { encodings: ['json', 'yaml'] },
      want: { contentType: 'application/json', encoding: 'json' },
    },
    {
      name: '...but PartialObjectMetadata still comes in protobuf',
      accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.orch.io;v=v1',
      opts: { encodings: ['json', 'yaml'] },
      want: {
        contentType: 'application/vnd.kubernetes.protobuf',
        encoding: 'protobuf',
        target: { as: 'PartialObjectMetadata', group: 'meta.orch.io', version: 'v1' },
      },
    },
    {
      name: '?pretty=true',
      opts: { prettyParam: 'true' },
      want: { contentType: 'application/json', encoding: 'json', pretty: true },
    },
    {
      name: '?pretty=false beats a curl user agent',
      opts: { prettyParam: 'false', userAgent: 'curl/8.0' },
      want: { contentType: 'application/json', encoding: 'json', pretty: false },
    },
    {
      name: 'unparsable ?pretty is false',
      opts: { prettyParam: 'yes', userAgent: 'curl/8.0' },
      want: { contentType: 'application/json', encoding: 'json', pretty: false },
    },
    {
      name: 'curl user agent',
      opts: { userAgent: 'curl/8.0' },
      want: { contentType: 'application/json', encoding: 'json', pretty: true },
    },
    {
      name: 'kubectl user agent',
      opts: { userAgent: 'kubectl/v1.32.0 (linux/amd64)' },
      want: { contentType: 'application/json', encoding: 'json', pretty: false },
    },
    {
      name: 'pretty never applies to YAML',
      accept: 'application/yaml; pretty=1',
      opts: { userAgent: 'Mozilla/5.0' },
      want: { contentType: 'application/yaml', encoding: 'yaml', pretty: false },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = outcome(() => negotiateOutput(c.accept, { ...base, ...c.opts }));
      const want = 'error' in c.want ? c.want : { target: undefined, pretty: false, ...c.want };
      assert.deepEqual(got, want);
    });
  }

  it('maps to the 406 Status', () => {
    let caught: unknown;
    assert.throws(
      () => negotiateOutput('text/plain', base),
      (e) => {
        caught = e;
        return e instanceof NotAcceptableError;
      },
    );
    assert.deepEqual((caught as NotAcceptableError).toStatusError().toStatus(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: ALL,
      reason: 'NotAcceptable',
      code: 406,
    });
  });
});

describe('negotiateWatch', () => {
  const cases: { name: string; accept?: string; opts?: Partial<NegotiationOptions>; want: object }[] = [
    { name: 'JSON watch is plain application/json', want: { contentType: 'application/json', encoding: 'json' } },
    {
      name: 'protobuf watch',
      accept: 'application/vnd.kubernetes.protobuf;stream=watch, application/json',
      want: { contentType: 'application/vnd.kubernetes.protobuf;stream=watch', encoding: 'protobuf' },
    },
    {
      name: 'orch protobuf watch',
      accept: 'application/vnd.orch.protobuf',
      want: { contentType: 'application/vnd.orch.protobuf;stream=watch', encoding: 'protobuf' },
    },
    {
      name: 'CBOR watch answers application/cbor-seq',
      accept: 'application/cbor',
      opts: { cborEnabled: true },
      want: { contentType: 'application/cbor-seq', encoding: 'cbor' },
    },
    { name: 'YAML cannot stream', accept: 'application/yaml', want: { error: STREAMS } },
    {
      // kube negotiates once and rejects the winner; it does not move on to JSON.
      name: 'YAML first is a 406 even with JSON listed after',
      accept: 'application/yaml, application/json;q=0.9',
      want: { error: STREAMS },
    },
    {
      name: 'the streaming list has cbor-seq with the gate',
      accept: 'application/yaml',
      opts: { cborEnabled: true },
      want: { error: `${STREAMS}, application/cbor-seq` },
    },
    { name: 'nothing matches: the full list', accept: 'text/plain', want: { error: ALL } },
    {
      name: 'kubectl get -w asks for a Table',
      accept: 'application/json;as=Table;g=meta.orch.io;v=v1, application/json',
      opts: { userAgent: 'curl/8' },
      want: {
        contentType: 'application/json',
        encoding: 'json',
        target: { as: 'Table', group: 'meta.orch.io', version: 'v1' },
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = outcome(() => negotiateWatch(c.accept, { ...base, ...c.opts }));
      const want = 'error' in c.want ? c.want : { target: undefined, pretty: false, ...c.want };
      assert.deepEqual(got, want);
    });
  }
});

describe('negotiateErrorOutput', () => {
  it('ignores conversions and answers in the plain type', () => {
    const m = negotiateErrorOutput('application/json;as=Table;g=meta.orch.io;v=v1, application/yaml', base);
    assert.equal(m.contentType, 'application/yaml');
    assert.equal(m.fallback, false);
  });
  it('falls back to indented JSON instead of a 406', () => {
    const m = negotiateErrorOutput('application/json;as=Table;g=meta.orch.io;v=v1', base);
    assert.deepEqual(
      { contentType: m.contentType, encoding: m.encoding, pretty: m.pretty, fallback: m.fallback },
      { contentType: 'application/json', encoding: 'json', pretty: true, fallback: true },
    );
  });
  it('serves protobuf errors to protobuf clients', () => {
    assert.equal(negotiateErrorOutput('application/vnd.kubernetes.protobuf', base).encoding, 'protobuf');
  });
});

describe('supportedMediaTypes', () => {
  it('lists the served and the streaming types', () => {
    assert.deepEqual(supportedMediaTypes(true), {
      mediaTypes: ['application/json', 'application/yaml', 'application/vnd.orch.protobuf', 'application/cbor'],
      streamMediaTypes: [
        'application/json;stream=watch',
        'application/vnd.orch.protobuf;stream=watch',
        'application/cbor-seq',
      ],
    });
  });
});
