import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { apiOf } from '../support/api.js';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { crdManifest, widgetVersion } from './crd-fixtures.js';

// The real kubectl 1.32 against a server with kube-apiserver's names (`--api-domain=k8s.io`):
// a custom resource defined, validated, applied, listed, explained and scaled as people do.

// biome-ignore lint/suspicious/noExplicitAny: documents are read as plain JSON
type Json = any;

/** A schema using each structural feature kube's v2 conversion changes. */
const GADGET_SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['mode', 'nothing'],
      'x-kubernetes-validations': [{ rule: 'self.size < 10', message: 'size is small' }],
      properties: {
        mode: { type: 'string', description: 'How it runs.', enum: ['fast', 'slow'], oneOf: [{ pattern: 'f' }] },
        nothing: { type: 'object', nullable: true, description: 'May be null.', properties: { a: { type: 'string' } } },
        port: { 'x-kubernetes-int-or-string': true, description: 'A number or a name.' },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { image: { type: 'string' } } } },
        },
        size: { type: 'integer', default: 1 },
      },
    },
  },
};

/** The column names of a printed table's header line. */
const columnsOf = (stdout: string): string[] =>
  stdout
    .split('\n')[0]
    .trim()
    .split(/\s{2,}/);

describe('kubectl with custom resources under --api-domain=k8s.io', () => {
  let server: ServerProcess;
  let dir: string;
  const run = async (args: string[], input?: string) => {
    const r = await kubectl(server.kubeconfig, args, input);
    return r;
  };
  const ok = async (args: string[], input?: string) => {
    const r = await run(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  };
  before(async () => {
    server = await startServerProcess({ args: ['--api-domain=k8s.io'] });
    dir = mkdtempSync(join(tmpdir(), 'orch-crd-kubectl-'));
  });
  after(async () => {
    await server.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies a definition and waits for it to be established', async () => {
    const file = join(dir, 'crd.yaml');
    writeFileSync(file, toYaml(crdManifest({ domain: 'k8s.io', shortNames: ['wd'], versions: [widgetVersion()] })));
    assert.match(
      await ok(['apply', '-f', file]),
      /customresourcedefinition.apiextensions.k8s.io\/widgets.example.com created/,
    );
    assert.match(
      await ok(['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=20s']),
      /condition met/,
    );
    assert.match(await ok(['get', 'crd', 'widgets.example.com']), /^widgets\.example\.com\s+\d{4}-\d\d-\d\dT/m);
    // A second (client-side) apply patches the definition with a strategic merge patch.
    const changed = crdManifest({ domain: 'k8s.io', shortNames: ['wd', 'wdg'], versions: [widgetVersion()] });
    writeFileSync(file, toYaml(changed));
    assert.match(
      await ok(['apply', '-f', file]),
      /customresourcedefinition.apiextensions.k8s.io\/widgets.example.com configured/,
    );
    assert.equal(
      await ok(['get', 'crd', 'widgets.example.com', '-o', 'jsonpath={.spec.names.shortNames}']),
      '["wd","wdg"]',
    );
  });

  it('refuses an invalid object with kube’s error', async () => {
    const bad = toYaml({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'bad', namespace: 'default' },
      spec: { color: 'pink' },
    });
    const r = await run(['apply', '-f', '-'], bad);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /The Widget "bad" is invalid: spec.color: Unsupported value: "pink": supported values: "red", "green", "blue"/,
    );
  });

  it('applies objects and shows the printer columns in kubectl get', async () => {
    for (const [name, color] of [
      ['w1', 'red'],
      ['w2', 'blue'],
    ]) {
      const manifest = toYaml({
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name, namespace: 'default' },
        spec: { color, replicas: 2 },
      });
      assert.match(
        await ok(['apply', '--server-side', '-f', '-'], manifest),
        new RegExp(`widget.example.com/${name} serverside-applied`),
      );
    }
    const out = await ok(['get', 'widgets']);
    assert.deepEqual(columnsOf(out), ['NAME', 'REPLICAS', 'COLOR', 'AGE']);
    assert.match(out, /^w1\s+2\s+red\s+\d+s$/m);
    const wide = await ok(['get', 'wd', '-o', 'wide']);
    assert.deepEqual(columnsOf(wide), ['NAME', 'REPLICAS', 'COLOR', 'PHASE', 'AGE']);
    const selected = await ok(['get', 'widgets', '--field-selector', 'spec.color=blue', '-o', 'name']);
    assert.equal(selected.trim(), 'widget.example.com/w2');
  });

  it('explains the kind from the published schema', async () => {
    const out = await ok(['explain', 'widgets.spec']);
    assert.match(out, /^GROUP:\s+example\.com$/m);
    assert.match(out, /^KIND:\s+Widget$/m);
    for (const field of ['color', 'replicas', 'ports', 'tags']) assert.match(out, new RegExp(`^  ${field}\\t<`, 'm'));
    assert.match(await ok(['explain', 'widget.metadata']), /^FIELD: metadata <ObjectMeta>$/m);
  });

  it('publishes a schema with every structural feature in OpenAPI v2 as kube converts it, and explains it from v2 and v3', async () => {
    const file = join(dir, 'gadgets.yaml');
    const manifest = crdManifest({
      domain: 'k8s.io',
      plural: 'gadgets',
      kind: 'Gadget',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: GADGET_SCHEMA },
          selectableFields: [{ jsonPath: '.spec.mode' }],
        },
      ],
    });
    writeFileSync(file, toYaml(manifest));
    await ok(['apply', '-f', file]);
    await ok(['wait', '--for=condition=Established', 'crd/gadgets.example.com', '--timeout=20s']);
    // The v2 document follows the definition within a moment.
    let gadget: Json;
    for (let i = 0; i < 50 && !gadget; i++) {
      gadget = (await apiOf(server).admin('GET', '/openapi/v2')).json().definitions['com.example.v1.Gadget'];
      if (!gadget) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(gadget, 'the kind is in OpenAPI v2');
    assert.deepEqual(gadget['x-kubernetes-selectable-fields'], [{ fieldPath: 'spec.mode' }]);
    const spec = gadget.properties.spec;
    assert.deepEqual(spec.required, ['mode']);
    assert.deepEqual(spec.properties.mode, { description: 'How it runs.', enum: ['fast', 'slow'], type: 'string' });
    assert.deepEqual(spec.properties.nothing, { description: 'May be null.' });
    assert.deepEqual(spec.properties.port, { description: 'A number or a name.', 'x-kubernetes-int-or-string': true });
    assert.deepEqual(spec.properties.extra, { 'x-kubernetes-preserve-unknown-fields': true });
    assert.deepEqual(spec.properties.template.required, ['kind', 'apiVersion']);
    assert.equal(spec.properties.size.default, undefined);
    assert.deepEqual(spec['x-kubernetes-validations'], [{ message: 'size is small', rule: 'self.size < 10' }]);

    // kubectl explain reads v3 by default, v2 when asked.
    for (const output of [[], ['--output=plaintext-openapiv2']]) {
      const out = await ok(['explain', 'gadgets.spec', ...output]);
      assert.match(out, /^KIND:\s+Gadget$/m);
      for (const field of ['mode', 'nothing', 'port', 'extra', 'template', 'size']) {
        assert.match(out, new RegExp(`^\\s+${field}\\t?\\s*<`, 'm'), `${field} in\n${out}`);
      }
      assert.match(await ok(['explain', 'gadgets.spec.template', ...output]), /metadata/);
    }
  });

  it('scales through the scale sub-resource', async () => {
    assert.match(await ok(['scale', 'widget/w1', '--replicas=5']), /widget.example.com\/w1 scaled/);
    assert.equal(await ok(['get', 'widget', 'w1', '-o', 'jsonpath={.spec.replicas}']), '5');
    const scale = await ok(['get', 'widget', 'w1', '--subresource=scale']);
    assert.deepEqual(columnsOf(scale), ['NAME', 'DESIRED', 'AVAILABLE', 'AGE']);
    assert.match(scale, /^w1\s+5\s+0\s+\d+s$/m);
  });

  it('deletes the definition with its objects', async () => {
    assert.match(await ok(['delete', 'crd', 'widgets.example.com', '--timeout=30s']), /deleted/);
    const r = await run(['get', 'widgets']);
    assert.notEqual(r.code, 0);
  });
});
