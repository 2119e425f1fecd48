import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AbacPolicyError } from '../../src/authz/abac/abac-policy.js';
import { AuthorizationModeError } from '../../src/authz/index.js';
import { startServer } from '../../src/server/start-server.js';
import type { Logger } from '../../src/util/logger.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { bundledProgram } from '../support/program-bundle.js';

// The ABAC mode against a real server started with `ABAC,RBAC` and a policy file: ABAC allows what
// a policy matches, RBAC decides the rest, and a file that does not decode refuses start-up.

const V1 = 'abac.authorization.orch.io/v1beta1';
const RBAC = '/apis/rbac.authorization.orch.io/v1';
const REVIEWS = '/apis/authorization.orch.io/v1';
type Creds = { ca: string; cert: string; key: string };

const policy = (spec: Record<string, unknown>) => JSON.stringify({ apiVersion: V1, kind: 'Policy', spec });

/** The example policy file of the README. */
const POLICY_FILE = [
  '# alice runs the team namespace; the dev group reads pods everywhere',
  policy({ user: 'alice', namespace: 'team', resource: '*', apiGroup: '*' }),
  policy({ group: 'dev', namespace: '*', resource: 'pods', apiGroup: '', readonly: true }),
  '',
  '# every authenticated user reads the version and anything under /logs/',
  policy({ group: 'system:authenticated', nonResourcePath: '/version', readonly: true }),
  policy({ group: 'system:authenticated', nonResourcePath: '/logs/*', readonly: true }),
  '# an unversioned (v0) rule: bob reads config maps in any namespace',
  '{"user": "bob", "resource": "configmaps", "readonly": true}',
].join('\n');

describe('ABAC authorization mode', () => {
  let dir: string;
  let s: InProcessServer;
  let alice: Creds;
  let bob: Creds;
  let carol: Creds;
  const warnings: string[] = [];
  const logger: Logger = { info() {}, warn: (m) => warnings.push(m), error() {} };
  const call = async (who: Creds | 'anonymous', method: string, path: string, body?: object) => {
    const r = await s.api.admin(method, path, { as: who as Creds, ...(body ? { body } : {}) });
    return r;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-abac-e2e-'));
    const file = join(dir, 'policy.jsonl');
    await writeFile(file, `${POLICY_FILE}\n`);
    s = await startInProcess({
      dataDir: join(dir, 'data'),
      runControllers: false,
      authorizationModes: ['ABAC', 'RBAC'],
      authorizationPolicyFile: file,
      logger,
    });
    alice = await s.userCredentials('alice');
    bob = await s.userCredentials('bob', ['dev']);
    carol = await s.userCredentials('carol');
    for (const ns of ['team', 'other']) {
      const r = await s.api.admin('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    await s?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('warns, as kube does, that the file holds unversioned rules', () => {
    assert.ok(
      warnings.some((w) => /^Policy file .*policy\.jsonl contained unversioned rules\./.test(w)),
      JSON.stringify(warnings),
    );
  });

  it('allows what a policy matches: user, namespace, any verb', async () => {
    const created = await call(alice, 'POST', '/api/v1/namespaces/team/configmaps', { metadata: { name: 'c' } });
    assert.equal(created.status, 201, created.text);
    assert.equal((await call(alice, 'DELETE', '/api/v1/namespaces/team/configmaps/c')).status, 200);
    const elsewhere = await call(alice, 'GET', '/api/v1/namespaces/other/configmaps');
    assert.equal(elsewhere.status, 403);
    assert.equal(
      elsewhere.json().message,
      'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "other": No policy matched.',
    );
  });

  it('readonly policies allow get, list and watch only', async () => {
    assert.equal((await call(bob, 'GET', '/api/v1/namespaces/other/pods')).status, 200);
    assert.equal((await call(bob, 'GET', '/api/v1/pods')).status, 200);
    assert.equal((await call(bob, 'GET', '/api/v1/namespaces/other/pods?watch=true&timeoutSeconds=1')).status, 200);
    const write = await call(bob, 'POST', '/api/v1/namespaces/other/pods', {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    });
    assert.equal(write.status, 403, write.text);
    // The unversioned rule: any namespace, any API group, reads only.
    assert.equal((await call(bob, 'GET', '/api/v1/namespaces/team/configmaps')).status, 200);
    assert.equal(
      (await call(bob, 'POST', '/api/v1/namespaces/team/configmaps', { metadata: { name: 'b' } })).status,
      403,
    );
  });

  it('non-resource paths: exact, prefix with *, and only for authenticated users', async () => {
    assert.equal((await call(carol, 'GET', '/version')).status, 200);
    // Authorized, then not found: the server serves nothing there.
    assert.equal((await call(carol, 'GET', '/logs/kube-apiserver.log')).status, 404);
    const anonymous = await call('anonymous', 'GET', '/logs/kube-apiserver.log');
    assert.equal(anonymous.status, 403);
    assert.equal(
      anonymous.json().message,
      'forbidden: User "system:anonymous" cannot get path "/logs/kube-apiserver.log": No policy matched.',
    );
    const other = await call(carol, 'GET', '/metrics');
    assert.equal(other.status, 403);
    assert.equal(other.json().message, 'forbidden: User "carol" cannot get path "/metrics": No policy matched.');
  });

  it('RBAC decides what no policy matches', async () => {
    assert.equal((await call(carol, 'GET', '/api/v1/namespaces/other/secrets')).status, 403);
    const role = await s.api.admin('POST', `${RBAC}/namespaces/other/roles`, {
      body: {
        metadata: { name: 'secret-reader' },
        rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }],
      },
    });
    assert.equal(role.status, 201, role.text);
    const binding = await s.api.admin('POST', `${RBAC}/namespaces/other/rolebindings`, {
      body: {
        metadata: { name: 'carol-secrets' },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'secret-reader' },
        subjects: [{ kind: 'User', name: 'carol' }],
      },
    });
    assert.equal(binding.status, 201, binding.text);
    const deadline = Date.now() + 5000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await call(carol, 'GET', '/api/v1/namespaces/other/secrets')).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(status, 200);
  });

  it('access reviews ask ABAC; SelfSubjectRulesReview lists its rules', async () => {
    const sar = await s.api.admin('POST', `${REVIEWS}/subjectaccessreviews`, {
      body: {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: 'alice',
          resourceAttributes: { namespace: 'team', verb: 'delete', resource: 'deployments', group: 'apps' },
        },
      },
    });
    assert.equal(sar.status, 201, sar.text);
    assert.deepEqual(sar.json().status, { allowed: true });
    const rules = await call(alice, 'POST', `${REVIEWS}/selfsubjectrulesreviews`, {
      apiVersion: 'authorization.orch.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'team' },
    });
    assert.equal(rules.status, 201, rules.text);
    assert.deepEqual(rules.json().status.resourceRules[0], { verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
  });
});

describe('ABAC start-up errors', () => {
  let dir: string;
  let n = 0;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-abac-errors-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function startError(modes: string[], policyFile?: string): Promise<Error> {
    try {
      const server = await startServer({
        dataDir: join(dir, `data-${++n}`),
        securePort: 0,
        runControllers: false,
        authorizationModes: modes,
        authorizationPolicyFile: policyFile,
      });
      await server.close();
    } catch (e) {
      assert.ok(e instanceof Error);
      return e;
    }
    assert.fail('the server started');
  }

  it('a malformed line refuses start-up, naming the file and the line', async () => {
    const file = join(dir, 'bad.jsonl');
    await writeFile(
      file,
      `# ok so far\n${policy({ user: 'a', resource: '*' })}\n{"apiVersion": "${V1}", "kind": "Policy", "spec": {\n`,
    );
    const e = await startError(['ABAC', 'RBAC'], file);
    assert.ok(e instanceof AbacPolicyError);
    assert.equal(
      e.message,
      `error reading policy file ${file}, line 3: {"apiVersion": "${V1}", "kind": "Policy", "spec": {: couldn't get version/kind; json parse error: unexpected end of JSON input`,
    );
  });

  it('a missing file, a mode without its file and a file without its mode refuse start-up', async () => {
    const missing = join(dir, 'absent.jsonl');
    assert.equal((await startError(['ABAC'], missing)).message, `open ${missing}: no such file or directory`);
    const noFile = await startError(['ABAC', 'RBAC']);
    assert.ok(noFile instanceof AuthorizationModeError);
    assert.equal(noFile.message, "authorization-mode ABAC's authorization policy file not passed");
    const noMode = await startError(['RBAC'], missing);
    assert.equal(noMode.message, 'cannot specify --authorization-policy-file without mode ABAC');
  });

  it('orch-apiserver exits 1 with the line in its error', async () => {
    const file = join(dir, 'cli.jsonl');
    await writeFile(file, `\n\n${policy({ user: 'a' })}\n${policy({ user: 'b', readonly: 'yes' })}\n`);
    const root = resolve(import.meta.dirname, '..', '..');
    const child = spawn(
      process.execPath,
      [
        ...bundledProgram('src/cli/orch-apiserver.ts'),
        `--data-dir=${join(dir, 'cli-data')}`,
        '--secure-port=0',
        '--bind-address=127.0.0.1',
        '--authorization-mode=ABAC,RBAC',
        `--authorization-policy-file=${file}`,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    assert.equal(code, 1, stderr);
    assert.equal(
      stderr.trim(),
      `Error: error reading policy file ${file}, line 4: ${policy({ user: 'b', readonly: 'yes' })}: json: cannot unmarshal string into Go struct field PolicySpec.spec.readonly of type bool`,
    );
  });
});
