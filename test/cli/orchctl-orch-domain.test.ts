import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { orchctl, startCommand } from './orchctl-runner.js';

// orchctl under the default profile, where kubectl cannot go: the authentication, authorization
// and RBAC groups are named after the orch domain, the configuration variable is ORCHCONFIG and
// the default file ~/.orch/config.

const D = ORCH_DOMAIN;
const rbac = D.group('rbac.authorization');

function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.trim().split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('orchctl against an orch.io server', () => {
  let s: InProcessServer;
  let dir: string;
  let admin: string;
  let viewer: string;

  before(async () => {
    s = await startInProcess();
    dir = mkdtempSync(join(tmpdir(), 'orchctl-orch-'));
    admin = s.server.kubeconfigPath!;
    const creds = await s.userCredentials('orch-viewer', ['viewers']);
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    viewer = join(dir, 'viewer.config');
    writeFileSync(
      viewer,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: s.url, 'certificate-authority-data': b64(creds.ca) } }],
        users: [
          { name: 'viewer', user: { 'client-certificate-data': b64(creds.cert), 'client-key-data': b64(creds.key) } },
        ],
        contexts: [
          { name: 'viewer', context: { cluster: 'c', user: 'viewer', namespace: 'team' } },
          { name: 'viewer-default', context: { cluster: 'c', user: 'viewer' } },
        ],
        'current-context': 'viewer',
      }),
    );
  });
  after(async () => {
    await s?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const as = (kubeconfig: string, ...args: string[]) => orchctl([...args, '--kubeconfig', kubeconfig]);

  it('auth whoami prints the user as kubectl does', async () => {
    const r = await as(viewer, 'auth', 'whoami');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^ATTRIBUTE {3,}VALUE$/);
    assert.match(lines[1], /^Username {3,}orch-viewer$/);
    assert.match(lines[2], /^Groups {3,}\[viewers system:authenticated\]$/);
    const y = await as(viewer, 'auth', 'whoami', '-o', 'yaml');
    const doc = parse(y.stdout) as { apiVersion: string; kind: string; status: { userInfo: { username: string } } };
    assert.equal(doc.apiVersion, `${D.group('authentication')}/v1`);
    assert.equal(doc.kind, 'SelfSubjectReview');
    assert.equal(doc.status.userInfo.username, 'orch-viewer');
  });

  it('auth can-i asks the authorization group and exits 0 or 1; apply grants the permission', async () => {
    const denied = await as(viewer, 'auth', 'can-i', 'list', 'configmaps');
    assert.deepEqual({ code: denied.code, stdout: denied.stdout }, { code: 1, stdout: 'no\n' });
    const allowed = await as(admin, 'auth', 'can-i', 'list', 'configmaps', '-n', 'team');
    assert.deepEqual({ code: allowed.code, stdout: allowed.stdout }, { code: 0, stdout: 'yes\n' });

    const file = join(dir, 'grant.yaml');
    writeFileSync(
      file,
      [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } },
        {
          apiVersion: `${rbac}/v1`,
          kind: 'Role',
          metadata: { name: 'cm-reader', namespace: 'team' },
          rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
        },
        {
          apiVersion: `${rbac}/v1`,
          kind: 'RoleBinding',
          metadata: { name: 'cm-reader', namespace: 'team' },
          roleRef: { apiGroup: rbac, kind: 'Role', name: 'cm-reader' },
          subjects: [{ apiGroup: rbac, kind: 'Group', name: 'viewers' }],
        },
      ]
        .map((o) => stringify(o))
        .join('---\n'),
    );
    const applied = await as(admin, 'apply', '--server-side', '-f', file);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(
      applied.stdout,
      `namespace/team serverside-applied\nrole.${rbac}/cm-reader serverside-applied\nrolebinding.${rbac}/cm-reader serverside-applied\n`,
    );
    const now = await as(viewer, 'auth', 'can-i', 'list', 'configmaps');
    assert.deepEqual({ code: now.code, stdout: now.stdout }, { code: 0, stdout: 'yes\n' });
    const other = await as(viewer, 'auth', 'can-i', 'list', 'configmaps', '-n', 'default');
    assert.equal(other.code, 1);
    const list = await as(viewer, 'get', 'cm');
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.stderr, 'No resources found in team namespace.\n');
  });

  it('errors: Forbidden, NotFound, an unknown type and a bad flag exit 1 with kubectl messages', async () => {
    const forbidden = await orchctl(['get', 'secrets', '--kubeconfig', viewer, '--context', 'viewer-default']);
    assert.equal(forbidden.code, 1);
    assert.equal(
      forbidden.stderr,
      'Error from server (Forbidden): secrets is forbidden: User "orch-viewer" cannot list resource "secrets" in API group "" in the namespace "default"\n',
    );
    const missing = await as(admin, 'get', `roles.${rbac}`, 'absent', '-n', 'team');
    assert.deepEqual(missing, {
      code: 1,
      stdout: '',
      stderr: `Error from server (NotFound): roles.${rbac} "absent" not found\n`,
    });
    const unknown = await as(admin, 'get', 'roles.rbac.authorization.example');
    assert.deepEqual(unknown, {
      code: 1,
      stdout: '',
      stderr: 'error: the server doesn\'t have a resource type "roles.rbac.authorization.example"\n',
    });
    const bad = await as(admin, 'api-resources', '--bogus');
    assert.deepEqual(bad, {
      code: 1,
      stdout: '',
      stderr: "Error: unknown flag: --bogus\nSee 'orchctl api-resources --help' for usage.\n",
    });
    const command = await as(admin, 'frobnicate');
    assert.equal(command.code, 1);
    assert.match(command.stderr, /^error: unknown command "frobnicate" for "orchctl"/);
  });

  it('api-resources lists the orch-domain groups; get resolves short names and kinds', async () => {
    const r = await as(admin, 'api-resources', `--api-group=${D.group('authorization')}`, '-o', 'name');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trimEnd().split('\n'), [
      `localsubjectaccessreviews.${D.group('authorization')}`,
      `selfsubjectaccessreviews.${D.group('authorization')}`,
      `selfsubjectrulesreviews.${D.group('authorization')}`,
      `subjectaccessreviews.${D.group('authorization')}`,
    ]);
    for (const name of ['rolebinding', 'RoleBinding', `rolebindings.${rbac}`, `rolebindings.v1.${rbac}`]) {
      const g = await as(admin, 'get', name, '-n', 'team', '-o', 'name');
      assert.deepEqual(g, { code: 0, stdout: `rolebinding.${rbac}/cm-reader\n`, stderr: '' }, name);
    }
    const wide = await as(admin, 'get', 'rolebindings', '-A', '-o', 'wide');
    assert.equal(wide.code, 0, wide.stderr);
    assert.match(
      wide.stdout.split('\n')[0],
      /^NAMESPACE {3,}NAME {3,}ROLE {3,}AGE {3,}USERS {3,}GROUPS {3,}SERVICEACCOUNTS$/,
    );
    assert.match(wide.stdout, /\nteam {3,}cm-reader {3,}Role\/cm-reader {3,}\d+s {3,}viewers {3,}\n/);
  });

  it('create token prints a token for the service account with the requested audience and lifetime', async () => {
    await s.api.admin('POST', '/api/v1/namespaces/team/serviceaccounts', {
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } },
    });
    const r = await as(
      admin,
      'create',
      'token',
      'robot',
      '-n',
      'team',
      '--duration=10m',
      '--audience=a1',
      '--audience=a2',
    );
    assert.equal(r.code, 0, r.stderr);
    const c = claims(r.stdout);
    assert.deepEqual(c.aud, ['a1', 'a2']);
    assert.equal(c.sub, 'system:serviceaccount:team:robot');
    assert.equal(Number(c.exp) - Number(c.iat), 600);
    const missing = await as(admin, 'create', 'token', 'absent', '-n', 'team');
    assert.deepEqual(missing, {
      code: 1,
      stdout: '',
      stderr: 'error: failed to create token: serviceaccounts "absent" not found\n',
    });
  });

  it('finds the configuration in ORCHCONFIG, then ~/.orch/config; config use-context rewrites the file', async () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, '.orch'), { recursive: true });
    const file = join(home, '.orch', 'config');
    writeFileSync(file, readFileSync(viewer));
    const byEnv = await orchctl(['config', 'current-context'], { ORCHCONFIG: `${join(dir, 'absent')}:${viewer}` });
    assert.deepEqual(byEnv, { code: 0, stdout: 'viewer\n', stderr: '' });
    const byHome = await orchctl(['auth', 'whoami', '-o', 'json'], { HOME: home });
    assert.equal(byHome.code, 0, byHome.stderr);
    assert.equal(
      (JSON.parse(byHome.stdout) as { status: { userInfo: { username: string } } }).status.userInfo.username,
      'orch-viewer',
    );

    const used = await orchctl(['config', 'use-context', 'viewer-default'], { HOME: home });
    assert.deepEqual(used, { code: 0, stdout: 'Switched to context "viewer-default".\n', stderr: '' });
    assert.equal((parse(readFileSync(file, 'utf8')) as Record<string, unknown>)['current-context'], 'viewer-default');
    const contexts = await orchctl(['config', 'get-contexts'], { HOME: home });
    assert.equal(contexts.code, 0);
    assert.deepEqual(
      contexts.stdout.split('\n').map((l) => l.trimEnd()),
      [
        'CURRENT   NAME             CLUSTER   AUTHINFO   NAMESPACE',
        '          viewer           c         viewer     team',
        '*         viewer-default   c         viewer',
        '',
      ],
    );
    const nowDefault = await orchctl(['get', 'cm'], { HOME: home });
    assert.match(nowDefault.stderr, /Forbidden.*in the namespace "default"/);
    const unknown = await orchctl(['config', 'use-context', 'absent'], { HOME: home });
    assert.deepEqual(unknown, { code: 1, stdout: '', stderr: 'error: no context exists with the name: "absent"\n' });
    const view = await orchctl(['config', 'view', '--minify'], { HOME: home });
    const minified = parse(view.stdout) as { contexts: { name: string }[]; users: { user: Record<string, string> }[] };
    assert.deepEqual(
      minified.contexts.map((c) => c.name),
      ['viewer-default'],
    );
    assert.equal(minified.users[0].user['client-key-data'], 'DATA+OMITTED');
  });

  it('delete waits for finalizers unless --wait=false', async () => {
    const cm = (name: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, finalizers: ['example.com/hold'] },
    });
    for (const name of ['held', 'held-nowait']) {
      assert.equal((await s.api.admin('POST', '/api/v1/namespaces/team/configmaps', { body: cm(name) })).status, 201);
    }
    const noWait = await as(admin, 'delete', 'cm', 'held-nowait', '-n', 'team', '--wait=false');
    assert.deepEqual(noWait, { code: 0, stdout: 'configmap "held-nowait" deleted\n', stderr: '' });

    const cmd = startCommand(['delete', 'configmap/held', '-n', 'team', '--kubeconfig', admin]);
    try {
      await cmd.waitFor(/configmap "held" deleted\n/);
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(cmd.exitCode(), undefined, 'still waiting for the finalizer');
      for (const name of ['held', 'held-nowait']) {
        const res = await s.api.admin('PATCH', `/api/v1/namespaces/team/configmaps/${name}`, {
          headers: { 'content-type': 'application/merge-patch+json' },
          body: { metadata: { finalizers: null } },
        });
        assert.equal(res.status, 200);
      }
      assert.equal(await cmd.exited(), 0);
    } finally {
      await cmd.stop();
    }
  });
});
