import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { type CommandResult, HAVE_KUBECTL, kubectlRun, orchctl, startCommand, withoutAges } from './orchctl-runner.js';

// orchctl and kubectl 1.32 against the same server under the k8s.io profile: the same standard
// output, standard error and exit code. kubectl's own name in its usage hints reads `orchctl`.

const skip = HAVE_KUBECTL ? false : 'kubectl is not installed';

function kubeconfigFor(s: InProcessServer, creds: { ca: string; cert: string; key: string }, user: string): string {
  const b64 = (t: string) => Buffer.from(t).toString('base64');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'parity', cluster: { server: s.url, 'certificate-authority-data': b64(creds.ca) } }],
    users: [{ name: user, user: { 'client-certificate-data': b64(creds.cert), 'client-key-data': b64(creds.key) } }],
    contexts: [{ name: 'parity', context: { cluster: 'parity', user, namespace: 'default' } }],
    'current-context': 'parity',
  });
}

describe('orchctl prints what kubectl prints', { skip }, () => {
  let s: InProcessServer;
  let dir: string;
  let admin: string;
  let viewer: string;

  before(async () => {
    s = await startInProcess({ apiDomain: 'k8s.io' });
    dir = mkdtempSync(join(tmpdir(), 'orchctl-parity-'));
    admin = s.server.kubeconfigPath!;
    viewer = join(dir, 'viewer.kubeconfig');
    writeFileSync(viewer, kubeconfigFor(s, await s.userCredentials('parity-viewer'), 'parity-viewer'));
    for (const ns of ['parity-k', 'parity-o']) {
      const res = await s.api.admin('POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
      });
      assert.equal(res.status, 201);
    }
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'lister' },
      rules: [
        { apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['get', 'list'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['watch', 'get'] },
        { apiGroups: ['apps'], resources: ['deployments/scale'], resourceNames: ['web', 'api'], verbs: ['patch'] },
      ],
    };
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'lister' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'lister' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'parity-viewer' }],
    };
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gizmos.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', shortNames: ['gz'], categories: ['all', 'toys'] },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer' } } },
                },
              },
            },
            additionalPrinterColumns: [
              { name: 'Color', type: 'string', jsonPath: '.spec.color' },
              { name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 1 },
              { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
            ],
          },
        ],
      },
    };
    const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    assert.equal((await s.api.admin('POST', crdPath, { body: crd })).status, 201);
    const gizmo = {
      apiVersion: 'example.com/v1',
      kind: 'Gizmo',
      metadata: { name: 'g1' },
      spec: { color: 'red', size: 3 },
    };
    for (let i = 0; ; i++) {
      const res = await s.api.admin('POST', '/apis/example.com/v1/namespaces/default/gizmos', { body: gizmo });
      if (res.status === 201) break;
      assert.ok(i < 100, `gizmos are not served: ${res.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const base = '/apis/rbac.authorization.k8s.io/v1/namespaces/parity-k';
    assert.equal((await s.api.admin('POST', `${base}/roles`, { body: role })).status, 201);
    assert.equal((await s.api.admin('POST', `${base}/rolebindings`, { body: binding })).status, 201);
  });
  after(async () => {
    await s?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function both(args: readonly string[], o: { kubeconfig?: string; ages?: boolean } = {}) {
    const kc = ['--kubeconfig', o.kubeconfig ?? admin];
    const k = await kubectlRun([...args, ...kc], { KUBECACHEDIR: join(dir, 'kube-cache') });
    const c = await orchctl([...args, ...kc, '--api-domain', 'k8s.io']);
    const norm = (r: CommandResult) => {
      const f = o.ages ? withoutAges : (t: string) => t;
      return { code: r.code, stdout: f(r.stdout), stderr: f(r.stderr.replaceAll('kubectl', 'orchctl')) };
    };
    return { kubectl: norm(k), orchctl: norm(c) };
  }

  const readOnly: { name: string; args: string[]; ages?: boolean; viewer?: boolean }[] = [
    { name: 'get namespaces', args: ['get', 'ns'], ages: true },
    { name: 'get -o wide', args: ['get', 'ns', '-o', 'wide'], ages: true },
    { name: 'get -o wide with priority columns', args: ['get', 'clusterrolebindings', '-o', 'wide'], ages: true },
    { name: 'get services -A -o wide', args: ['get', 'svc', '-A', '-o', 'wide'], ages: true },
    { name: 'get -A --no-headers', args: ['get', 'cm', '-A', '--no-headers'], ages: true },
    { name: 'get -l', args: ['get', 'clusterroles', '-l', 'kubernetes.io/bootstrapping=rbac-defaults'] },
    { name: 'get --field-selector', args: ['get', 'ns', '--field-selector', 'metadata.name=default'], ages: true },
    { name: 'get by kind and group', args: ['get', 'ClusterRole.rbac.authorization.k8s.io', 'cluster-admin', 'admin'] },
    { name: 'get several kinds by type/name', args: ['get', 'clusterrole/admin', 'ns/default'], ages: true },
    { name: 'get a custom resource by short name -o wide', args: ['get', 'gz', '-o', 'wide'], ages: true },
    { name: 'get a custom resource by singular.group', args: ['get', 'gizmo.example.com', 'g1'], ages: true },
    { name: 'get a category', args: ['get', 'toys'], ages: true },
    { name: 'get all', args: ['get', 'all', '-A', '-o', 'wide'], ages: true },
    { name: 'api-resources of a custom group', args: ['api-resources', '--api-group=example.com', '-o', 'wide'] },
    { name: 'get -o yaml', args: ['get', 'ns', 'default', '-o', 'yaml'] },
    { name: 'get -o json (list)', args: ['get', 'ns', '-o', 'json'] },
    { name: 'get -o name', args: ['get', 'ns', '-o', 'name'] },
    { name: 'get nothing found', args: ['get', 'pods'] },
    { name: 'get an unknown resource type', args: ['get', 'widgetz'] },
    { name: 'get NotFound', args: ['get', 'cm', 'absent'] },
    { name: 'get found and NotFound', args: ['get', 'ns', 'default', 'absent'], ages: true },
    { name: 'get a bad flag', args: ['get', 'ns', '--bogus'] },
    { name: 'get Forbidden', args: ['get', 'cm'], viewer: true },
    { name: 'api-resources', args: ['api-resources'] },
    { name: 'api-resources -o wide', args: ['api-resources', '-o', 'wide'] },
    { name: 'api-resources -o name', args: ['api-resources', '-o', 'name'] },
    { name: 'api-resources --namespaced=false', args: ['api-resources', '--namespaced=false'] },
    { name: 'api-resources --api-group', args: ['api-resources', '--api-group=rbac.authorization.k8s.io'] },
    { name: 'auth whoami', args: ['auth', 'whoami'] },
    { name: 'auth whoami as a user', args: ['auth', 'whoami'], viewer: true },
    { name: 'auth whoami -o yaml', args: ['auth', 'whoami', '-o', 'yaml'] },
    { name: 'auth whoami -o json', args: ['auth', 'whoami', '-o', 'json'] },
    { name: 'auth can-i yes', args: ['auth', 'can-i', 'list', 'pods'] },
    { name: 'auth can-i no', args: ['auth', 'can-i', 'list', 'pods'], viewer: true },
    {
      name: 'auth can-i a subresource',
      args: ['auth', 'can-i', 'get', 'pods', '--subresource=log', '-n', 'parity-k'],
      viewer: true,
    },
    { name: 'auth can-i a name', args: ['auth', 'can-i', 'delete', 'clusterroles/admin'] },
    { name: 'auth can-i an unknown type', args: ['auth', 'can-i', 'create', 'widgetz'] },
    { name: 'auth can-i a non-resource URL', args: ['auth', 'can-i', 'get', '/version'], viewer: true },
    { name: 'auth can-i --list', args: ['auth', 'can-i', '--list'] },
    {
      name: 'auth can-i --list with rules to merge',
      args: ['auth', 'can-i', '--list', '-n', 'parity-k'],
      viewer: true,
    },
    { name: 'auth can-i --list --no-headers', args: ['auth', 'can-i', '--list', '--no-headers'], viewer: true },
    { name: 'config view', args: ['config', 'view'] },
    { name: 'config view --minify', args: ['config', 'view', '--minify'], viewer: true },
    { name: 'config view --raw', args: ['config', 'view', '--raw'] },
    { name: 'config view -o json', args: ['config', 'view', '-o', 'json'] },
    { name: 'config get-contexts', args: ['config', 'get-contexts'], viewer: true },
    { name: 'config current-context', args: ['config', 'current-context'] },
    { name: 'create token NotFound', args: ['create', 'token', 'absent'] },
    { name: 'create token bad duration', args: ['create', 'token', 'default', '--duration=10x'] },
  ];
  for (const c of readOnly) {
    it(c.name, async () => {
      const r = await both(c.args, { ages: c.ages, kubeconfig: c.viewer ? viewer : undefined });
      assert.deepEqual(r.orchctl, r.kubectl);
    });
  }

  it('writes: create, apply, patch and delete print the same messages', async () => {
    const manifest = (ns: string) =>
      `${stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm1' }, data: { a: 'b' } })}---\n${stringify(
        {
          apiVersion: 'v1',
          kind: 'List',
          items: [
            {
              apiVersion: 'rbac.authorization.k8s.io/v1',
              kind: 'ClusterRole',
              metadata: { name: `role-${ns}` },
              rules: [],
            },
          ],
        },
      )}`;
    const files = { 'parity-k': join(dir, 'k.yaml'), 'parity-o': join(dir, 'o.yaml') };
    for (const [ns, f] of Object.entries(files)) writeFileSync(f, manifest(ns));
    const steps: ((ns: string, file: string) => string[])[] = [
      (_, f) => ['create', '-f', f, '--dry-run=server'],
      (_, f) => ['create', '-f', f],
      (_, f) => ['create', '-f', f],
      (_, f) => ['apply', '--server-side', '-f', f],
      (_, f) => ['apply', '--server-side', '-f', f, '--dry-run=server'],
      () => ['patch', 'cm', 'm1', '-p', '{"data":{"dry":"run"}}', '--dry-run=server'],
      () => ['delete', 'cm', 'm1', '--dry-run=server'],
      () => ['patch', 'cm', 'm1', '-p', '{"data":{"a":"c"}}'],
      () => ['patch', 'cm', 'm1', '-p', '{"data":{"a":"c"}}'],
      () => ['patch', 'configmap/m1', '--type=json', '-p', '[{"op":"add","path":"/data/x","value":"y"}]'],
      () => ['patch', 'cm', 'm1', '--type=merge', '-p', '{"data":{"x":null}}'],
      () => ['patch', 'cm', 'absent', '-p', '{}'],
      () => ['patch', 'cm', 'm1', '-p', 'data: {y: z}'],
      () => ['patch', 'cm', 'm1', '-p', '{bad'],
      () => ['delete', 'cm', 'm1'],
      (_, f) => ['delete', '-f', f],
      (_, f) => ['delete', '-f', f],
      () => ['delete', 'cm', 'absent', '--cascade=foreground'],
    ];
    for (const step of steps) {
      const k = await kubectlRun([...step('parity-k', files['parity-k']), '-n', 'parity-k', '--kubeconfig', admin], {
        KUBECACHEDIR: join(dir, 'kube-cache'),
      });
      const o = await orchctl([
        ...step('parity-o', files['parity-o']),
        '-n',
        'parity-o',
        '--kubeconfig',
        admin,
        '--api-domain',
        'k8s.io',
      ]);
      const norm = (r: CommandResult, ns: string, file: string) => ({
        code: r.code,
        stdout: r.stdout.replaceAll(ns, 'NS'),
        stderr: r.stderr.replaceAll(file, 'FILE').replaceAll(ns, 'NS'),
      });
      assert.deepEqual(
        norm(o, 'parity-o', files['parity-o']),
        norm(k, 'parity-k', files['parity-k']),
        step('parity-o', 'FILE').join(' '),
      );
    }
  });

  it('get -w prints the list, then a row per event, in the columns printed before', async () => {
    for (const ns of ['parity-k', 'parity-o']) {
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'present' } };
      assert.equal((await s.api.admin('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: cm })).status, 201);
    }
    const watchers = [
      {
        ns: 'parity-k',
        cmd: startCommand(['get', 'cm', '-w', '-n', 'parity-k', '--kubeconfig', admin], {
          kubectl: true,
          env: { KUBECACHEDIR: join(dir, 'kube-cache') },
        }),
      },
      {
        ns: 'parity-o',
        cmd: startCommand(['get', 'cm', '-w', '-n', 'parity-o', '--kubeconfig', admin, '--api-domain', 'k8s.io']),
      },
    ];
    try {
      for (const w of watchers) await w.cmd.waitFor(/present/);
      for (const w of watchers) {
        const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched-configmap-name' } };
        assert.equal((await s.api.admin('POST', `/api/v1/namespaces/${w.ns}/configmaps`, { body: cm })).status, 201);
        assert.equal(
          (await s.api.admin('DELETE', `/api/v1/namespaces/${w.ns}/configmaps/watched-configmap-name`)).status,
          200,
        );
      }
      for (const w of watchers) await w.cmd.waitFor(/(watched-configmap-name.*\n){2}/);
    } finally {
      for (const w of watchers) await w.cmd.stop();
    }
    const [k, o] = watchers.map((w) => w.cmd.stdout().replace(/\b(\d+[smhd])+\b/g, (m) => 'A'.repeat(m.length)));
    assert.equal(o, k);
  });
});
