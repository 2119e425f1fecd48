import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import { NO_SELECTORS } from '../../apis/request/authorization-attributes.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import type { Attributes } from '../authorizer.js';
import { abacAuthorizer } from './abac-authorizer.js';
import { type AbacPolicy, AbacPolicyError, parsePolicyFile } from './abac-policy.js';
import { loadPolicyFile } from './load-policy-file.js';

const ORCH = apiDomain('orch.io');
const KUBE = apiDomain('k8s.io');
const V1 = 'abac.authorization.orch.io/v1beta1';

const policy = (p: Partial<AbacPolicy>): AbacPolicy => ({
  user: '',
  group: '',
  readonly: false,
  apiGroup: '',
  resource: '',
  namespace: '',
  nonResourcePath: '',
  ...p,
});

const line = (spec: Record<string, unknown>, apiVersion = V1) => JSON.stringify({ apiVersion, kind: 'Policy', spec });

describe('ABAC policy file decoding', () => {
  const cases: { name: string; line: string; domain?: typeof ORCH; want: AbacPolicy; unversioned?: boolean }[] = [
    {
      name: 'v1beta1 fields as given',
      line: line({ user: 'alice', namespace: 'team', resource: 'pods', apiGroup: '', readonly: true }),
      want: policy({ user: 'alice', namespace: 'team', resource: 'pods', readonly: true }),
    },
    {
      name: 'v1beta1 user * is every authenticated user',
      line: line({ user: '*', nonResourcePath: '*', readonly: true }),
      want: policy({ group: 'system:authenticated', nonResourcePath: '*', readonly: true }),
    },
    {
      name: 'v1beta1 group * likewise, dropping the user',
      line: line({ user: 'bob', group: '*', namespace: '*', resource: '*', apiGroup: '*' }),
      want: policy({ group: 'system:authenticated', namespace: '*', resource: '*', apiGroup: '*' }),
    },
    {
      name: 'the k8s.io profile reads kube’s group name',
      line: line({ group: 'dev', resource: 'pods', namespace: '*' }, 'abac.authorization.kubernetes.io/v1beta1'),
      domain: KUBE,
      want: policy({ group: 'dev', resource: 'pods', namespace: '*' }),
    },
    {
      name: 'unknown fields are ignored',
      line: JSON.stringify({ apiVersion: V1, kind: 'Policy', spec: { user: 'a', verbs: ['get'] }, extra: 1 }),
      want: policy({ user: 'a' }),
    },
    {
      name: 'v0 with nothing named: every authenticated user, everything, every path',
      line: '{"readonly": true}',
      want: policy({
        group: 'system:authenticated',
        readonly: true,
        namespace: '*',
        resource: '*',
        apiGroup: '*',
        nonResourcePath: '*',
      }),
      unversioned: true,
    },
    {
      name: 'v0 with a user and a namespace',
      line: '{"user": "alice", "namespace": "team"}',
      want: policy({ user: 'alice', namespace: 'team', resource: '*', apiGroup: '*' }),
      unversioned: true,
    },
    {
      name: 'v0 user * is every authenticated user',
      line: '{"user": "*", "resource": "pods"}',
      want: policy({ group: 'system:authenticated', resource: 'pods', namespace: '*', apiGroup: '*' }),
      unversioned: true,
    },
    {
      name: 'v0 with its explicit version counts as versioned',
      line: '{"apiVersion": "abac.authorization.orch.io/v0", "kind": "Policy", "group": "ops"}',
      want: policy({ group: 'ops', resource: '*', namespace: '*', apiGroup: '*', nonResourcePath: '*' }),
    },
    {
      name: 'a line not starting with { is YAML, as kube’s decoder reads it',
      line: 'user: carol',
      want: policy({ user: 'carol', resource: '*', namespace: '*', apiGroup: '*', nonResourcePath: '*' }),
      unversioned: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const file = parsePolicyFile(`${c.line}\n`, '/p', c.domain ?? ORCH);
      assert.deepEqual(file.policies, [c.want]);
      assert.equal(file.unversionedLines, c.unversioned ? 1 : 0);
    });
  }

  it('skips blank lines and comments, keeps order, accepts CRLF and a missing final newline', () => {
    const text = `# policies\r\n\r\n   \n${line({ user: 'a', resource: '*' })}\r\n  # indented comment\n${line({ user: 'b', resource: '*' })}`;
    const file = parsePolicyFile(text, '/p', ORCH);
    assert.deepEqual(
      file.policies.map((p) => p.user),
      ['a', 'b'],
    );
  });

  const bad: { name: string; text: string; want: string }[] = [
    {
      name: 'truncated JSON',
      text: `${line({ user: 'a' })}\n\n{"apiVersion": "${V1}", "kind": "Policy", "spec": {"user": "a"}\n`,
      want: `error reading policy file /etc/abac.jsonl, line 3: {"apiVersion": "${V1}", "kind": "Policy", "spec": {"user": "a"}: couldn't get version/kind; json parse error: unexpected end of JSON input`,
    },
    {
      name: 'a field of the wrong type',
      text: `# header\n${line({ user: 'a', readonly: 'yes' })}\n`,
      want: `error reading policy file /etc/abac.jsonl, line 2: ${line({ user: 'a', readonly: 'yes' })}: json: cannot unmarshal string into Go struct field PolicySpec.spec.readonly of type bool`,
    },
    {
      name: 'a spec that is not an object',
      text: `{"apiVersion": "${V1}", "kind": "Policy", "spec": ["x"]}\n`,
      want: `error reading policy file /etc/abac.jsonl, line 1: {"apiVersion": "${V1}", "kind": "Policy", "spec": ["x"]}: json: cannot unmarshal array into Go struct field Policy.spec of type v1beta1.PolicySpec`,
    },
    {
      name: 'an unknown kind',
      text: `{"apiVersion": "${V1}", "kind": "Rule"}\n`,
      want: `error reading policy file /etc/abac.jsonl, line 1: {"apiVersion": "${V1}", "kind": "Rule"}: no kind "Rule" is registered for version "${V1}"`,
    },
    {
      name: 'another domain’s group',
      text: `${line({ user: 'a' }, 'abac.authorization.kubernetes.io/v1beta1')}\n`,
      want: `error reading policy file /etc/abac.jsonl, line 1: ${line({ user: 'a' }, 'abac.authorization.kubernetes.io/v1beta1')}: no kind "Policy" is registered for version "abac.authorization.kubernetes.io/v1beta1"`,
    },
    {
      name: 'a list',
      text: '[1]\n',
      want: `error reading policy file /etc/abac.jsonl, line 1: [1]: couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    },
    {
      name: 'a line too long to scan',
      text: `${line({ user: 'x'.repeat(70_000) })}\n`,
      want: 'error reading policy file /etc/abac.jsonl: bufio.Scanner: token too long',
    },
  ];
  for (const c of bad) {
    it(`refuses ${c.name}, naming the line`, () => {
      assert.throws(
        () => parsePolicyFile(c.text, '/etc/abac.jsonl', ORCH),
        (e: unknown) => e instanceof AbacPolicyError && e.message === c.want,
      );
    });
  }

  describe('from a file', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'orch-abac-'));
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it('reads the policies', async () => {
      const path = join(dir, 'policy.jsonl');
      await writeFile(path, `${line({ user: 'a', resource: 'pods', namespace: '*' })}\n{"user": "b"}\n`);
      const file = await loadPolicyFile(path, ORCH);
      assert.equal(file.policies.length, 2);
      assert.equal(file.unversionedLines, 1);
    });

    it('a missing file is Go’s open error', async () => {
      const path = join(dir, 'absent.jsonl');
      await assert.rejects(loadPolicyFile(path, ORCH), {
        name: 'AbacPolicyError',
        message: `open ${path}: no such file or directory`,
      });
    });
  });
});

function attrs(user: UserInfo, verb: string, target: Partial<Attributes>): Attributes {
  return {
    user,
    verb,
    isResourceRequest: target.path === undefined,
    path: '',
    namespace: '',
    apiGroup: '',
    apiVersion: 'v1',
    resource: '',
    subresource: '',
    name: '',
    ...NO_SELECTORS,
    ...target,
  };
}

describe('ABAC decisions', () => {
  const alice: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };
  const bob: UserInfo = { name: 'bob', groups: ['system:authenticated'] };
  const anonymous: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  const authz = abacAuthorizer([
    policy({ user: 'alice', namespace: 'team', resource: '*', apiGroup: '*' }),
    policy({ group: 'dev', namespace: '*', resource: 'nodes', apiGroup: '', readonly: true }),
    policy({ group: 'system:authenticated', nonResourcePath: '/version', readonly: true }),
    policy({ user: 'bob', nonResourcePath: '/logs/*' }),
    policy({ user: 'bob', namespace: 'team', resource: 'deployments', apiGroup: 'apps', readonly: true }),
    policy({ namespace: '*', resource: '*', apiGroup: '*' }),
  ]);
  const cases: { name: string; a: Attributes; allow: boolean }[] = [
    {
      name: 'user and namespace match',
      a: attrs(alice, 'delete', { namespace: 'team', resource: 'pods' }),
      allow: true,
    },
    { name: 'another namespace', a: attrs(alice, 'get', { namespace: 'other', resource: 'pods' }), allow: false },
    { name: 'group read of a cluster resource', a: attrs(alice, 'list', { resource: 'nodes' }), allow: true },
    { name: 'readonly refuses a write', a: attrs(alice, 'create', { resource: 'nodes' }), allow: false },
    {
      name: 'sub-resources follow their resource',
      a: attrs(alice, 'get', { resource: 'nodes', subresource: 'status' }),
      allow: true,
    },
    { name: 'exact non-resource path', a: attrs(bob, 'get', { path: '/version' }), allow: true },
    { name: 'readonly path refuses post', a: attrs(bob, 'post', { path: '/version' }), allow: false },
    { name: 'prefix path', a: attrs(bob, 'post', { path: '/logs/kube/x' }), allow: true },
    { name: 'prefix path needs the prefix', a: attrs(bob, 'get', { path: '/logsx' }), allow: false },
    {
      name: 'api group must match',
      a: attrs(bob, 'get', { namespace: 'team', resource: 'deployments', apiGroup: 'extensions' }),
      allow: false,
    },
    {
      name: 'api group matches',
      a: attrs(bob, 'watch', { namespace: 'team', resource: 'deployments', apiGroup: 'apps' }),
      allow: true,
    },
    {
      name: 'a policy naming no subject matches no one',
      a: attrs(bob, 'delete', { namespace: 'x', resource: 'secrets' }),
      allow: false,
    },
    { name: 'anonymous is not authenticated', a: attrs(anonymous, 'get', { path: '/version' }), allow: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = authz.decide?.(c.a);
      assert.deepEqual(
        r,
        c.allow ? { decision: 'allow', reason: '' } : { decision: 'no-opinion', reason: 'No policy matched.' },
      );
    });
  }

  it('refuses a { line that is not JSON, as kube’s JSON decoder does', () => {
    assert.throws(
      () => parsePolicyFile(`{apiVersion: ${V1}, kind: Policy}`, '/p', ORCH),
      /^AbacPolicyError: error reading policy file \/p, line 1: .*json parse error/,
    );
  });

  it('lists the rules of a user in a namespace as kube does', async () => {
    const signal = new AbortController();
    const rules = await authz.rulesFor?.(alice, 'team', { signal: signal.signal } as never);
    assert.deepEqual(rules, {
      resourceRules: [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] },
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['nodes'], resourceNames: [] },
      ],
      // kube lists a policy only when its namespace is * or the one asked, paths included.
      nonResourceRules: [],
      incomplete: false,
      errors: [],
    });
    const elsewhere = await authz.rulesFor?.(bob, '', { signal: signal.signal } as never);
    assert.deepEqual(elsewhere?.resourceRules, []);
    assert.deepEqual(elsewhere?.nonResourceRules, [
      { verbs: ['get', 'list', 'watch'], nonResourceURLs: ['/version'] },
      { verbs: ['*'], nonResourceURLs: ['/logs/*'] },
    ]);
  });
});
