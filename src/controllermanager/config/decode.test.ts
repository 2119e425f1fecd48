import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import {
  decodeCloudControllerManagerConfiguration,
  decodeControllerManagerConfiguration,
  decodeControllerManagerFile,
} from './decode.js';
import { defaultCloudControllerManagerConfiguration, defaultControllerManagerConfiguration } from './defaults.js';
import { formatEffectiveConfiguration } from './print.js';
import { ControllerManagerConfigError } from './types.js';

const ORCH = apiDomain('orch.io');
const KUBE = apiDomain('k8s.io');
const HEAD = 'apiVersion: orchcontrollermanager.config.orch.io/v1alpha1\nkind: OrchControllerManagerConfiguration\n';
const KUBE_HEAD =
  'apiVersion: kubecontrollermanager.config.k8s.io/v1alpha1\nkind: KubeControllerManagerConfiguration\n';

function problems(text: string, domain = ORCH): readonly string[] {
  try {
    decodeControllerManagerFile(text, domain);
  } catch (e) {
    assert.ok(e instanceof ControllerManagerConfigError, String(e));
    return e.problems;
  }
  assert.fail('expected the file to be rejected');
}

describe('decodeControllerManagerConfiguration', () => {
  it('a file with only apiVersion and kind is kube v1.32’s default configuration, in either profile', () => {
    assert.deepEqual(decodeControllerManagerConfiguration(HEAD, ORCH), defaultControllerManagerConfiguration(ORCH));
    assert.deepEqual(
      decodeControllerManagerConfiguration(KUBE_HEAD, KUBE),
      defaultControllerManagerConfiguration(KUBE),
    );
  });

  it('applies kube’s defaults member by member', () => {
    const c = decodeControllerManagerConfiguration(HEAD, ORCH);
    const cases: [unknown, unknown][] = [
      [c.Generic.Port, 10257],
      [c.Generic.Address, '0.0.0.0'],
      [c.Generic.MinResyncPeriod, '12h0m0s'],
      [c.Generic.ControllerStartInterval, '0s'],
      [c.Generic.Controllers, ['*']],
      [
        c.Generic.ClientConnection,
        { orchconfig: '', acceptContentTypes: '', contentType: 'application/vnd.orch.protobuf', qps: 20, burst: 30 },
      ],
      [
        c.Generic.LeaderElection,
        {
          leaderElect: true,
          leaseDuration: '15s',
          renewDeadline: '10s',
          retryPeriod: '2s',
          resourceLock: 'leases',
          resourceName: 'orch-controller-manager',
          resourceNamespace: 'orch-system',
        },
      ],
      [c.Generic.Debugging, { enableProfiling: true, enableContentionProfiling: false }],
      [c.DeploymentController.ConcurrentDeploymentSyncs, 5],
      [c.ReplicaSetController.ConcurrentRSSyncs, 5],
      [c.JobController.ConcurrentJobSyncs, 5],
      [c.CronJobController.ConcurrentCronJobSyncs, 5],
      [c.TTLAfterFinishedController.ConcurrentTTLSyncs, 5],
      [
        c.EndpointSliceController,
        { ConcurrentServiceEndpointSyncs: 5, MaxEndpointsPerSlice: 100, EndpointUpdatesBatchPeriod: '0s' },
      ],
      [c.GarbageCollectorController.ConcurrentGCSyncs, 20],
      [c.GarbageCollectorController.EnableGarbageCollector, true],
      [c.NamespaceController, { NamespaceSyncPeriod: '5m0s', ConcurrentNamespaceSyncs: 10 }],
      [c.SAController.ConcurrentSATokenSyncs, 5],
      [c.PodGCController.TerminatedPodGCThreshold, 12500],
      [c.LegacySATokenCleaner.CleanUpPeriod, '8760h0m0s'],
      [c.NodeLifecycleController.NodeMonitorGracePeriod, '50s'],
      [c.ValidatingAdmissionPolicyStatusController.ConcurrentPolicySyncs, 5],
      [c.OrchCloudShared.ClusterName, 'orch'],
      [c.OrchCloudShared.ConfigureCloudRoutes, true],
    ];
    for (const [actual, expected] of cases) assert.deepEqual(actual, expected);
    const k = decodeControllerManagerConfiguration(KUBE_HEAD, KUBE);
    assert.equal(k.Generic.ClientConnection.contentType, 'application/vnd.kubernetes.protobuf');
    assert.equal(k.Generic.LeaderElection.resourceName, 'kube-controller-manager');
    assert.equal(k.Generic.LeaderElection.resourceNamespace, 'kube-system');
    assert.equal(k.OrchCloudShared.ClusterName, 'kubernetes');
  });

  it('keeps given values (zeros too), normalizes durations and completes list items', () => {
    const c = decodeControllerManagerConfiguration(
      `${HEAD}Generic:\n  MinResyncPeriod: 90m\n  Controllers: [deployment, -job]\nPodGCController:\n  TerminatedPodGCThreshold: 0\nGarbageCollectorController:\n  GCIgnoredResources:\n  - Resource: leases\nNamespaceController:\n  ConcurrentNamespaceSyncs: 2\n`,
      ORCH,
    );
    assert.equal(c.Generic.MinResyncPeriod, '1h30m0s');
    assert.deepEqual(c.Generic.Controllers, ['deployment', '-job']);
    assert.equal(c.PodGCController.TerminatedPodGCThreshold, 0);
    assert.deepEqual(c.GarbageCollectorController.GCIgnoredResources, [{ Group: '', Resource: 'leases' }]);
    assert.deepEqual(c.NamespaceController, { NamespaceSyncPeriod: '5m0s', ConcurrentNamespaceSyncs: 2 });
  });

  it('reads JSON as well as YAML', () => {
    const c = decodeControllerManagerConfiguration(
      JSON.stringify({
        apiVersion: 'orchcontrollermanager.config.orch.io/v1alpha1',
        kind: 'OrchControllerManagerConfiguration',
        DeploymentController: { ConcurrentDeploymentSyncs: 9 },
      }),
      ORCH,
    );
    assert.equal(c.DeploymentController.ConcurrentDeploymentSyncs, 9);
  });

  it('spells five members the kube way under k8s.io', () => {
    const c = decodeControllerManagerConfiguration(
      `${KUBE_HEAD}Generic:\n  ClientConnection:\n    kubeconfig: /etc/kc\nKubeCloudShared:\n  ClusterName: c1\nCSRSigningController:\n  KubeletServingSignerConfiguration: {CertFile: a, KeyFile: b}\n  KubeletClientSignerConfiguration: {CertFile: c, KeyFile: d}\n  KubeAPIServerClientSignerConfiguration: {CertFile: e, KeyFile: f}\n`,
      KUBE,
    );
    assert.equal(c.Generic.ClientConnection.orchconfig, '/etc/kc');
    assert.equal(c.OrchCloudShared.ClusterName, 'c1');
    assert.deepEqual(c.CSRSigningController.NodeAgentServingSignerConfiguration, { CertFile: 'a', KeyFile: 'b' });
    assert.deepEqual(c.CSRSigningController.NodeAgentClientSignerConfiguration, { CertFile: 'c', KeyFile: 'd' });
    assert.deepEqual(c.CSRSigningController.OrchAPIServerClientSignerConfiguration, { CertFile: 'e', KeyFile: 'f' });
    assert.deepEqual(problems(`${KUBE_HEAD}OrchCloudShared: {}\n`, KUBE), ['unknown field "OrchCloudShared"']);
    assert.deepEqual(problems(`${HEAD}KubeCloudShared: {}\n`, ORCH), ['unknown field "KubeCloudShared"']);
  });

  it('lists every unknown field and wrong type with its field path', () => {
    const cases: [string, string, string[]][] = [
      ['unknown top-level member', 'Foo: 1\n', ['unknown field "Foo"']],
      [
        'unknown nested member',
        'Generic:\n  LeaderElection:\n    leaseDurationSeconds: 15\n',
        ['unknown field "Generic.LeaderElection.leaseDurationSeconds"'],
      ],
      [
        'unknown member of a list item',
        'GarbageCollectorController:\n  GCIgnoredResources:\n  - Group: ""\n    Kind: x\n',
        ['unknown field "GarbageCollectorController.GCIgnoredResources[0].Kind"'],
      ],
      ['members are case-sensitive', 'Generic:\n  port: 1\n', ['unknown field "Generic.port"']],
      [
        'string for int32',
        'Generic:\n  Port: "10257"\n',
        [
          'json: cannot unmarshal string into Go struct field OrchControllerManagerConfiguration.Generic.Port of type int32',
        ],
      ],
      [
        'int32 overflow',
        'DeploymentController:\n  ConcurrentDeploymentSyncs: 2147483648\n',
        [
          'json: cannot unmarshal number 2147483648 into Go struct field OrchControllerManagerConfiguration.DeploymentController.ConcurrentDeploymentSyncs of type int32',
        ],
      ],
      [
        'fraction for int32',
        'PodGCController:\n  TerminatedPodGCThreshold: 1.5\n',
        [
          'json: cannot unmarshal number 1.5 into Go struct field OrchControllerManagerConfiguration.PodGCController.TerminatedPodGCThreshold of type int32',
        ],
      ],
      [
        'float32 overflow',
        'Generic:\n  ClientConnection:\n    qps: 1e39\n',
        [
          'json: cannot unmarshal number 1e+39 into Go struct field OrchControllerManagerConfiguration.Generic.ClientConnection.qps of type float32',
        ],
      ],
      [
        'bool for string',
        'Generic:\n  Address: true\n',
        [
          'json: cannot unmarshal bool into Go struct field OrchControllerManagerConfiguration.Generic.Address of type string',
        ],
      ],
      [
        'string for bool',
        'Generic:\n  LeaderMigrationEnabled: "yes"\n',
        [
          'json: cannot unmarshal string into Go struct field OrchControllerManagerConfiguration.Generic.LeaderMigrationEnabled of type bool',
        ],
      ],
      [
        'unparsable duration',
        'Generic:\n  MinResyncPeriod: 12 hours\n',
        ['Generic.MinResyncPeriod: time: unknown unit " hours" in duration "12 hours"'],
      ],
      [
        'duration without unit',
        'NamespaceController:\n  NamespaceSyncPeriod: 300\n',
        ['NamespaceController.NamespaceSyncPeriod: json: cannot unmarshal number into Go value of type string'],
      ],
      [
        'scalar for a struct',
        'Generic: 5\n',
        [
          'json: cannot unmarshal number 5 into Go struct field OrchControllerManagerConfiguration.Generic of type GenericControllerManagerConfiguration',
        ],
      ],
      [
        'scalar for a list',
        'Generic:\n  Controllers: "*"\n',
        [
          'json: cannot unmarshal string into Go struct field OrchControllerManagerConfiguration.Generic.Controllers of type []string',
        ],
      ],
      ['__proto__ is just an unknown member', '__proto__:\n  Port: 1\n', ['unknown field "__proto__"']],
      [
        'several at once, in document order',
        'Generic:\n  Port: x\n  Bogus: 1\nJobController:\n  ConcurrentJobSyncs: -1.5\n',
        [
          'json: cannot unmarshal string into Go struct field OrchControllerManagerConfiguration.Generic.Port of type int32',
          'unknown field "Generic.Bogus"',
          'json: cannot unmarshal number -1.5 into Go struct field OrchControllerManagerConfiguration.JobController.ConcurrentJobSyncs of type int32',
        ],
      ],
    ];
    for (const [name, body, expected] of cases) assert.deepEqual(problems(`${HEAD}${body}`), expected, name);
  });

  it('refuses a missing or unknown apiVersion/kind and unreadable documents', () => {
    const cases: [string, string[]][] = [
      ['Generic: {}\n', ["Object 'Kind' is missing in the configuration"]],
      ['kind: OrchControllerManagerConfiguration\n', ["Object 'apiVersion' is missing in the configuration"]],
      [
        'apiVersion: orchcontrollermanager.config.orch.io/v1beta1\nkind: OrchControllerManagerConfiguration\n',
        [
          'no kind "OrchControllerManagerConfiguration" is registered for version "orchcontrollermanager.config.orch.io/v1beta1"; expected OrchControllerManagerConfiguration (orchcontrollermanager.config.orch.io/v1alpha1), CloudControllerManagerConfiguration (cloudcontrollermanager.config.orch.io/v1alpha1)',
        ],
      ],
      [
        'apiVersion: kubecontrollermanager.config.k8s.io/v1alpha1\nkind: KubeControllerManagerConfiguration\n',
        [
          'no kind "KubeControllerManagerConfiguration" is registered for version "kubecontrollermanager.config.k8s.io/v1alpha1"; expected OrchControllerManagerConfiguration (orchcontrollermanager.config.orch.io/v1alpha1), CloudControllerManagerConfiguration (cloudcontrollermanager.config.orch.io/v1alpha1)',
        ],
      ],
      ['- a\n- b\n', ['the configuration must be a YAML or JSON object with apiVersion and kind']],
      ['', ['the configuration must be a YAML or JSON object with apiVersion and kind']],
      [`${HEAD}Generic: {}\nGeneric: {}\n`, ['yaml: unmarshal errors: line 4: key "Generic" already set in map']],
    ];
    for (const [text, expected] of cases) assert.deepEqual(problems(text), expected, text);
    const syntax = problems(`${HEAD}Generic: [\n`);
    assert.equal(syntax.length, 1);
    assert.match(syntax[0], /^error converting YAML to JSON: yaml: line \d+: /);
  });

  it('decodes the cloud kind with its defaults, and each decoder refuses the other kind', () => {
    const cloudHead =
      'apiVersion: cloudcontrollermanager.config.orch.io/v1alpha1\nkind: CloudControllerManagerConfiguration\n';
    const c = decodeCloudControllerManagerConfiguration(`${cloudHead}Webhook:\n  Webhooks: ["*"]\n`, ORCH);
    assert.deepEqual(c, { ...defaultCloudControllerManagerConfiguration(ORCH), Webhook: { Webhooks: ['*'] } });
    assert.equal(c.Generic.Port, 10258);
    assert.equal(c.Generic.LeaderElection.resourceName, 'cloud-controller-manager');
    assert.equal(c.NodeStatusUpdateFrequency, '5m0s');
    assert.throws(() => decodeControllerManagerConfiguration(cloudHead, ORCH), {
      problems: [
        'expected OrchControllerManagerConfiguration (orchcontrollermanager.config.orch.io/v1alpha1), got CloudControllerManagerConfiguration',
      ],
    });
    assert.throws(() => decodeCloudControllerManagerConfiguration(HEAD, ORCH), {
      problems: [
        'expected CloudControllerManagerConfiguration (cloudcontrollermanager.config.orch.io/v1alpha1), got OrchControllerManagerConfiguration',
      ],
    });
    assert.deepEqual(problems(`${cloudHead}DeploymentController: {}\n`), ['unknown field "DeploymentController"']);
  });

  it('the printed effective configuration decodes to the same configuration', () => {
    for (const [domain, head] of [
      [ORCH, HEAD],
      [KUBE, KUBE_HEAD],
    ] as const) {
      const c = decodeControllerManagerConfiguration(
        `${head}Generic:\n  Controllers: ["*", -job]\n  LeaderElection: {leaderElect: false}\nHPAController:\n  HorizontalPodAutoscalerTolerance: 0.25\n`,
        domain,
      );
      const text = formatEffectiveConfiguration(c, domain);
      assert.match(text, new RegExp(`^apiVersion: ${c.apiVersion.replaceAll('.', '\\.')}$`, 'm'));
      assert.deepEqual(decodeControllerManagerConfiguration(text, domain), c);
    }
    assert.match(
      formatEffectiveConfiguration(decodeControllerManagerConfiguration(KUBE_HEAD, KUBE), KUBE),
      /^KubeCloudShared:$/m,
    );
  });
});
