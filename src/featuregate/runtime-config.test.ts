import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RuntimeConfigError } from './errors.js';
import { groupVersionRegistry, RuntimeConfig } from './runtime-config.js';

type Probe = [group: string, version: string, resource: string | undefined, enabled: boolean];

const cases: { config: string; probes: Probe[] }[] = [
  {
    config: '',
    probes: [
      ['', 'v1', undefined, true],
      ['apps', 'v1', 'deployments', true],
      ['batch', 'v2beta1', undefined, false],
      ['flow.orch.io', 'v1alpha1', 'things', false],
    ],
  },
  {
    config: 'apps/v1=false',
    probes: [
      ['apps', 'v1', undefined, false],
      ['apps', 'v1', 'deployments', false],
      ['batch', 'v1', undefined, true],
    ],
  },
  {
    config: 'flow.orch.io/v1alpha1',
    probes: [
      ['flow.orch.io', 'v1alpha1', undefined, true],
      ['flow.orch.io', 'v1alpha1', 'things', true],
      ['flow.orch.io', 'v1alpha2', undefined, false],
    ],
  },
  {
    config: 'flow.orch.io/v1alpha1=true,batch/v1=0',
    probes: [
      ['flow.orch.io', 'v1alpha1', undefined, true],
      ['batch', 'v1', undefined, false],
    ],
  },
  {
    // one resource of an otherwise disabled version
    config: 'flow.orch.io/v1alpha1/things',
    probes: [
      ['flow.orch.io', 'v1alpha1', 'things', true],
      ['flow.orch.io', 'v1alpha1', 'others', false],
      ['flow.orch.io', 'v1alpha1', undefined, false],
    ],
  },
  {
    config: 'apps/v1/deployments=false',
    probes: [
      ['apps', 'v1', 'deployments', false],
      ['apps', 'v1', 'statefulsets', true],
    ],
  },
  {
    config: 'api/all=false,/v1=true',
    probes: [
      ['', 'v1', undefined, true],
      ['apps', 'v1', undefined, false],
    ],
  },
  {
    config: 'api/all=false,v1',
    probes: [
      ['', 'v1', undefined, true],
      ['apps', 'v1', undefined, false],
    ],
  },
  {
    // kube-apiserver's legacy spellings of the core group
    config: 'api/all=false,api/v1,api/legacy=false',
    probes: [
      ['', 'v1', undefined, true],
      ['api', 'v1', undefined, false],
      ['apps', 'v1', undefined, false],
    ],
  },
  {
    config: 'api/v1/secrets=false,v1/events=false',
    probes: [
      ['', 'v1', 'configmaps', true],
      ['', 'v1', 'secrets', false],
      ['', 'v1', 'events', false],
    ],
  },
  {
    config: 'v1=false,/v1/pods=true',
    probes: [
      ['', 'v1', undefined, false],
      ['', 'v1', 'pods', true],
    ],
  },
  {
    config: 'api/all=false,api/ga=true',
    probes: [
      ['apps', 'v1', undefined, true],
      ['batch', 'v1beta1', undefined, false],
    ],
  },
  {
    config: 'api/alpha=true,api/beta',
    probes: [
      ['x.orch.io', 'v1alpha1', undefined, true],
      ['x.orch.io', 'v2beta3', undefined, true],
      ['x.orch.io', 'v1', undefined, true],
    ],
  },
  {
    config: 'api/all=true,api/alpha=false',
    probes: [
      ['x.orch.io', 'v1alpha1', undefined, false],
      ['x.orch.io', 'v1beta1', undefined, true],
    ],
  },
  {
    // a version key beats api/*; a resource key beats both
    config: 'api/all=false,apps/v1,apps/v1/deployments=false',
    probes: [
      ['apps', 'v1', undefined, true],
      ['apps', 'v1', 'deployments', false],
      ['apps', 'v1', 'replicasets', true],
      ['batch', 'v1', undefined, false],
    ],
  },
  {
    config: ' apps/v1 = false , ,batch/v1=false',
    probes: [
      ['apps', 'v1', undefined, false],
      ['batch', 'v1', undefined, false],
    ],
  },
];

describe('RuntimeConfig', () => {
  for (const c of cases) {
    it(`--runtime-config=${JSON.stringify(c.config)}`, () => {
      const rc = RuntimeConfig.parse(c.config);
      for (const [g, v, r, want] of c.probes) {
        assert.equal(rc.isEnabled(g, v, r), want, `${g}/${v}${r ? `/${r}` : ''}`);
      }
    });
  }

  it('accepts repeated flag values, later keys winning', () => {
    const rc = RuntimeConfig.parse(['apps/v1=false', 'apps/v1=true']);
    assert.equal(rc.isEnabled('apps', 'v1'), true);
  });

  it('uses injected defaults, with per-resource defaults overridden by version keys', () => {
    const defaults = {
      versionEnabled: (_g: string, v: string) => v === 'v1' || v === 'v1beta1',
      resourceEnabled: (_g: string, _v: string, r: string) => (r === 'legacy' ? false : undefined),
    };
    const plain = RuntimeConfig.parse('', defaults);
    assert.equal(plain.isEnabled('old.orch.io', 'v1beta1'), true);
    assert.equal(plain.isEnabled('old.orch.io', 'v1beta1', 'legacy'), false);
    const overridden = RuntimeConfig.parse('old.orch.io/v1beta1=true', defaults);
    assert.equal(overridden.isEnabled('old.orch.io', 'v1beta1', 'legacy'), true);
  });

  it('lists explicitly enabled resources', () => {
    const rc = RuntimeConfig.parse('x.orch.io/v1alpha1/a,x.orch.io/v1alpha1/b=false,x.orch.io/v1alpha1/c=true');
    assert.deepEqual(rc.explicitlyEnabledResources('x.orch.io', 'v1alpha1'), ['a', 'c']);
  });

  const errors: [string, string][] = [
    ['apps/v1=maybe', 'invalid value of apps/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'],
    ['api/all=1', 'invalid value api/all=1'],
    ['apps', 'runtime-config invalid key apps'],
    ['a/b/c/d', 'runtime-config invalid key a/b/c/d'],
    ['apps/', 'runtime-config invalid key apps/'],
    [
      'apps/v1/Deployments',
      'invalid key apps/v1/Deployments: group/version/resource and resource is always lowercase plural, not "Deployments"',
    ],
    ['v2', 'runtime-config invalid key v2'],
    ['v1/Pods', 'invalid key v1/Pods: group/version/resource and resource is always lowercase plural, not "Pods"'],
    [
      'apps=true,batch/v1=x',
      '[runtime-config invalid key apps, invalid value of batch/v1: x, err: strconv.ParseBool: parsing "x": invalid syntax]',
    ],
  ];
  for (const [value, message] of errors) {
    it(`rejects ${JSON.stringify(value)}`, () => {
      assert.throws(
        () => RuntimeConfig.parse(value),
        (err: unknown) => {
          assert.ok(err instanceof RuntimeConfigError);
          assert.equal(err.message, message);
          return true;
        },
      );
    });
  }

  describe('validate against served group versions', () => {
    const registry = groupVersionRegistry([
      { group: '', version: 'v1', resource: 'configmaps' },
      { group: '', version: 'v1', resource: 'pods' },
      { group: 'apps', version: 'v1', resource: 'deployments' },
      { group: 'coordination.orch.io', version: 'v1', resource: 'leases' },
    ]);
    const rows: [string, string | undefined][] = [
      ['apps/v1=false,/v1', undefined],
      ['v1=false,api/v1/pods,coordination.orch.io/v1/leases=false', undefined],
      ['api/all=false,apps/v1', undefined],
      ['api/legacy=true,api/all=false,api/v1', undefined],
      ['api/all=false', 'invalid key with only api/all=false'],
      ['api/legacy,api/all=false', 'invalid key with only api/all=false'],
      ['foo.orch.io/v1,bar.orch.io/v1/things', 'unknown api groups foo.orch.io,bar.orch.io'],
      ['api/v2', 'unknown api groups api'],
      ['apps/v2', 'group version apps/v2 that has not been registered'],
      ['/v2/pods', 'group version v2 that has not been registered'],
      // kube-apiserver stops at the unknown group before it looks at versions
      ['apps/v9,nope/v1', 'unknown api groups nope'],
      [
        'apps/v9,coordination.orch.io/v2',
        '[group version apps/v9 that has not been registered, group version coordination.orch.io/v2 that has not been registered]',
      ],
      [
        'coordination.orch.io/v1/foos=false',
        'resource foos of group version coordination.orch.io/v1 that has not been registered',
      ],
      ['v1/things', 'resource things of group version v1 that has not been registered'],
    ];
    for (const [value, message] of rows) {
      it(`${JSON.stringify(value)} → ${message ?? 'ok'}`, () => {
        const rc = RuntimeConfig.parse(value);
        if (message === undefined) rc.validate(registry);
        else assert.throws(() => rc.validate(registry), { name: 'RuntimeConfigError', message });
      });
    }
  });
});
