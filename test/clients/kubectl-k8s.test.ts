import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { kubectl, startKubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

// The real kubectl 1.32, unmodified, against a server that uses kube-apiserver's names
// (`--api-domain=k8s.io`): every served type goes through the commands people use every day.

const NS = 'clients';

/** The column names of a printed table's header line (columns are at least three spaces apart). */
const columnsOf = (stdout: string): string[] =>
  stdout
    .split('\n')[0]
    .trim()
    .split(/\s{2,}/);

interface KindCase {
  /** The resource as typed on the command line. */
  readonly resource: string;
  /** How kubectl names an object of this kind in its messages (`configmap/x`). */
  readonly ref: string;
  readonly namespaced: boolean;
  /** A manifest labelled `app: demo`. */
  manifest(name: string): object;
  /** Header of `kubectl get` and of `kubectl get -o wide`. */
  readonly columns: readonly string[];
  readonly wideColumns: readonly string[];
  /** The object's line in `kubectl get -o wide`. */
  wideRow(name: string): RegExp;
  /** The object's line in `kubectl get` (and in `get -w`). */
  row(name: string): RegExp;
  /** Lines `kubectl describe` prints for the manifest. */
  readonly describes: readonly RegExp[];
}

const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const meta = (name: string, namespaced: boolean) => ({
  name,
  ...(namespaced ? { namespace: NS } : {}),
  labels: { app: 'demo' },
});

const KINDS: readonly KindCase[] = [
  {
    resource: 'namespaces',
    ref: 'namespace',
    namespaced: false,
    manifest: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: meta(name, false) }),
    columns: ['NAME', 'STATUS', 'AGE'],
    wideColumns: ['NAME', 'STATUS', 'AGE'],
    wideRow: (name) => new RegExp(`^${name}\\s+Active\\s+\\d+s$`, 'm'),
    row: (name) => new RegExp(`^${name}\\s+Active\\s+\\d+s$`, 'm'),
    describes: [/^Status:\s+Active$/m, /^\s+kubernetes\.io\/metadata\.name=demo-namespace$/m],
  },
  {
    resource: 'configmaps',
    ref: 'configmap',
    namespaced: true,
    manifest: (name) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta(name, true),
      data: { color: 'blue', size: 'L' },
    }),
    columns: ['NAME', 'DATA', 'AGE'],
    wideColumns: ['NAME', 'DATA', 'AGE'],
    wideRow: (name) => new RegExp(`^${name}\\s+2\\s+\\d+s$`, 'm'),
    row: (name) => new RegExp(`^${name}\\s+2\\s+\\d+s$`, 'm'),
    describes: [/^color:\n----\nblue$/m, /^BinaryData$/m],
  },
  {
    resource: 'secrets',
    ref: 'secret',
    namespaced: true,
    manifest: (name) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta(name, true),
      type: 'Opaque',
      data: { password: Buffer.from('s3cret').toString('base64') },
    }),
    columns: ['NAME', 'TYPE', 'DATA', 'AGE'],
    wideColumns: ['NAME', 'TYPE', 'DATA', 'AGE'],
    wideRow: (name) => new RegExp(`^${name}\\s+Opaque\\s+1\\s+\\d+s$`, 'm'),
    row: (name) => new RegExp(`^${name}\\s+Opaque\\s+1\\s+\\d+s$`, 'm'),
    describes: [/^Type:\s+Opaque$/m, /^password:\s+6 bytes$/m],
  },
  {
    resource: 'serviceaccounts',
    ref: 'serviceaccount',
    namespaced: true,
    manifest: (name) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(name, true) }),
    columns: ['NAME', 'SECRETS', 'AGE'],
    wideColumns: ['NAME', 'SECRETS', 'AGE'],
    wideRow: (name) => new RegExp(`^${name}\\s+0\\s+\\d+s$`, 'm'),
    row: (name) => new RegExp(`^${name}\\s+0\\s+\\d+s$`, 'm'),
    describes: [/^Mountable secrets:\s+<none>$/m, /^Tokens:\s+<none>$/m],
  },
  {
    resource: 'events',
    ref: 'event',
    namespaced: true,
    manifest: (name) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta(name, true),
      involvedObject: { kind: 'ConfigMap', name: 'target', namespace: NS },
      reason: 'Tested',
      message: `hello from ${name}`,
      type: 'Normal',
      source: { component: 'tester' },
      firstTimestamp: now(),
      lastTimestamp: now(),
      count: 3,
    }),
    columns: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
    wideColumns: [
      'LAST SEEN',
      'TYPE',
      'REASON',
      'OBJECT',
      'SUBOBJECT',
      'SOURCE',
      'MESSAGE',
      'FIRST SEEN',
      'COUNT',
      'NAME',
    ],
    // The empty SUBOBJECT cell is only padding.
    wideRow: (name) =>
      new RegExp(
        `^\\d+s\\s+Normal\\s+Tested\\s+configmap/target\\s+tester\\s+hello from ${name}\\s+\\d+s\\s+3\\s+${name}$`,
        'm',
      ),
    row: (name) => new RegExp(`^\\d+s\\s+Normal\\s+Tested\\s+configmap/target\\s+hello from ${name}$`, 'm'),
    describes: [/^Reason:\s+Tested$/m, /^Message:\s+hello from /m],
  },
  {
    resource: 'leases',
    ref: 'lease.coordination.k8s.io',
    namespaced: true,
    manifest: (name) => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: meta(name, true),
      spec: { holderIdentity: 'holder-a', leaseDurationSeconds: 15 },
    }),
    columns: ['NAME', 'HOLDER', 'AGE'],
    wideColumns: ['NAME', 'HOLDER', 'AGE'],
    wideRow: (name) => new RegExp(`^${name}\\s+holder-a\\s+\\d+s$`, 'm'),
    row: (name) => new RegExp(`^${name}\\s+holder-a\\s+\\d+s$`, 'm'),
    describes: [/^ {2}Holder Identity:\s+holder-a$/m, /^ {2}Lease Duration Seconds:\s+15$/m],
  },
];

describe('kubectl 1.32 against --api-domain=k8s.io', () => {
  let server: ServerProcess;
  let dir = '';
  let editor = '';
  const k = (...args: string[]) => kubectl(server.kubeconfig, args);
  const ok = async (...args: string[]) => {
    const r = await k(...args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r;
  };

  before(async () => {
    server = await startServerProcess({ args: ['--api-domain=k8s.io'] });
    dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-k8s-'));
    editor = join(dir, 'editor.sh');
    writeFileSync(editor, `#!/bin/sh\nexec sed -i 's/app: demo/app: edited/' "$1"\n`);
    chmodSync(editor, 0o755);
    await ok('create', 'namespace', NS);
  });
  after(async () => {
    await server?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists kube-apiserver system namespaces', async () => {
    const r = await ok('get', 'namespaces');
    assert.deepEqual(columnsOf(r.stdout), ['NAME', 'STATUS', 'AGE']);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease'])
      assert.match(r.stdout, new RegExp(`^${ns}\\s+Active\\s`, 'm'));
  });

  it('api-resources lists every served type under kube names', async () => {
    const r = await ok('api-resources', '--no-headers');
    for (const line of [
      /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m,
      /^events\s+ev\s+v1\s+true\s+Event$/m,
      /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m,
      /^secrets\s+v1\s+true\s+Secret$/m,
      /^serviceaccounts\s+sa\s+v1\s+true\s+ServiceAccount$/m,
      /^leases\s+coordination\.k8s\.io\/v1\s+true\s+Lease$/m,
    ]) {
      assert.match(r.stdout, line);
    }
  });

  it('explain lease.spec reads the coordination.k8s.io/v1 schema', async () => {
    const r = await ok('explain', 'lease.spec');
    assert.match(r.stdout, /^GROUP:\s+coordination\.k8s\.io$/m);
    assert.match(r.stdout, /^KIND:\s+Lease$/m);
    assert.match(r.stdout, /^VERSION:\s+v1$/m);
    for (const f of ['acquireTime', 'holderIdentity', 'leaseDurationSeconds', 'leaseTransitions', 'renewTime'])
      assert.match(r.stdout, new RegExp(`^ {2}${f}\\t<(string|integer)>$`, 'm'));
  });

  it('create configmap sends Protobuf and gets Protobuf back', async () => {
    const r = await ok('create', 'configmap', 'pb', '-n', NS, '--from-literal=k=v', '-v=8');
    assert.match(r.stdout, /^configmap\/pb created$/m);
    // -v=8 logs the request's headers, then the response's.
    const post = r.stderr.slice(r.stderr.search(/\] POST https:\/\/\S+\/api\/v1\/namespaces\/clients\/configmaps/));
    assert.match(post, /Content-Type: application\/vnd\.kubernetes\.protobuf\n/);
    assert.match(post, /Response Status: 201 Created/);
    const response = post.slice(post.indexOf('Response Status'));
    assert.match(response, /Content-Type: application\/vnd\.kubernetes\.protobuf\n/);
    const cm = JSON.parse((await ok('get', 'configmap', 'pb', '-n', NS, '-o', 'json')).stdout);
    assert.deepEqual(cm.data, { k: 'v' });
    await ok('delete', 'configmap', 'pb', '-n', NS);
  });

  it('get asks for meta.k8s.io Tables', async () => {
    const r = await ok('get', 'leases', '-n', NS, '-o', 'wide', '-v=8');
    assert.match(r.stderr, /Accept: application\/json;as=Table;v=v1;g=meta\.k8s\.io,/);
    // The logged body escapes its quotes.
    assert.match(r.stderr, /kind\W+Table\W+apiVersion\W+meta\.k8s\.io\/v1\W/);
  });

  for (const kind of KINDS) {
    describe(kind.resource, () => {
      const name = `demo-${kind.ref.split('.')[0]}`;
      const nsArgs = kind.namespaced ? ['-n', NS] : [];
      const labels = async (): Promise<Record<string, string>> =>
        JSON.parse((await ok('get', kind.resource, name, ...nsArgs, '-o', 'jsonpath={.metadata.labels}')).stdout);

      it('apply --server-side creates it, managed by kubectl', async () => {
        const r = await kubectl(
          server.kubeconfig,
          ['apply', '--server-side', '-f', '-'],
          JSON.stringify(kind.manifest(name)),
        );
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout.trim(), `${kind.ref}/${name} serverside-applied`);
        const got = parseYaml(
          (await ok('get', kind.resource, name, ...nsArgs, '-o', 'yaml', '--show-managed-fields')).stdout,
        );
        const entry = got.metadata.managedFields.find((m: { manager: string }) => m.manager === 'kubectl');
        assert.ok(entry, JSON.stringify(got.metadata.managedFields));
        assert.equal(entry.operation, 'Apply');
        assert.equal(entry.fieldsType, 'FieldsV1');
        assert.equal(entry.fieldsV1['f:metadata']['f:labels']['f:app'] !== undefined, true);
      });

      it('get prints its Table columns', async () => {
        const r = await ok('get', kind.resource, name, ...nsArgs);
        assert.deepEqual(columnsOf(r.stdout), kind.columns);
        assert.match(r.stdout, kind.row(name));
      });

      it('get -o wide prints the wide columns', async () => {
        const r = await ok('get', kind.resource, name, ...nsArgs, '-o', 'wide');
        assert.deepEqual(columnsOf(r.stdout), kind.wideColumns);
        assert.match(r.stdout, kind.wideRow(name));
      });

      it('describe', async () => {
        const r = await ok('describe', kind.resource, name, ...nsArgs);
        assert.match(r.stdout, new RegExp(`^Name:\\s+${name}$`, 'm'));
        if (kind.namespaced) assert.match(r.stdout, new RegExp(`^Namespace:\\s+${NS}$`, 'm'));
        assert.match(r.stdout, /^Labels:\s+app=demo$/m);
        for (const line of kind.describes) assert.match(r.stdout, line);
      });

      it('edit through KUBE_EDITOR', async () => {
        const r = await kubectl(server.kubeconfig, ['edit', kind.resource, name, ...nsArgs, '-v=8'], undefined, {
          KUBE_EDITOR: editor,
        });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout.trim(), `${kind.ref}/${name} edited`);
        // Every served kind is compiled into kubectl under its kube group, so edit sends a
        // strategic merge patch.
        assert.match(r.stderr, /\] PATCH https:\S+\n(.*\n)*.*Content-Type: application\/strategic-merge-patch\+json\n/);
        assert.equal((await labels()).app, 'edited');
      });

      it('patch with strategic, merge and JSON patches', async () => {
        const patches: [string, string][] = [
          ['strategic', '{"metadata":{"labels":{"strategic":"yes"}}}'],
          ['merge', '{"metadata":{"labels":{"merge":"yes"}}}'],
          ['json', '[{"op":"add","path":"/metadata/labels/json","value":"yes"}]'],
        ];
        for (const [type, patch] of patches) {
          const r = await ok('patch', kind.resource, name, ...nsArgs, `--type=${type}`, '-p', patch);
          assert.equal(r.stdout.trim(), `${kind.ref}/${name} patched`);
        }
        const got = await labels();
        for (const [key, value] of Object.entries({ app: 'edited', strategic: 'yes', merge: 'yes', json: 'yes' }))
          assert.equal(got[key], value, JSON.stringify(got));
      });

      it('get -w prints an object created while watching', async () => {
        const watched = `${name}-w`;
        const watch = startKubectl(server.kubeconfig, ['get', kind.resource, ...nsArgs, '-w', '-v=6']);
        try {
          // -v=6 logs the watch request once its response headers arrived.
          await watch.waitFor('stderr', /GET https:\S+watch=true\S* 200 OK/);
          const r = await kubectl(server.kubeconfig, ['create', '-f', '-'], JSON.stringify(kind.manifest(watched)));
          assert.equal(r.code, 0, r.stderr);
          await watch.waitFor('stdout', kind.row(watched));
        } finally {
          await watch.stop();
        }
        await ok('delete', kind.resource, watched, ...nsArgs);
      });

      it('delete', async () => {
        const r = await ok('delete', kind.resource, name, ...nsArgs);
        assert.equal(r.stdout.trim(), `${kind.ref} "${name}" deleted`);
        const gone = await k('get', kind.resource, name, ...nsArgs);
        assert.notEqual(gone.code, 0);
        const group = kind.ref.includes('.') ? kind.ref.slice(kind.ref.indexOf('.')) : '';
        assert.match(gone.stderr, new RegExp(`\\(NotFound\\): ${kind.resource}${group} "${name}" not found`));
      });
    });
  }
});
