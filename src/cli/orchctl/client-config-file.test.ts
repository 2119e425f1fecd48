import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import { configEnvVar, configFilePath, contextNamespace } from './client-config-file.js';

describe('configFilePath', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchctl-config-path-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const present = join(dir, 'present');
  writeFileSync(present, '');
  const orch = apiDomain('orch.io');
  const kube = apiDomain('k8s.io');
  const io = (env: Record<string, string>) => ({ cwd: dir, env, homeDir: '/home/u' });

  it('names the variable after the product', () => {
    assert.equal(configEnvVar(orch), `${orch.componentName('x').split('-')[0].toUpperCase()}CONFIG`);
    assert.equal(configEnvVar(kube), 'KUBECONFIG');
  });

  const cases: { name: string; explicit: string; domain: typeof orch; env: Record<string, string>; want: string }[] = [
    {
      name: '--kubeconfig wins',
      explicit: 'x.yaml',
      domain: orch,
      env: { [configEnvVar(orch)]: present },
      want: join(dir, 'x.yaml'),
    },
    {
      name: 'first existing file of the variable',
      explicit: '',
      domain: orch,
      env: { [configEnvVar(orch)]: ['absent', present].join(delimiter) },
      want: present,
    },
    {
      name: 'last listed file when none exists',
      explicit: '',
      domain: orch,
      env: { [configEnvVar(orch)]: ['a1', 'a2'].join(delimiter) },
      want: join(dir, 'a2'),
    },
    {
      name: 'home default (orch)',
      explicit: '',
      domain: orch,
      env: {},
      want: join('/home/u', `.${orch.componentName('x').split('-')[0]}`, 'config'),
    },
    {
      name: 'home default (k8s)',
      explicit: '',
      domain: kube,
      env: { [configEnvVar(orch)]: present },
      want: join('/home/u', '.kube', 'config'),
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(configFilePath(c.explicit, c.domain, io(c.env)), c.want));
  }

  it('contextNamespace: the context namespace, else default', () => {
    const doc = {
      'current-context': 'a',
      contexts: [
        { name: 'a', context: { namespace: 'team' } },
        { name: 'b', context: {} },
      ],
    };
    assert.equal(contextNamespace(doc, ''), 'team');
    assert.equal(contextNamespace(doc, 'b'), 'default');
    assert.equal(contextNamespace({}, ''), 'default');
  });
});
