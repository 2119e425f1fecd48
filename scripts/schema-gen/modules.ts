import { SchemaGenError } from './facts.js';
import type { ModuleConfig } from './module-config.js';
import {
  AUTHENTICATION_MODULE,
  AUTHORIZATION_MODULE,
  COORDINATION_MODULE,
  COORDINATION_V1ALPHA2_MODULE,
} from './modules/access.js';
import { APIEXTENSIONS_MODULE } from './modules/apiextensions.js';
import {
  CERTIFICATES_MODULE,
  DISCOVERY_MODULE,
  EVENTS_V1_MODULE,
  FLOWCONTROL_MODULE,
  NETWORKING_MODULE,
  NODE_MODULE,
  SCHEDULING_MODULE,
  STORAGE_MODULE,
} from './modules/cluster.js';
import { CORE_MODULE, META_MODULE } from './modules/meta-core.js';
import {
  APPS_MODULE,
  AUTOSCALING_V1_MODULE,
  AUTOSCALING_V2_MODULE,
  BATCH_MODULE,
  POLICY_MODULE,
} from './modules/workloads.js';
import { RBAC_MODULE } from './rbac-config.js';

/** Every generated module by the name `generate.ts` and `reduce-go-types.ts` take. */
export const MODULES: Readonly<Record<string, ModuleConfig>> = {
  meta: META_MODULE,
  core: CORE_MODULE,
  rbac: RBAC_MODULE,
  apps: APPS_MODULE,
  batch: BATCH_MODULE,
  'autoscaling-v1': AUTOSCALING_V1_MODULE,
  'autoscaling-v2': AUTOSCALING_V2_MODULE,
  policy: POLICY_MODULE,
  networking: NETWORKING_MODULE,
  discovery: DISCOVERY_MODULE,
  'events-v1': EVENTS_V1_MODULE,
  scheduling: SCHEDULING_MODULE,
  node: NODE_MODULE,
  storage: STORAGE_MODULE,
  certificates: CERTIFICATES_MODULE,
  flowcontrol: FLOWCONTROL_MODULE,
  coordination: COORDINATION_MODULE,
  'coordination-v1alpha2': COORDINATION_V1ALPHA2_MODULE,
  authentication: AUTHENTICATION_MODULE,
  authorization: AUTHORIZATION_MODULE,
  apiextensions: APIEXTENSIONS_MODULE,
};

/** The modules `config` imports from. */
export function usedModules(config: ModuleConfig): ModuleConfig[] {
  return (config.uses ?? []).map((name) => {
    const used = MODULES[name];
    if (!used) throw new SchemaGenError(`${config.output}: uses unknown module ${name}`);
    return used;
  });
}

/** The Go packages whose definitions `config` imports from other modules. */
export function usedPackages(config: ModuleConfig): Set<string> {
  return new Set(usedModules(config).map((m) => m.goPackage));
}
