import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import { decodeCloudControllerManagerConfiguration, decodeControllerManagerConfiguration } from './decode.js';
import { validateCloudControllerManagerConfiguration, validateControllerManagerConfiguration } from './validate.js';

const ORCH = apiDomain('orch.io');
const HEAD = 'apiVersion: orchcontrollermanager.config.orch.io/v1alpha1\nkind: OrchControllerManagerConfiguration\n';
const CLOUD_HEAD =
  'apiVersion: cloudcontrollermanager.config.orch.io/v1alpha1\nkind: CloudControllerManagerConfiguration\n';

const KNOWN = {
  controllers: [
    { name: 'deployment-controller', aliases: ['deployment'], enabledByDefault: true },
    { name: 'bootstrap-signer-controller', aliases: ['bootstrapsigner'], enabledByDefault: false },
  ],
};

function validate(body: string): string[] {
  return validateControllerManagerConfiguration(decodeControllerManagerConfiguration(`${HEAD}${body}`, ORCH), KNOWN);
}

describe('validateControllerManagerConfiguration', () => {
  it('accepts the defaults', () => {
    assert.deepEqual(validate(''), []);
  });

  it('reports one problem per rule, with its field path', () => {
    const cases: [string, string, string[]][] = [
      [
        'port out of range (kube’s secure port rule)',
        'Generic:\n  Port: 65536\n',
        ['Generic.Port: Invalid value: 65536: must be between 0 and 65535, inclusive. 0 for turning off secure port'],
      ],
      [
        'address not an IP',
        'Generic:\n  Address: localhost\n',
        ['Generic.Address: Invalid value: "localhost": must be a valid IP address'],
      ],
      [
        'negative resync period',
        'Generic:\n  MinResyncPeriod: -1s\n',
        ['Generic.MinResyncPeriod: Invalid value: "-1s": must be greater than or equal to 0s'],
      ],
      [
        'negative start interval',
        'Generic:\n  ControllerStartInterval: -2s\n',
        ['Generic.ControllerStartInterval: Invalid value: "-2s": must be greater than or equal to 0s'],
      ],
      [
        'negative burst (component-base)',
        'Generic:\n  ClientConnection: {burst: -1}\n',
        ['Generic.ClientConnection.burst: Invalid value: -1: must be non-negative'],
      ],
      [
        'negative qps',
        'Generic:\n  ClientConnection: {qps: -1}\n',
        ['Generic.ClientConnection.qps: Invalid value: -1: must be greater than or equal to 0'],
      ],
      [
        'renewDeadline not below leaseDuration (kube reports renewDeadline’s value)',
        'Generic:\n  LeaderElection: {leaseDuration: 10s, renewDeadline: 10s}\n',
        ['Generic.LeaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than RenewDeadline'],
      ],
      [
        'renewDeadline not above retryPeriod × 1.2 (client-go)',
        'Generic:\n  LeaderElection: {renewDeadline: 2s, retryPeriod: 2s}\n',
        [
          'Generic.LeaderElection.renewDeadline: Invalid value: 2s: renewDeadline must be greater than retryPeriod*JitterFactor',
        ],
      ],
      [
        'lock other than leases',
        'Generic:\n  LeaderElection: {resourceLock: endpoints}\n',
        [
          'Generic.LeaderElection.resourceLock: Invalid value: "endpoints": endpoints lock is removed, migrate to leases',
        ],
      ],
      [
        'missing lock name',
        'Generic:\n  LeaderElection: {resourceName: ""}\n',
        ['Generic.LeaderElection.resourceName: Invalid value: "": resourceName is required'],
      ],
      [
        'leader election off: its members are not checked',
        'Generic:\n  LeaderElection: {leaderElect: false, renewDeadline: 1h}\n',
        [],
      ],
      [
        'unknown controller name',
        'Generic:\n  Controllers: ["*", foo, -bar, deployment, -bootstrap-signer-controller]\n',
        [
          'Generic.Controllers: "foo" is not in the list of known controllers',
          'Generic.Controllers: "bar" is not in the list of known controllers',
          'Generic.Controllers: known controllers: deployment-controller, bootstrap-signer-controller',
        ],
      ],
      [
        'leader migration enabled with an invalid configuration',
        'Generic:\n  LeaderMigrationEnabled: true\n  LeaderMigration:\n    resourceLock: configmaps\n    controllerLeaders:\n    - {name: a}\n    - {name: a, component: "*"}\n',
        [
          'Generic.LeaderMigration.leaderName: Required value: leaderName must be set for LeaderMigrationConfiguration',
          `Generic.LeaderMigration.resourceLock: Invalid value: "configmaps": resource Lock must be one of 'leases' or 'endpoints'`,
          'Generic.LeaderMigration.controllerLeaders[0].component: Required value: component must be set',
          'Generic.LeaderMigration.controllerLeaders[1].name: Duplicate value: "a"',
        ],
      ],
      [
        'leader migration disabled: its members are not checked',
        'Generic:\n  LeaderMigration:\n    resourceLock: x\n',
        [],
      ],
      [
        'in-tree cloud provider',
        'OrchCloudShared:\n  CloudProvider: {Name: aws}\n',
        ['OrchCloudShared.CloudProvider.Name: Unsupported value: "aws": supported values: "", "external"'],
      ],
      [
        'external volume plugin without the external provider',
        'OrchCloudShared:\n  ExternalCloudVolumePlugin: gce\n',
        ['OrchCloudShared.ExternalCloudVolumePlugin: Forbidden: may be set only when CloudProvider.Name is "external"'],
      ],
      [
        'external provider with its volume plugin',
        'OrchCloudShared:\n  CloudProvider: {Name: external}\n  ExternalCloudVolumePlugin: gce\n',
        [],
      ],
      [
        'unknown CIDR allocator',
        'OrchCloudShared:\n  CIDRAllocatorType: Magic\n',
        [
          'OrchCloudShared.CIDRAllocatorType: Unsupported value: "Magic": supported values: "RangeAllocator", "CloudAllocator", "IPAMFromCluster", "IPAMFromCloud"',
        ],
      ],
      [
        'malformed cluster CIDR',
        'OrchCloudShared:\n  ClusterCIDR: 10.0.0.0/8,nope\n',
        ['OrchCloudShared.ClusterCIDR: Invalid value: "10.0.0.0/8,nope": must be a comma-separated list of CIDRs'],
      ],
      [
        'node CIDR allocation without a cluster CIDR',
        'OrchCloudShared:\n  AllocateNodeCIDRs: true\n',
        ['OrchCloudShared.ClusterCIDR: Required value: required when AllocateNodeCIDRs is true'],
      ],
      [
        'negative cloud period',
        'OrchCloudShared:\n  NodeMonitorPeriod: -5s\n',
        ['OrchCloudShared.NodeMonitorPeriod: Invalid value: "-5s": must be greater than or equal to 0s'],
      ],
      [
        'negative Concurrent…Syncs',
        'DeploymentController: {ConcurrentDeploymentSyncs: -1}\nJobController: {ConcurrentJobSyncs: -2}\nGarbageCollectorController: {ConcurrentGCSyncs: -3}\n',
        [
          'DeploymentController.ConcurrentDeploymentSyncs: Invalid value: -1: must be greater than or equal to 0',
          'JobController.ConcurrentJobSyncs: Invalid value: -2: must be greater than or equal to 0',
          'GarbageCollectorController.ConcurrentGCSyncs: Invalid value: -3: must be greater than or equal to 0',
        ],
      ],
      [
        'negative per-controller duration',
        'NamespaceController: {NamespaceSyncPeriod: -1m}\nLegacySATokenCleaner: {CleanUpPeriod: -1h}\n',
        [
          'LegacySATokenCleaner.CleanUpPeriod: Invalid value: "-1h0m0s": must be greater than or equal to 0s',
          'NamespaceController.NamespaceSyncPeriod: Invalid value: "-1m0s": must be greater than or equal to 0s',
        ],
      ],
      [
        'zero workers and a non-positive pod GC threshold are allowed',
        'DeploymentController: {ConcurrentDeploymentSyncs: 0}\nPodGCController: {TerminatedPodGCThreshold: -1}\n',
        [],
      ],
      [
        'endpoint slice bounds (kube’s words)',
        'EndpointSliceController: {ConcurrentServiceEndpointSyncs: 0, MaxEndpointsPerSlice: 1001}\n',
        [
          'EndpointSliceController.ConcurrentServiceEndpointSyncs: Invalid value: 0: concurrent-service-endpoint-syncs must not be less than 1, but got 0',
          'EndpointSliceController.MaxEndpointsPerSlice: Invalid value: 1001: max-endpoints-per-slice must not be more than 1000, but got 1001',
        ],
      ],
      [
        'endpoint slice mirroring bounds (kube’s words)',
        'EndpointSliceMirroringController: {MirroringConcurrentServiceEndpointSyncs: 51, MirroringMaxEndpointsPerSubset: 0}\n',
        [
          'EndpointSliceMirroringController.MirroringConcurrentServiceEndpointSyncs: Invalid value: 51: mirroring-concurrent-service-endpoint-syncs must not be more than 50, but got 51',
          'EndpointSliceMirroringController.MirroringMaxEndpointsPerSubset: Invalid value: 0: mirroring-max-endpoints-per-subset must not be less than 1, but got 0',
        ],
      ],
      [
        'CSR signing: cert without key, key without cert, both kinds of files',
        'CSRSigningController:\n  ClusterSigningCertFile: ca.crt\n  ClusterSigningKeyFile: ca.key\n  NodeAgentServingSignerConfiguration: {CertFile: s.crt}\n  LegacyUnknownSignerConfiguration: {KeyFile: l.key}\n',
        [
          'CSRSigningController.NodeAgentServingSignerConfiguration.CertFile: Invalid value: "s.crt": cannot specify cert without key',
          'CSRSigningController.LegacyUnknownSignerConfiguration.KeyFile: Invalid value: "l.key": cannot specify key without cert',
          'CSRSigningController: Forbidden: cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time',
        ],
      ],
      [
        'GC ignored resource without a resource',
        'GarbageCollectorController:\n  GCIgnoredResources: [{Group: apps}]\n',
        ['GarbageCollectorController.GCIgnoredResources[0].Resource: Required value'],
      ],
      [
        'secondary service CIDR of the same family (kube’s node IPAM check)',
        'NodeIPAMController: {ServiceCIDR: 10.0.0.0/16, SecondaryServiceCIDR: 10.1.0.0/16}\n',
        [
          'NodeIPAMController.SecondaryServiceCIDR: Invalid value: "10.1.0.0/16": serviceCIDR and secondaryServiceCIDR are not dualstack (from different IPfamiles)',
        ],
      ],
      [
        'dual-stack service CIDRs',
        'NodeIPAMController: {ServiceCIDR: 10.0.0.0/16, SecondaryServiceCIDR: "fd00::/108"}\n',
        [],
      ],
      [
        'malformed service CIDRs',
        'NodeIPAMController: {ServiceCIDR: 10.0.0.0, SecondaryServiceCIDR: "fd00::/129"}\n',
        [
          'NodeIPAMController.ServiceCIDR: Invalid value: "10.0.0.0": must be a valid CIDR',
          'NodeIPAMController.SecondaryServiceCIDR: Invalid value: "fd00::/129": must be a valid CIDR',
        ],
      ],
      [
        'node CIDR mask out of range',
        'NodeIPAMController: {NodeCIDRMaskSizeIPv4: 33}\n',
        ['NodeIPAMController.NodeCIDRMaskSizeIPv4: Invalid value: 33: must be between 0 and 32, inclusive'],
      ],
      [
        'negative node lifecycle rate',
        'NodeLifecycleController: {NodeEvictionRate: -0.5}\n',
        ['NodeLifecycleController.NodeEvictionRate: Invalid value: -0.5: must be greater than or equal to 0'],
      ],
      [
        'negative recycler timeout',
        'PersistentVolumeBinderController:\n  VolumeConfiguration:\n    PersistentVolumeRecyclerConfiguration: {MinimumTimeoutNFS: -1}\n',
        [
          'PersistentVolumeBinderController.VolumeConfiguration.PersistentVolumeRecyclerConfiguration.MinimumTimeoutNFS: Invalid value: -1: must be greater than or equal to 0',
        ],
      ],
    ];
    for (const [name, body, expected] of cases) assert.deepEqual(validate(body), expected, name);
  });

  it('lists every problem of a file at once', () => {
    assert.deepEqual(
      validate(
        'Generic:\n  Port: -1\n  LeaderElection: {leaseDuration: 5s}\nReplicaSetController: {ConcurrentRSSyncs: -5}\n',
      ),
      [
        'Generic.Port: Invalid value: -1: must be between 0 and 65535, inclusive. 0 for turning off secure port',
        'Generic.LeaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than RenewDeadline',
        'ReplicaSetController.ConcurrentRSSyncs: Invalid value: -5: must be greater than or equal to 0',
      ],
    );
  });

  it('skips the controller name check without known controllers', () => {
    const c = decodeControllerManagerConfiguration(`${HEAD}Generic:\n  Controllers: [anything]\n`, ORCH);
    assert.deepEqual(validateControllerManagerConfiguration(c), []);
  });
});

describe('validateCloudControllerManagerConfiguration', () => {
  const webhooks = [{ name: 'node-label', enabledByDefault: true }];
  const validateCloud = (body: string) =>
    validateCloudControllerManagerConfiguration(
      decodeCloudControllerManagerConfiguration(`${CLOUD_HEAD}${body}`, ORCH),
      {
        webhooks,
      },
    );

  it('needs a cloud provider (kube’s --cloud-provider rule) and accepts an external one', () => {
    assert.deepEqual(validateCloud(''), [
      'OrchCloudShared.CloudProvider.Name: Required value: --cloud-provider cannot be empty',
    ]);
    assert.deepEqual(validateCloud('OrchCloudShared: {CloudProvider: {Name: external}}\n'), []);
  });

  it('checks node syncs, webhooks and the generic members', () => {
    assert.deepEqual(
      validateCloud(
        'OrchCloudShared: {CloudProvider: {Name: external}}\nNodeController: {ConcurrentNodeSyncs: 0}\nWebhook: {Webhooks: ["*", -nope]}\nNodeStatusUpdateFrequency: -1s\nGeneric: {Port: 70000}\n',
      ),
      [
        'Generic.Port: Invalid value: 70000: must be between 0 and 65535, inclusive. 0 for turning off secure port',
        'NodeController.ConcurrentNodeSyncs: Invalid value: 0: concurrent-node-syncs must be a positive number',
        'NodeStatusUpdateFrequency: Invalid value: "-1s": must be greater than or equal to 0s',
        'Webhook.Webhooks: "nope" is not in the list of known webhooks',
        'Webhook.Webhooks: known webhooks: node-label',
      ],
    );
  });
});
