import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AuditPolicyRule } from './audit-policy.js';
import { LogBackend } from './log-backend.js';
import type { AuditAttributes } from './policy-evaluator.js';
import { AuditPolicyEvaluator } from './policy-evaluator.js';

const attrs = (o: Partial<AuditAttributes> = {}): AuditAttributes => ({
  user: { name: 'alice', groups: ['dev', 'system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/ns/pods/p',
  apiGroup: '',
  namespace: 'ns',
  resource: 'pods',
  subresource: '',
  name: 'p',
  ...o,
});

describe('audit policy evaluation', () => {
  const level = (rule: Omit<AuditPolicyRule, 'level'>, a: AuditAttributes) =>
    new AuditPolicyEvaluator({ rules: [{ ...rule, level: 'Metadata' }] }).evaluate(a).level;

  const cases: [string, Omit<AuditPolicyRule, 'level'>, AuditAttributes, 'Metadata' | 'None'][] = [
    ['empty rule matches all', {}, attrs(), 'Metadata'],
    ['user', { users: ['bob'] }, attrs(), 'None'],
    ['group', { userGroups: ['dev'] }, attrs(), 'Metadata'],
    ['verb', { verbs: ['list'] }, attrs(), 'None'],
    ['namespace', { namespaces: ['ns'] }, attrs(), 'Metadata'],
    ['cluster-scoped is the empty namespace', { namespaces: [''] }, attrs({ namespace: '' }), 'Metadata'],
    ['namespace rule never matches non-resource', { namespaces: [''] }, attrs({ isResourceRequest: false }), 'None'],
    ['group of resources', { resources: [{ group: 'apps' }] }, attrs(), 'None'],
    ['resource', { resources: [{ resources: ['pods'] }] }, attrs(), 'Metadata'],
    ['sub-resource needs its name', { resources: [{ resources: ['pods'] }] }, attrs({ subresource: 'log' }), 'None'],
    ['pods/log', { resources: [{ resources: ['pods/log'] }] }, attrs({ subresource: 'log' }), 'Metadata'],
    ['*/status', { resources: [{ resources: ['*/status'] }] }, attrs({ subresource: 'status' }), 'Metadata'],
    ['pods/*', { resources: [{ resources: ['pods/*'] }] }, attrs({ subresource: 'exec' }), 'Metadata'],
    ['resource names', { resources: [{ resources: ['pods'], resourceNames: ['q'] }] }, attrs(), 'None'],
    [
      'non-resource exact',
      { nonResourceURLs: ['/version'] },
      attrs({ isResourceRequest: false, path: '/version' }),
      'Metadata',
    ],
    [
      'non-resource prefix',
      { nonResourceURLs: ['/healthz*'] },
      attrs({ isResourceRequest: false, path: '/healthz/etcd' }),
      'Metadata',
    ],
    ['non-resource never matches resources', { nonResourceURLs: ['*'] }, attrs(), 'None'],
  ];
  for (const [name, rule, a, want] of cases) {
    it(name, () => assert.equal(level(rule, a), want));
  }

  it('first match wins; omitted stages are the union of rule and policy', () => {
    const e = new AuditPolicyEvaluator({
      omitStages: ['RequestReceived'],
      omitManagedFields: true,
      rules: [
        { level: 'Request', verbs: ['get'], omitStages: ['ResponseStarted'], omitManagedFields: false },
        { level: 'RequestResponse' },
      ],
    });
    const c = e.evaluate(attrs());
    assert.equal(c.level, 'Request');
    assert.deepEqual([...c.omitStages].sort(), ['RequestReceived', 'ResponseStarted']);
    assert.equal(c.omitManagedFields, false);
    assert.equal(e.evaluate(attrs({ verb: 'list' })).omitManagedFields, true);
  });
});

describe('audit log rotation', () => {
  it('rotates past the size limit and keeps maxbackup files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-audit-rotate-'));
    try {
      let t = Date.parse('2026-01-01T00:00:00Z');
      const path = join(dir, 'audit.log');
      const backend = new LogBackend({
        path,
        maxSizeMB: 1,
        maxBackups: 2,
        now: () => {
          t += 1000;
          return new Date(t);
        },
      });
      const payload = 'x'.repeat(100_000);
      for (let i = 0; i < 45; i++) backend.write({ i, payload });
      backend.close();
      const files = readdirSync(dir).sort();
      assert.equal(files.length, 3, files.join(','));
      assert.ok(files.includes('audit.log'));
      for (const f of files.filter((f) => f !== 'audit.log'))
        assert.match(f, /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/);
      const last = readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).i);
      assert.equal(last.at(-1), 44);
      assert.ok(last.length <= 11);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
