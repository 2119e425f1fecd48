import type { ApiDomain } from '../apis/api-domain.js';
import { type FieldError, fieldErrors, formatFieldError } from '../apis/meta/field-error.js';
import { configNames, LEADER_MIGRATION_KIND } from './config/config-names.js';
import { readConfigDocument, typeMetaOf } from './config/decode.js';
import { LEADER_MIGRATION_SHAPE, LEADER_MIGRATION_V1_SHAPE } from './config/shapes.js';
import { checkShape, withDefaults } from './config/strict-shape.js';
import { ControllerManagerConfigError, type LeaderMigrationConfiguration } from './config/types.js';
import type { SelectableName } from './controller-selection.js';

/**
 * Leader migration (k8s.io/controller-manager/pkg/leadermigration in kube v1.32): a
 * `LeaderMigrationConfiguration` names a Lease (`leaderName`) under which the listed controllers
 * run, so that a controller can move between the controller manager and the cloud controller
 * manager without running in both. Each component runs a listed controller under the migration
 * Lease when the entry names it (or `*`), leaves it to the other component otherwise, and runs
 * every unlisted controller under its own main Lease.
 */

/** The only lock Orch (and kube v1.32's client-go) can run a migration Lease on. */
export const MIGRATION_RESOURCE_LOCK = 'leases';
/** The component name of the cloud controller manager in migration files (same in both profiles). */
export const CLOUD_CONTROLLER_MANAGER_COMPONENT = 'cloud-controller-manager';

const VERSIONS = ['v1alpha1', 'v1beta1', 'v1'];

/**
 * kube's `DefaultLeaderMigrationConfiguration`: used when migration is enabled without a file.
 * It moves the three cloud controllers (by the names kube v1.32 lists, which may run in either
 * component) under `cloud-provider-extraction-migration`.
 */
export function defaultLeaderMigrationConfiguration(): LeaderMigrationConfiguration {
  return {
    leaderName: 'cloud-provider-extraction-migration',
    resourceLock: MIGRATION_RESOURCE_LOCK,
    controllerLeaders: [
      { name: 'route-controller', component: '*' },
      { name: 'service-controller', component: '*' },
      { name: 'cloud-node-lifecycle-controller', component: '*' },
    ],
  };
}

/**
 * kube's `ValidateLeaderMigrationConfiguration` under `path`, with two Orch rules: `endpoints`
 * (which kube's validation still accepts but its client-go refuses to run since v1.29) is
 * reported as removed, and a controller named twice in `controllerLeaders` is a duplicate.
 * Every problem is returned.
 */
export function validateLeaderMigrationConfiguration(cfg: LeaderMigrationConfiguration, path = ''): FieldError[] {
  const at = (f: string) => (path ? `${path}.${f}` : f);
  const errs: FieldError[] = [];
  if (cfg.leaderName === '') {
    errs.push(fieldErrors.required(at('leaderName'), 'leaderName must be set for LeaderMigrationConfiguration'));
  }
  if (cfg.resourceLock === 'endpoints') {
    errs.push(
      fieldErrors.invalid(at('resourceLock'), cfg.resourceLock, 'endpoints lock is removed, migrate to leases'),
    );
  } else if (cfg.resourceLock !== MIGRATION_RESOURCE_LOCK) {
    errs.push(
      fieldErrors.invalid(at('resourceLock'), cfg.resourceLock, "resource Lock must be one of 'leases' or 'endpoints'"),
    );
  }
  const seen = new Set<string>();
  cfg.controllerLeaders.forEach((leader, i) => {
    const entry = at(`controllerLeaders[${i}]`);
    if (leader.component === '') errs.push(fieldErrors.required(`${entry}.component`, 'component must be set'));
    if (leader.name === '') errs.push(fieldErrors.required(`${entry}.name`, 'name must be set'));
    else if (seen.has(leader.name)) errs.push(fieldErrors.duplicate(`${entry}.name`, leader.name));
    seen.add(leader.name);
  });
  return errs;
}

/**
 * Decodes and validates a leader migration file (`--leader-migration-config`): YAML or JSON of
 * `controllermanager.config.<domain>`, version `v1alpha1`, `v1beta1` or `v1` (which has no
 * `resourceLock`: it means `leases`), strictly (unknown fields and wrong types are errors).
 *
 * @throws ControllerManagerConfigError listing every problem.
 */
export function parseLeaderMigrationConfiguration(text: string, domain: ApiDomain): LeaderMigrationConfiguration {
  const { doc, problems } = readConfigDocument(text);
  if (!doc) throw new ControllerManagerConfigError(problems);
  const meta = typeMetaOf(doc);
  if (meta.problem) throw new ControllerManagerConfigError([meta.problem]);
  const group = configNames(domain).migrationGroup;
  const [g, version] = meta.apiVersion.split('/', 2);
  if (g !== group || !VERSIONS.includes(version ?? '') || meta.kind !== LEADER_MIGRATION_KIND) {
    throw new ControllerManagerConfigError([
      `no kind ${JSON.stringify(meta.kind)} is registered for version ${JSON.stringify(meta.apiVersion)}; expected ${LEADER_MIGRATION_KIND} (${VERSIONS.map((v) => `${group}/${v}`).join(', ')})`,
    ]);
  }
  const shape = version === 'v1' ? LEADER_MIGRATION_V1_SHAPE : LEADER_MIGRATION_SHAPE;
  const shapeProblems = checkShape(doc, shape, LEADER_MIGRATION_KIND);
  if (shapeProblems.length > 0) throw new ControllerManagerConfigError(shapeProblems);
  const decoded = withDefaults(doc, {}, shape) as LeaderMigrationConfiguration & Record<string, unknown>;
  const config: LeaderMigrationConfiguration = {
    leaderName: decoded.leaderName,
    resourceLock: version === 'v1' ? MIGRATION_RESOURCE_LOCK : decoded.resourceLock,
    controllerLeaders: decoded.controllerLeaders,
  };
  const errs = validateLeaderMigrationConfiguration(config);
  if (errs.length > 0) throw new ControllerManagerConfigError(errs.map(formatFieldError));
  return config;
}

/** kube's `leadermigration.Enabled`: migration needs leader election. */
export function leaderMigrationEnabled(generic: {
  readonly LeaderMigrationEnabled: boolean;
  readonly LeaderElection: { readonly leaderElect: boolean };
}): boolean {
  return generic.LeaderElection.leaderElect && generic.LeaderMigrationEnabled;
}

/** Where each enabled controller runs under migration. */
export interface MigrationAssignment {
  /** Run under the component's own Lease (not part of the migration). */
  readonly main: readonly string[];
  /** Run under the migration Lease `leaderName`. */
  readonly migrated: readonly string[];
  /** Listed for another component: not run here. */
  readonly unowned: readonly string[];
}

/**
 * kube's `NewLeaderMigrator` filter applied to `controllers` (canonical names) for `component`
 * (kube's names: `kube-controller-manager` or `cloud-controller-manager`; Orch's controller
 * manager uses its domain's name, `configNames(domain).controllerManagerComponent`). A
 * `controllerLeaders` entry matches a controller by its canonical name or any alias (kube
 * compares the name it registered the controller under). Names in `mainLockOnly` always run
 * under the main Lease: kube starts the service account token controller there regardless and
 * never under the migration Lease.
 */
export function assignMigration(options: {
  readonly config: LeaderMigrationConfiguration;
  readonly component: string;
  readonly controllers: readonly Pick<SelectableName, 'name' | 'aliases'>[];
  readonly mainLockOnly?: readonly string[];
}): MigrationAssignment {
  const leaders = new Map<string, string>();
  for (const l of options.config.controllerLeaders) if (!leaders.has(l.name)) leaders.set(l.name, l.component);
  const main: string[] = [];
  const migrated: string[] = [];
  const unowned: string[] = [];
  for (const c of options.controllers) {
    const key = [c.name, ...(c.aliases ?? [])].find((n) => leaders.has(n));
    if (options.mainLockOnly?.includes(c.name) || key === undefined) main.push(c.name);
    else if (leaders.get(key) === options.component || leaders.get(key) === '*') migrated.push(c.name);
    else unowned.push(c.name);
  }
  return { main, migrated, unowned };
}
