import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { crdManifest, widgetVersion } from './crd-fixtures.js';

// The real kubectl 1.32 against a server with kube-apiserver's names (`--api-domain=k8s.io`):
// a custom resource defined, validated, applied, listed, explained and scaled as people do.

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

  it('scales through the scale sub-resource', async () => {
    assert.match(await ok(['scale', 'widget/w1', '--replicas=5']), /widget.example.com\/w1 scaled/);
    assert.equal(await ok(['get', 'widget', 'w1', '-o', 'jsonpath={.spec.replicas}']), '5');
  });

  it('deletes the definition with its objects', async () => {
    assert.match(await ok(['delete', 'crd', 'widgets.example.com', '--timeout=30s']), /deleted/);
    const r = await run(['get', 'widgets']);
    assert.notEqual(r.code, 0);
  });
});
