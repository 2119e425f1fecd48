import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../apis/api-domain.js';
import { configNames } from './config/config-names.js';
import { ControllerManagerConfigError } from './config/types.js';
import {
  assignMigration,
  CLOUD_CONTROLLER_MANAGER_COMPONENT,
  defaultLeaderMigrationConfiguration,
  leaderMigrationEnabled,
  parseLeaderMigrationConfiguration,
  validateLeaderMigrationConfiguration,
} from './leader-migration-config.js';

const ORCH = apiDomain('orch.io');
const KUBE = apiDomain('k8s.io');

function problems(text: string, domain = ORCH): readonly string[] {
  try {
    parseLeaderMigrationConfiguration(text, domain);
  } catch (e) {
    assert.ok(e instanceof ControllerManagerConfigError, String(e));
    return e.problems;
  }
  assert.fail('expected the file to be rejected');
}

describe('LeaderMigrationConfiguration files', () => {
  it('reads v1alpha1, v1beta1 and v1 (which implies leases)', () => {
    const body =
      'leaderName: cloud-migration\ncontrollerLeaders:\n- name: route-controller\n  component: "*"\n- name: service-controller\n  component: kube-controller-manager\n';
    const expected = {
      leaderName: 'cloud-migration',
      resourceLock: 'leases',
      controllerLeaders: [
        { name: 'route-controller', component: '*' },
        { name: 'service-controller', component: 'kube-controller-manager' },
      ],
    };
    for (const v of ['v1alpha1', 'v1beta1']) {
      const text = `apiVersion: controllermanager.config.k8s.io/${v}\nkind: LeaderMigrationConfiguration\nresourceLock: leases\n${body}`;
      assert.deepEqual(parseLeaderMigrationConfiguration(text, KUBE), expected, v);
    }
    const v1 = `apiVersion: controllermanager.config.orch.io/v1\nkind: LeaderMigrationConfiguration\n${body}`;
    assert.deepEqual(parseLeaderMigrationConfiguration(v1, ORCH), expected);
  });

  it('lists every problem', () => {
    const head = 'apiVersion: controllermanager.config.orch.io/v1alpha1\nkind: LeaderMigrationConfiguration\n';
    const cases: [string, string[]][] = [
      [
        `${head}resourceLock: leases\n`,
        ['leaderName: Required value: leaderName must be set for LeaderMigrationConfiguration'],
      ],
      [
        `${head}leaderName: m\nresourceLock: configmaps\n`,
        [`resourceLock: Invalid value: "configmaps": resource Lock must be one of 'leases' or 'endpoints'`],
      ],
      [
        `${head}leaderName: m\n`,
        [`resourceLock: Invalid value: "": resource Lock must be one of 'leases' or 'endpoints'`],
      ],
      [
        `${head}leaderName: m\nresourceLock: endpoints\n`,
        ['resourceLock: Invalid value: "endpoints": endpoints lock is removed, migrate to leases'],
      ],
      [
        `${head}leaderName: m\nresourceLock: leases\ncontrollerLeaders:\n- {name: a, component: x}\n- {component: "*"}\n- {name: a}\n`,
        [
          'controllerLeaders[1].name: Required value: name must be set',
          'controllerLeaders[2].component: Required value: component must be set',
          'controllerLeaders[2].name: Duplicate value: "a"',
        ],
      ],
      [
        `${head}leaderName: m\nresourceLock: leases\ncontrollerLeaders:\n- {name: a, component: x, lease: y}\n`,
        ['unknown field "controllerLeaders[0].lease"'],
      ],
      [
        'apiVersion: controllermanager.config.orch.io/v1\nkind: LeaderMigrationConfiguration\nleaderName: m\nresourceLock: leases\n',
        ['unknown field "resourceLock"'],
      ],
      [
        `${head}leaderName: 5\n`,
        ['json: cannot unmarshal number 5 into Go struct field LeaderMigrationConfiguration.leaderName of type string'],
      ],
      [
        'apiVersion: controllermanager.config.k8s.io/v1alpha1\nkind: LeaderMigrationConfiguration\n',
        [
          'no kind "LeaderMigrationConfiguration" is registered for version "controllermanager.config.k8s.io/v1alpha1"; expected LeaderMigrationConfiguration (controllermanager.config.orch.io/v1alpha1, controllermanager.config.orch.io/v1beta1, controllermanager.config.orch.io/v1)',
        ],
      ],
      ['leaderName: m\n', ["Object 'Kind' is missing in the configuration"]],
    ];
    for (const [text, expected] of cases) assert.deepEqual(problems(text), expected, text);
  });

  it('validates under a field path', () => {
    assert.deepEqual(
      validateLeaderMigrationConfiguration(defaultLeaderMigrationConfiguration(), 'Generic.LeaderMigration'),
      [],
    );
    assert.deepEqual(
      validateLeaderMigrationConfiguration(
        { leaderName: '', resourceLock: 'leases', controllerLeaders: [] },
        'Generic.LeaderMigration',
      ).map((e) => e.field),
      ['Generic.LeaderMigration.leaderName'],
    );
  });
});

describe('leader migration decisions', () => {
  const controllers = [
    { name: 'service-lb-controller', aliases: ['service'] },
    { name: 'node-route-controller', aliases: ['route'] },
    { name: 'cloud-node-lifecycle-controller', aliases: ['cloud-node-lifecycle'] },
    { name: 'deployment-controller', aliases: ['deployment'] },
    { name: 'serviceaccount-token-controller', aliases: ['serviceaccount-token'] },
  ];
  const config = {
    leaderName: 'cloud-provider-extraction-migration',
    resourceLock: 'leases',
    controllerLeaders: [
      { name: 'service', component: 'kube-controller-manager' },
      { name: 'node-route-controller', component: CLOUD_CONTROLLER_MANAGER_COMPONENT },
      { name: 'cloud-node-lifecycle-controller', component: '*' },
      { name: 'serviceaccount-token-controller', component: '*' },
    ],
  };

  it('runs listed controllers of this component (or *) under the migration Lease, others’ nowhere, the rest under the main Lease', () => {
    const component = configNames(KUBE).controllerManagerComponent;
    assert.equal(component, 'kube-controller-manager');
    assert.deepEqual(
      assignMigration({ config, component, controllers, mainLockOnly: ['serviceaccount-token-controller'] }),
      {
        main: ['deployment-controller', 'serviceaccount-token-controller'],
        migrated: ['service-lb-controller', 'cloud-node-lifecycle-controller'],
        unowned: ['node-route-controller'],
      },
    );
    assert.deepEqual(assignMigration({ config, component: CLOUD_CONTROLLER_MANAGER_COMPONENT, controllers }), {
      main: ['deployment-controller'],
      migrated: ['node-route-controller', 'cloud-node-lifecycle-controller', 'serviceaccount-token-controller'],
      unowned: ['service-lb-controller'],
    });
  });

  it('under the orch.io profile the controller manager is orch-controller-manager', () => {
    const component = configNames(ORCH).controllerManagerComponent;
    const orchConfig = { ...config, controllerLeaders: [{ name: 'deployment', component: 'orch-controller-manager' }] };
    assert.deepEqual(assignMigration({ config: orchConfig, component, controllers: controllers.slice(3, 4) }), {
      main: [],
      migrated: ['deployment-controller'],
      unowned: [],
    });
  });

  it('kube’s default migration moves the three cloud controllers for any component', () => {
    const d = defaultLeaderMigrationConfiguration();
    assert.equal(d.leaderName, 'cloud-provider-extraction-migration');
    assert.equal(d.resourceLock, 'leases');
    assert.deepEqual(
      d.controllerLeaders.map((l) => `${l.name}/${l.component}`),
      ['route-controller/*', 'service-controller/*', 'cloud-node-lifecycle-controller/*'],
    );
  });

  it('needs leader election', () => {
    assert.equal(leaderMigrationEnabled({ LeaderMigrationEnabled: true, LeaderElection: { leaderElect: true } }), true);
    assert.equal(
      leaderMigrationEnabled({ LeaderMigrationEnabled: true, LeaderElection: { leaderElect: false } }),
      false,
    );
    assert.equal(
      leaderMigrationEnabled({ LeaderMigrationEnabled: false, LeaderElection: { leaderElect: true } }),
      false,
    );
  });
});
