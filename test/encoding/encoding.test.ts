import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { builtinResources } from '../../src/apis/builtin.js';
import { decodeCbor, encodeCbor } from '../../src/encoding/index.js';
import { decodeList, decodeObject, decodeStatus, encodeObject } from '../../src/encoding/protobuf/index.js';
import { apiOf } from '../support/api.js';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

const PROTOBUF = 'application/vnd.orch.protobuf';

/** One valid object of every built-in kind, in namespace `enc`. */
function samples(): Record<string, { path: string; obj: Record<string, unknown> }> {
  const ns = 'enc';
  return {
    Namespace: {
      path: '/api/v1/namespaces',
      obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'enc-ns', labels: { a: 'b' } } },
    },
    ConfigMap: {
      path: `/api/v1/namespaces/${ns}/configmaps`,
      obj: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cm', annotations: { x: 'y' } },
        data: { k: 'v' },
        binaryData: { b: 'AAEC' },
      },
    },
    Secret: {
      path: `/api/v1/namespaces/${ns}/secrets`,
      obj: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', data: { k: 'dmFsdWU=' } },
    },
    ServiceAccount: {
      path: `/api/v1/namespaces/${ns}/serviceaccounts`,
      obj: {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'sa' },
        secrets: [{ name: 'x' }],
        automountServiceAccountToken: false,
      },
    },
    Event: {
      path: `/api/v1/namespaces/${ns}/events`,
      obj: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'ev' },
        involvedObject: { kind: 'ConfigMap', namespace: ns, name: 'cm', apiVersion: 'v1' },
        reason: 'Tested',
        message: 'hello',
        type: 'Normal',
        count: 2,
        firstTimestamp: '2026-01-01T00:00:00Z',
        lastTimestamp: '2026-01-01T00:00:05Z',
        source: { component: 'test' },
      },
    },
    Lease: {
      path: `/apis/coordination.orch.io/v1/namespaces/${ns}/leases`,
      obj: {
        apiVersion: 'coordination.orch.io/v1',
        kind: 'Lease',
        metadata: { name: 'l' },
        spec: {
          holderIdentity: 'me',
          leaseDurationSeconds: 10,
          acquireTime: '2026-01-01T00:00:00.123456Z',
          renewTime: '2026-01-01T00:00:01.654321Z',
          leaseTransitions: 3,
        },
      },
    },
  };
}

describe('encodings and content negotiation', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof apiOf>['admin'];
  const defs = new Map(
    builtinResources()
      .filter((d) => !d.storageResource)
      .map((d) => [d.kind, d]),
  );
  before(async () => {
    server = await startServerProcess({ args: ['--feature-gates=CBORServingAndStorage=true'] });
    api = apiOf(server).admin;
    await api('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'enc' } },
    });
  });
  after(async () => server?.dispose());

  it('round-trips every built-in kind in JSON, YAML, Protobuf and CBOR', async () => {
    for (const [kind, { path, obj }] of Object.entries(samples())) {
      const def = defs.get(kind)!;
      const name = (obj.metadata as { name: string }).name;
      const created = await api('POST', path, { body: obj });
      assert.equal(created.status, 201, `${kind}: ${created.text}`);
      const json = created.json();
      const itemPath = `${path}/${name}`;
      const yaml = await api('GET', itemPath, { headers: { accept: 'application/yaml' } });
      assert.equal(yaml.headers['content-type'], 'application/yaml');
      assert.deepEqual(parseYaml(yaml.text), json, `${kind} YAML`);
      const pb = await api('GET', itemPath, { headers: { accept: PROTOBUF } });
      assert.equal(pb.headers['content-type'], PROTOBUF);
      assert.deepEqual([...pb.body.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
      assert.deepEqual(decodeObject(def.schema, pb.body), json, `${kind} Protobuf`);
      const cbor = await api('GET', itemPath, { headers: { accept: 'application/cbor' } });
      assert.equal(cbor.headers['content-type'], 'application/cbor');
      assert.deepEqual(decodeCbor(cbor.body), json, `${kind} CBOR`);
      // Writes in each encoding: PUT the object back as Protobuf, YAML and CBOR.
      const putPb = await api('PUT', itemPath, {
        body: Buffer.from(encodeObject(def.schema, json)),
        headers: { 'content-type': PROTOBUF, accept: 'application/json' },
      });
      assert.equal(putPb.status, 200, `${kind} PUT Protobuf: ${putPb.text}`);
      const putCbor = await api('PUT', itemPath, {
        body: encodeCbor(putPb.json()),
        headers: { 'content-type': 'application/cbor' },
      });
      assert.equal(putCbor.status, 200, `${kind} PUT CBOR: ${putCbor.text}`);
      const listPb = await api('GET', path, { headers: { accept: PROTOBUF } });
      assert.ok(decodeList(def.schema, listPb.body).items.length >= 1, `${kind} list Protobuf`);
      // From the watch cache (each item's message kept with the cached object) the same bytes as
      // from the store: the object, and the list at one revision.
      const rv = putCbor.json().metadata.resourceVersion;
      const fromStore = await api('GET', itemPath, { headers: { accept: PROTOBUF } });
      for (let i = 0; i < 2; i++) {
        const cached = await api('GET', `${itemPath}?resourceVersion=${rv}`, { headers: { accept: PROTOBUF } });
        assert.equal(cached.body.toString('hex'), fromStore.body.toString('hex'), `${kind} cached GET Protobuf`);
      }
      const listRv = decodeList(def.schema, listPb.body).metadata.resourceVersion;
      const exact = await api('GET', `${path}?resourceVersionMatch=Exact&resourceVersion=${listRv}`, {
        headers: { accept: PROTOBUF },
      });
      assert.equal(listPb.body.toString('hex'), exact.body.toString('hex'), `${kind} cached list Protobuf`);
    }
  });

  it('honours q-values and */*, answers 406 listing what is supported, and 415 for a body it cannot read', async () => {
    const pref = await api('GET', '/api/v1/namespaces/enc/configmaps/cm', {
      headers: { accept: 'application/json;q=0.5, application/yaml' },
    });
    assert.equal(pref.headers['content-type'], 'application/yaml');
    const any = await api('GET', '/api/v1/namespaces/enc/configmaps/cm', { headers: { accept: '*/*' } });
    assert.equal(any.headers['content-type'], 'application/json');
    const none = await api('GET', '/api/v1/namespaces/enc/configmaps/cm', { headers: { accept: 'text/html' } });
    assert.equal(none.status, 406);
    assert.match(
      none.json().message,
      /only the following media types are accepted: application\/json, application\/yaml, application\/vnd\.orch\.protobuf/,
    );
    const body = await api('POST', '/api/v1/namespaces/enc/configmaps', {
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(body.status, 415);
    const errPb = await api('GET', '/api/v1/namespaces/enc/configmaps/missing', { headers: { accept: PROTOBUF } });
    assert.equal(errPb.status, 404);
    assert.equal(decodeStatus(errPb.body).reason, 'NotFound');
  });

  it('compresses large responses with gzip', async () => {
    for (let i = 0; i < 40; i++) {
      await api('POST', '/api/v1/namespaces/enc/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}` }, data: { v: 'x'.repeat(4000) } },
      });
    }
    const r = await api('GET', '/api/v1/namespaces/enc/configmaps', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.ok(JSON.parse(gunzipSync(r.body).toString()).items.length >= 40);
    const small = await api('GET', '/api/v1/namespaces/enc/configmaps/cm', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(small.headers['content-encoding'], undefined);
  });

  it('serves Tables with per-kind columns and includeObject, and metadata-only views', async () => {
    const accept = 'application/json;as=Table;g=meta.orch.io;v=v1';
    const t = (await api('GET', '/api/v1/namespaces/enc/secrets', { headers: { accept } })).json();
    assert.equal(t.kind, 'Table');
    assert.equal(t.apiVersion, 'meta.orch.io/v1');
    assert.deepEqual(
      t.columnDefinitions.map((c: { name: string }) => c.name),
      ['Name', 'Type', 'Data', 'Age'],
    );
    assert.deepEqual(t.rows[0].cells.slice(0, 3), ['s', 'Opaque', 1]);
    assert.equal(t.rows[0].object.kind, 'PartialObjectMetadata');
    const none = (
      await api('GET', '/api/v1/namespaces/enc/secrets?includeObject=None', { headers: { accept } })
    ).json();
    assert.equal(none.rows[0].object ?? null, null);
    const full = (
      await api('GET', '/api/v1/namespaces/enc/secrets?includeObject=Object', { headers: { accept } })
    ).json();
    assert.equal(full.rows[0].object.kind, 'Secret');
    const lease = (
      await api('GET', '/apis/coordination.orch.io/v1/namespaces/enc/leases', { headers: { accept } })
    ).json();
    assert.deepEqual(
      lease.columnDefinitions.map((c: { name: string }) => c.name),
      ['Name', 'Holder', 'Age'],
    );
    const pom = (
      await api('GET', '/api/v1/namespaces/enc/configmaps/cm', {
        headers: { accept: 'application/json;as=PartialObjectMetadata;g=meta.orch.io;v=v1' },
      })
    ).json();
    assert.equal(pom.kind, 'PartialObjectMetadata');
    assert.equal(pom.data, undefined);
    assert.equal(pom.metadata.name, 'cm');
    const poml = (
      await api('GET', '/api/v1/namespaces/enc/configmaps', {
        headers: { accept: 'application/json;as=PartialObjectMetadataList;g=meta.orch.io;v=v1' },
      })
    ).json();
    assert.equal(poml.kind, 'PartialObjectMetadataList');
    // kubectl's upstream-group Table request falls back to the plain list.
    const upstream = (
      await api('GET', '/api/v1/namespaces/enc/configmaps', {
        headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' },
      })
    ).json();
    assert.equal(upstream.kind, 'ConfigMapList');
  });

  it("answers 400 with kube's message for an invalid includeObject, for gets, lists and watches", async () => {
    const accept = 'application/json;as=Table;g=meta.orch.io;v=v1';
    const message =
      "Unable to convert to Table as requested: includeObject: Invalid value: \"Foo\": must be 'Metadata', 'Object', 'None', or empty";
    for (const path of [
      '/api/v1/namespaces/enc/configmaps?includeObject=Foo',
      '/api/v1/namespaces/enc/configmaps/cm?includeObject=Foo',
      // A watch answers before streaming, not with an ERROR event inside a 200.
      '/api/v1/namespaces/enc/configmaps?includeObject=Foo&watch=true',
    ]) {
      const r = await api('GET', path, { headers: { accept } });
      assert.equal(r.status, 400, `${path}: ${r.text}`);
      assert.equal(r.json().reason, 'BadRequest');
      assert.equal(r.json().message, message);
    }
    // Only a Table request reads the option.
    assert.equal((await api('GET', '/api/v1/namespaces/enc/configmaps?includeObject=Foo')).status, 200);
  });

  it('answers 400 with a decoder message for bodies nested too deep', async () => {
    const deepYaml = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\nx: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`;
    const yaml = await api('POST', '/api/v1/namespaces/enc/configmaps', {
      body: deepYaml,
      headers: { 'content-type': 'application/yaml' },
    });
    assert.equal(yaml.status, 400, yaml.text);
    assert.match(yaml.json().message, /yaml: line 5: exceeded max depth of 500/);
    const apply = await api('PATCH', '/api/v1/namespaces/enc/configmaps/deep?fieldManager=m', {
      body: deepYaml,
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    assert.equal(apply.status, 400, apply.text);
    assert.equal(
      apply.json().message,
      'error decoding YAML: error converting YAML to JSON: yaml: line 5: exceeded max depth of 500',
    );
    let blockYaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\nx:\n';
    for (let i = 1; i < 1_000; i++) blockYaml += `${' '.repeat(i)}k:\n`;
    const block = await api('POST', '/api/v1/namespaces/enc/configmaps', {
      body: blockYaml,
      headers: { 'content-type': 'application/yaml' },
    });
    assert.equal(block.status, 400, block.text);
    assert.match(block.json().message, /exceeded max depth of 500/);
    // JSON is read to kube's depth of 10000.
    const json = (depth: number) =>
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep-json"},"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const tooDeep = await api('POST', '/api/v1/namespaces/enc/configmaps', { body: json(10_000) });
    assert.equal(tooDeep.status, 400, tooDeep.text);
    assert.match(tooDeep.json().message, /exceeded max depth/);
    const deepButFine = await api('POST', '/api/v1/namespaces/enc/configmaps', { body: json(9_000) });
    assert.equal(deepButFine.status, 201, deepButFine.text);
    for (const r of [yaml, apply, block, tooDeep]) assert.doesNotMatch(r.text, /call stack/);
  });

  it('applies fieldValidation Ignore, Warn and Strict to unknown and duplicate fields', async () => {
    const body =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fv-NAME"},"data":{"a":"1"},"spec":{"x":1},"data":{"b":"2"}}';
    const send = (name: string, level: string) =>
      api('POST', `/api/v1/namespaces/enc/configmaps${level ? `?fieldValidation=${level}` : ''}`, {
        body: body.replace('NAME', name),
      });
    const ignore = await send('ignore', 'Ignore');
    assert.equal(ignore.status, 201);
    assert.equal(ignore.headers.warning, undefined);
    assert.equal(ignore.json().spec, undefined);
    const warn = await send('warn', '');
    assert.equal(warn.status, 201);
    const warnings = String(warn.headers.warning);
    assert.match(warnings, /299 - "unknown field \\"spec\\""/);
    assert.match(warnings, /duplicate field \\"data\\"/);
    const strict = await send('strict', 'Strict');
    assert.equal(strict.status, 400);
    assert.match(strict.json().message, /strict decoding error: .*unknown field "spec"/);
    const invalid = await send('bad', 'Sometimes');
    assert.ok(invalid.status === 400 || invalid.status === 422);
    const yaml = await api('POST', '/api/v1/namespaces/enc/configmaps?fieldValidation=Strict', {
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fv-yaml\ndata:\n  a: "1"\n  a: "2"\n',
      headers: { 'content-type': 'application/yaml' },
    });
    assert.equal(yaml.status, 400);
    assert.match(yaml.json().message, /already set in map|duplicate field/);
    const typeError = await api('POST', '/api/v1/namespaces/enc/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fv-type' }, data: { a: 1 } },
    });
    assert.ok(typeError.status === 400 || typeError.status === 422, String(typeError.status));
  });

  it('works with kubectl: get -o yaml, plain get, create --validate=strict', async () => {
    const k = (...args: string[]) => kubectl(server.kubeconfig, args);
    let r = await k('get', 'configmap', 'cm', '-n', 'enc', '-o', 'yaml');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(parseYaml(r.stdout).data.k, 'v');
    r = await k('get', 'configmaps', '-n', 'enc');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^NAME\s+.*AGE/m);
    assert.match(r.stdout, /^cm\s/m);
    const manifest = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'strict-one', namespace: 'enc' },
      data: { a: 'b' },
      bogus: true,
    });
    r = await kubectl(server.kubeconfig, ['create', '--validate=strict', '-f', '-'], manifest);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /unknown field "bogus"/);
  });
});
