import type { ApiDomain } from '../../apis/api-domain.js';

/** The version every controller manager configuration kind is read and written in. */
export const CONFIG_VERSION = 'v1alpha1';

/** The kind of the cloud controller manager's configuration (not product-named in kube either). */
export const CLOUD_KIND = 'CloudControllerManagerConfiguration';
/** The kind of a leader migration file. */
export const LEADER_MIGRATION_KIND = 'LeaderMigrationConfiguration';

/** Group, kind and wire member names of the configuration kinds under one API domain. */
export interface ConfigNames {
  /** `orchcontrollermanager.config.orch.io/v1alpha1` | `kubecontrollermanager.config.k8s.io/v1alpha1`. */
  readonly controllerManagerApiVersion: string;
  /** `OrchControllerManagerConfiguration` | `KubeControllerManagerConfiguration`. */
  readonly controllerManagerKind: string;
  /** `cloudcontrollermanager.config.<domain>/v1alpha1`. */
  readonly cloudApiVersion: string;
  /** `controllermanager.config.<domain>`: LeaderMigrationConfiguration (v1alpha1, v1beta1, v1). */
  readonly migrationGroup: string;
  /** The component name a migration file's `component` names this controller manager by. */
  readonly controllerManagerComponent: string;
  /** Internal member name → its spelling in files of this domain (only the five that differ). */
  readonly wireNames: Readonly<Record<string, string>>;
}

/** The product prefix of kinds and groups: `orch` | `kube`. */
function product(domain: ApiDomain): string {
  return domain.kindName('').toLowerCase();
}

/** The names of every configuration kind under `domain`. */
export function configNames(domain: ApiDomain): ConfigNames {
  const p = product(domain);
  const wire: Record<string, string> = {
    OrchCloudShared: domain.kindName('CloudShared'),
    orchconfig: `${p}config`,
    NodeAgentServingSignerConfiguration: `${domain.nodeAgentTypeName}ServingSignerConfiguration`,
    NodeAgentClientSignerConfiguration: `${domain.nodeAgentTypeName}ClientSignerConfiguration`,
    OrchAPIServerClientSignerConfiguration: domain.kindName('APIServerClientSignerConfiguration'),
  };
  return {
    controllerManagerApiVersion: `${domain.group(`${p}controllermanager.config`)}/${CONFIG_VERSION}`,
    controllerManagerKind: domain.kindName('ControllerManagerConfiguration'),
    cloudApiVersion: `${domain.group('cloudcontrollermanager.config')}/${CONFIG_VERSION}`,
    migrationGroup: domain.group('controllermanager.config'),
    controllerManagerComponent: domain.controllerManagerName,
    wireNames: Object.fromEntries(Object.entries(wire).filter(([k, v]) => k !== v)),
  };
}

/**
 * A copy of `value` with object keys renamed through `names` (context-free: the renamed members
 * are unique names). Used to go between the internal spelling and a domain's wire spelling.
 */
export function renameKeys(value: unknown, names: Readonly<Record<string, string>>): unknown {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, names));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // defineProperty: a `__proto__` key from a file stays a plain member.
    Object.defineProperty(out, names[k] ?? k, {
      value: renameKeys(v, names),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** `names` inverted (wire → internal). */
export function invertNames(names: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(names).map(([k, v]) => [v, k]));
}
