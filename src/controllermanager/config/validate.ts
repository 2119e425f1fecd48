import { isIP } from 'node:net';
import { type FieldError, fieldErrors, formatFieldError } from '../../apis/meta/field-error.js';
import { validateLeaderElectionConfiguration } from '../../client/leaderelection/leader-election-configuration.js';
import { parseGoDurationNanos } from '../../util/go-duration.js';
import { type SelectableName, selectNames } from '../controller-selection.js';
import { validateLeaderMigrationConfiguration } from '../leader-migration-config.js';
import type {
  CloudControllerManagerConfiguration,
  GenericControllerManagerConfiguration,
  OrchCloudSharedConfiguration,
  OrchControllerManagerConfiguration,
} from './types.js';

/**
 * Validation of the decoded configuration kinds. Where kube v1.32 validates (its options'
 * `Validate` methods, component-base's leader election and client connection validation, the
 * node IPAM start-up checks, the cloud controller manager's options) the message is kube's;
 * Orch adds field paths and a few checks of its own (negative counts and durations, malformed
 * addresses and CIDRs), marked below. Every problem is returned.
 */

type Path = string;
const errs = () => [] as FieldError[];

/** Orch: a member kube leaves unchecked may not be negative. */
function nonNegative(out: FieldError[], path: Path, value: number): void {
  if (value < 0) out.push(fieldErrors.invalid(path, value, 'must be greater than or equal to 0'));
}

/** Orch: a duration member may not be negative. */
function nonNegativeDuration(out: FieldError[], path: Path, value: string): void {
  const nanos = parseGoDurationNanos(value);
  if (typeof nanos === 'bigint' && nanos < 0n)
    out.push(fieldErrors.invalid(path, value, 'must be greater than or equal to 0s'));
}

/** Every number and duration member of a flat struct, checked for sign. */
function signs(out: FieldError[], path: Path, struct: object): void {
  for (const [k, v] of Object.entries(struct as Record<string, unknown>)) {
    if (typeof v === 'number') nonNegative(out, `${path}.${k}`, v);
    // Durations are normalized: a negative one starts with `-`, which no other member here does.
    else if (typeof v === 'string' && v.startsWith('-')) nonNegativeDuration(out, `${path}.${k}`, v);
  }
}

/** Options for checking names against the controllers (or webhooks) the process knows. */
export interface KnownNames {
  /** The controllers `Generic.Controllers` may name; unchecked when absent. */
  readonly controllers?: readonly SelectableName[];
  /** The webhooks `Webhook.Webhooks` may name (cloud kind); unchecked when absent. */
  readonly webhooks?: readonly SelectableName[];
}

/** `Generic`: serving, client connection, leader election, controller names, migration. */
export function validateGeneric(g: GenericControllerManagerConfiguration, known: KnownNames = {}): FieldError[] {
  const out = errs();
  if (g.Port < 0 || g.Port > 65535) {
    out.push(
      fieldErrors.invalid(
        'Generic.Port',
        g.Port,
        'must be between 0 and 65535, inclusive. 0 for turning off secure port',
      ),
    );
  }
  if (isIP(g.Address) === 0) out.push(fieldErrors.invalid('Generic.Address', g.Address, 'must be a valid IP address'));
  nonNegativeDuration(out, 'Generic.MinResyncPeriod', g.MinResyncPeriod);
  nonNegativeDuration(out, 'Generic.ControllerStartInterval', g.ControllerStartInterval);
  // component-base ValidateClientConnectionConfiguration.
  if (g.ClientConnection.burst < 0) {
    out.push(fieldErrors.invalid('Generic.ClientConnection.burst', g.ClientConnection.burst, 'must be non-negative'));
  }
  nonNegative(out, 'Generic.ClientConnection.qps', g.ClientConnection.qps);
  out.push(...validateLeaderElectionConfiguration(g.LeaderElection, 'Generic.LeaderElection'));
  if (known.controllers) {
    const { problems } = selectNames(g.Controllers, known.controllers, 'controllers');
    for (const p of problems) out.push({ type: 'FieldValueNotSupported', field: 'Generic.Controllers', message: p });
  }
  if (g.LeaderMigrationEnabled)
    out.push(...validateLeaderMigrationConfiguration(g.LeaderMigration, 'Generic.LeaderMigration'));
  return out;
}

const CIDR_ALLOCATOR_TYPES = ['RangeAllocator', 'CloudAllocator', 'IPAMFromCluster', 'IPAMFromCloud'];

/** A CIDR's IP family (4 or 6), or 0 when `s` is not a CIDR. */
export function cidrFamily(s: string): 0 | 4 | 6 {
  const slash = s.indexOf('/');
  if (slash < 0) return 0;
  const family = isIP(s.slice(0, slash));
  const bits = s.slice(slash + 1);
  if (family === 0 || !/^\d{1,3}$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128)) return 0;
  return family as 4 | 6;
}

/** `OrchCloudShared`: kube v1.32's controller manager runs no in-tree cloud provider. */
export function validateCloudShared(c: OrchCloudSharedConfiguration, path = 'OrchCloudShared'): FieldError[] {
  const out = errs();
  if (c.CloudProvider.Name !== '' && c.CloudProvider.Name !== 'external') {
    out.push(fieldErrors.notSupported(`${path}.CloudProvider.Name`, c.CloudProvider.Name, ['', 'external']));
  }
  // Orch: kube's help says it is used only with the external provider.
  if (c.ExternalCloudVolumePlugin !== '' && c.CloudProvider.Name !== 'external') {
    out.push(
      fieldErrors.forbidden(
        `${path}.ExternalCloudVolumePlugin`,
        'may be set only when CloudProvider.Name is "external"',
      ),
    );
  }
  if (!CIDR_ALLOCATOR_TYPES.includes(c.CIDRAllocatorType)) {
    out.push(fieldErrors.notSupported(`${path}.CIDRAllocatorType`, c.CIDRAllocatorType, CIDR_ALLOCATOR_TYPES));
  }
  if (c.ClusterCIDR !== '' && c.ClusterCIDR.split(',').some((cidr) => cidrFamily(cidr.trim()) === 0)) {
    out.push(fieldErrors.invalid(`${path}.ClusterCIDR`, c.ClusterCIDR, 'must be a comma-separated list of CIDRs'));
  }
  if (c.AllocateNodeCIDRs && c.ClusterCIDR === '') {
    out.push(fieldErrors.required(`${path}.ClusterCIDR`, 'required when AllocateNodeCIDRs is true'));
  }
  signs(out, path, c);
  return out;
}

/** The int32 members kube bounds (endpoint slice controllers), in its words. */
function bounded(out: FieldError[], path: Path, flag: string, value: number, min: number, max: number): void {
  if (value < min) out.push(fieldErrors.invalid(path, value, `${flag} must not be less than ${min}, but got ${value}`));
  else if (value > max)
    out.push(fieldErrors.invalid(path, value, `${flag} must not be more than ${max}, but got ${value}`));
}

function validateCsrSigning(c: OrchControllerManagerConfiguration['CSRSigningController']): FieldError[] {
  const out = errs();
  const pairs: [string, { CertFile: string; KeyFile: string }][] = [
    ['NodeAgentServingSignerConfiguration', c.NodeAgentServingSignerConfiguration],
    ['NodeAgentClientSignerConfiguration', c.NodeAgentClientSignerConfiguration],
    ['OrchAPIServerClientSignerConfiguration', c.OrchAPIServerClientSignerConfiguration],
    ['LegacyUnknownSignerConfiguration', c.LegacyUnknownSignerConfiguration],
  ];
  for (const [name, p] of pairs) {
    const path = `CSRSigningController.${name}`;
    if (p.CertFile === '' && p.KeyFile !== '')
      out.push(fieldErrors.invalid(`${path}.KeyFile`, p.KeyFile, 'cannot specify key without cert'));
    if (p.CertFile !== '' && p.KeyFile === '')
      out.push(fieldErrors.invalid(`${path}.CertFile`, p.CertFile, 'cannot specify cert without key'));
  }
  const single = c.ClusterSigningCertFile !== '' || c.ClusterSigningKeyFile !== '';
  if (single && pairs.some(([, p]) => p.CertFile !== '' || p.KeyFile !== '')) {
    out.push(
      fieldErrors.forbidden(
        'CSRSigningController',
        'cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time',
      ),
    );
  }
  nonNegativeDuration(out, 'CSRSigningController.ClusterSigningDuration', c.ClusterSigningDuration);
  return out;
}

function validateNodeIpam(c: OrchControllerManagerConfiguration['NodeIPAMController']): FieldError[] {
  const out = errs();
  const primary = c.ServiceCIDR.trim() === '' ? -1 : cidrFamily(c.ServiceCIDR.trim());
  const secondary = c.SecondaryServiceCIDR.trim() === '' ? -1 : cidrFamily(c.SecondaryServiceCIDR.trim());
  if (primary === 0)
    out.push(fieldErrors.invalid('NodeIPAMController.ServiceCIDR', c.ServiceCIDR, 'must be a valid CIDR'));
  if (secondary === 0) {
    out.push(
      fieldErrors.invalid('NodeIPAMController.SecondaryServiceCIDR', c.SecondaryServiceCIDR, 'must be a valid CIDR'),
    );
  }
  if (primary > 0 && primary === secondary) {
    out.push(
      fieldErrors.invalid(
        'NodeIPAMController.SecondaryServiceCIDR',
        c.SecondaryServiceCIDR,
        'serviceCIDR and secondaryServiceCIDR are not dualstack (from different IPfamiles)',
      ),
    );
  }
  const masks: [string, number, number][] = [
    ['NodeCIDRMaskSize', c.NodeCIDRMaskSize, 128],
    ['NodeCIDRMaskSizeIPv4', c.NodeCIDRMaskSizeIPv4, 32],
    ['NodeCIDRMaskSizeIPv6', c.NodeCIDRMaskSizeIPv6, 128],
  ];
  for (const [name, v, max] of masks) {
    if (v < 0 || v > max)
      out.push(fieldErrors.invalid(`NodeIPAMController.${name}`, v, `must be between 0 and ${max}, inclusive`));
  }
  return out;
}

/** Members checked only for sign (Orch), all others having their own rules above. */
const SIGN_ONLY = [
  'AttachDetachController',
  'DaemonSetController',
  'DeploymentController',
  'StatefulSetController',
  'EndpointController',
  'EphemeralVolumeController',
  'HPAController',
  'JobController',
  'CronJobController',
  'LegacySATokenCleaner',
  'NamespaceController',
  'NodeLifecycleController',
  'ReplicaSetController',
  'ReplicationController',
  'ResourceQuotaController',
  'SAController',
  'ServiceController',
  'TTLAfterFinishedController',
  'ValidatingAdmissionPolicyStatusController',
] as const;

/**
 * Every problem of an OrchControllerManagerConfiguration, as `<field path>: <message>` (e.g.
 * `Generic.LeaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than
 * RenewDeadline`). `known.controllers` enables the controller name check.
 */
export function validateControllerManagerConfiguration(
  c: OrchControllerManagerConfiguration,
  known: KnownNames = {},
): string[] {
  const out = [...validateGeneric(c.Generic, known), ...validateCloudShared(c.OrchCloudShared)];
  for (const member of SIGN_ONLY) signs(out, member, c[member] as Readonly<Record<string, unknown>>);
  out.push(...validateCsrSigning(c.CSRSigningController));
  const es = c.EndpointSliceController;
  bounded(
    out,
    'EndpointSliceController.ConcurrentServiceEndpointSyncs',
    'concurrent-service-endpoint-syncs',
    es.ConcurrentServiceEndpointSyncs,
    1,
    50,
  );
  bounded(
    out,
    'EndpointSliceController.MaxEndpointsPerSlice',
    'max-endpoints-per-slice',
    es.MaxEndpointsPerSlice,
    1,
    1000,
  );
  nonNegativeDuration(out, 'EndpointSliceController.EndpointUpdatesBatchPeriod', es.EndpointUpdatesBatchPeriod);
  const m = c.EndpointSliceMirroringController;
  const mirroring = 'EndpointSliceMirroringController';
  bounded(
    out,
    `${mirroring}.MirroringConcurrentServiceEndpointSyncs`,
    'mirroring-concurrent-service-endpoint-syncs',
    m.MirroringConcurrentServiceEndpointSyncs,
    1,
    50,
  );
  bounded(
    out,
    `${mirroring}.MirroringMaxEndpointsPerSubset`,
    'mirroring-max-endpoints-per-subset',
    m.MirroringMaxEndpointsPerSubset,
    1,
    1000,
  );
  nonNegativeDuration(out, `${mirroring}.MirroringEndpointUpdatesBatchPeriod`, m.MirroringEndpointUpdatesBatchPeriod);
  const gc = c.GarbageCollectorController;
  nonNegative(out, 'GarbageCollectorController.ConcurrentGCSyncs', gc.ConcurrentGCSyncs);
  gc.GCIgnoredResources.forEach((r, i) => {
    if (r.Resource === '')
      out.push(fieldErrors.required(`GarbageCollectorController.GCIgnoredResources[${i}].Resource`));
  });
  out.push(...validateNodeIpam(c.NodeIPAMController));
  const pv = c.PersistentVolumeBinderController;
  nonNegativeDuration(out, 'PersistentVolumeBinderController.PVClaimBinderSyncPeriod', pv.PVClaimBinderSyncPeriod);
  signs(
    out,
    'PersistentVolumeBinderController.VolumeConfiguration.PersistentVolumeRecyclerConfiguration',
    pv.VolumeConfiguration.PersistentVolumeRecyclerConfiguration,
  );
  // PodGCController.TerminatedPodGCThreshold: at or below 0 disables collection (any value is valid).
  return out.map(formatFieldError);
}

/** Every problem of a CloudControllerManagerConfiguration (kube's cloud controller manager rules). */
export function validateCloudControllerManagerConfiguration(
  c: CloudControllerManagerConfiguration,
  known: KnownNames = {},
): string[] {
  const out = [...validateGeneric(c.Generic, known), ...validateCloudShared(c.OrchCloudShared)];
  if (c.OrchCloudShared.CloudProvider.Name === '') {
    out.push(fieldErrors.required('OrchCloudShared.CloudProvider.Name', '--cloud-provider cannot be empty'));
  }
  if (c.NodeController.ConcurrentNodeSyncs <= 0) {
    out.push(
      fieldErrors.invalid(
        'NodeController.ConcurrentNodeSyncs',
        c.NodeController.ConcurrentNodeSyncs,
        'concurrent-node-syncs must be a positive number',
      ),
    );
  }
  nonNegative(out, 'ServiceController.ConcurrentServiceSyncs', c.ServiceController.ConcurrentServiceSyncs);
  nonNegativeDuration(out, 'NodeStatusUpdateFrequency', c.NodeStatusUpdateFrequency);
  if (known.webhooks) {
    const { problems } = selectNames(c.Webhook.Webhooks, known.webhooks, 'webhooks');
    for (const p of problems) out.push({ type: 'FieldValueNotSupported', field: 'Webhook.Webhooks', message: p });
  }
  return out.map(formatFieldError);
}
