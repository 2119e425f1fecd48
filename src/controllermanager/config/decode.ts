import type { ApiDomain } from '../../apis/api-domain.js';
import { decodeYamlStrict } from '../../encoding/index.js';
import { CLOUD_KIND, configNames, invertNames, renameKeys } from './config-names.js';
import { defaultCloudControllerManagerConfiguration, defaultControllerManagerConfiguration } from './defaults.js';
import { CLOUD_CONTROLLER_MANAGER_SHAPE, CONTROLLER_MANAGER_SHAPE } from './shapes.js';
import { checkShape, type Shape, withDefaults } from './strict-shape.js';
import {
  type CloudControllerManagerConfiguration,
  ControllerManagerConfigError,
  type OrchControllerManagerConfiguration,
} from './types.js';

/** A decoded configuration file: one of the two controller manager kinds, defaults applied. */
export type DecodedControllerManagerFile =
  | { readonly kind: 'controller-manager'; readonly config: OrchControllerManagerConfiguration }
  | { readonly kind: 'cloud-controller-manager'; readonly config: CloudControllerManagerConfiguration };

/** `shape` with struct members renamed to a domain's wire names. */
export function wireShape(shape: Shape, names: Readonly<Record<string, string>>): Shape {
  switch (shape.kind) {
    case 'list':
      return { ...shape, of: wireShape(shape.of, names) };
    case 'struct':
      return {
        ...shape,
        fields: Object.fromEntries(Object.entries(shape.fields).map(([k, f]) => [names[k] ?? k, wireShape(f, names)])),
      };
    default:
      return shape;
  }
}

/**
 * The first YAML or JSON document of `text` as a JSON object, or the problems reading it
 * (syntax errors, repeated keys in go-yaml's words, a document that is not an object).
 */
export function readConfigDocument(text: string): {
  readonly doc?: Record<string, unknown>;
  readonly problems: string[];
} {
  let value: unknown;
  let duplicates: readonly string[];
  try {
    ({ value, duplicates } = decodeYamlStrict(text));
  } catch (e) {
    return { problems: [`error converting YAML to JSON: ${(e as Error).message}`] };
  }
  if (duplicates.length > 0) return { problems: duplicates.map((d) => `yaml: unmarshal errors: ${d}`) };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { problems: ['the configuration must be a YAML or JSON object with apiVersion and kind'] };
  }
  return { doc: value as Record<string, unknown>, problems: [] };
}

/** The group/version and kind of a document, or why it has none (kube's decoder wording). */
export function typeMetaOf(doc: Record<string, unknown>): { apiVersion: string; kind: string; problem?: string } {
  const apiVersion = typeof doc.apiVersion === 'string' ? doc.apiVersion : '';
  const kind = typeof doc.kind === 'string' ? doc.kind : '';
  if (kind === '') return { apiVersion, kind, problem: "Object 'Kind' is missing in the configuration" };
  if (apiVersion === '') return { apiVersion, kind, problem: "Object 'apiVersion' is missing in the configuration" };
  return { apiVersion, kind };
}

/**
 * Decodes a controller manager configuration file (YAML or JSON) strictly: the
 * `OrchControllerManagerConfiguration` (`orchcontrollermanager.config.<domain>/v1alpha1`, kube's
 * `KubeControllerManagerConfiguration` under `k8s.io`) or the `CloudControllerManagerConfiguration`
 * (`cloudcontrollermanager.config.<domain>/v1alpha1`). Unknown fields, wrong types, bad
 * durations and int32/float32 overflows are all reported with their field paths; a missing or
 * unknown apiVersion/kind is an error naming the kinds accepted. Absent members take kube v1.32's
 * defaults (`defaults.ts`); the result is not yet validated (see `validate.ts`).
 *
 * @throws ControllerManagerConfigError listing every problem.
 */
export function decodeControllerManagerFile(text: string, domain: ApiDomain): DecodedControllerManagerFile {
  const { doc, problems } = readConfigDocument(text);
  if (!doc) throw new ControllerManagerConfigError(problems);
  const names = configNames(domain);
  const meta = typeMetaOf(doc);
  if (meta.problem) throw new ControllerManagerConfigError([meta.problem]);
  const kinds: [string, string, 'controller-manager' | 'cloud-controller-manager'][] = [
    [names.controllerManagerApiVersion, names.controllerManagerKind, 'controller-manager'],
    [names.cloudApiVersion, CLOUD_KIND, 'cloud-controller-manager'],
  ];
  const match = kinds.find(([v, k]) => v === meta.apiVersion && k === meta.kind);
  if (!match) {
    const accepted = kinds.map(([v, k]) => `${k} (${v})`).join(', ');
    throw new ControllerManagerConfigError([
      `no kind ${JSON.stringify(meta.kind)} is registered for version ${JSON.stringify(meta.apiVersion)}; expected ${accepted}`,
    ]);
  }
  const cloud = match[2] === 'cloud-controller-manager';
  const shape = cloud ? CLOUD_CONTROLLER_MANAGER_SHAPE : CONTROLLER_MANAGER_SHAPE;
  const root = cloud ? CLOUD_KIND : names.controllerManagerKind;
  const shapeProblems = checkShape(doc, wireShape(shape, names.wireNames), root);
  if (shapeProblems.length > 0) throw new ControllerManagerConfigError(shapeProblems);
  const internal = renameKeys(doc, invertNames(names.wireNames));
  if (cloud) {
    const config = withDefaults(internal, defaultCloudControllerManagerConfiguration(domain), shape);
    return { kind: 'cloud-controller-manager', config: withoutEmbeddedTypeMeta(config) };
  }
  const config = withDefaults(internal, defaultControllerManagerConfiguration(domain), shape);
  return { kind: 'controller-manager', config: withoutEmbeddedTypeMeta(config) };
}

/**
 * `Generic.LeaderMigration` embeds a TypeMeta (kube omits it when empty): accepted in files,
 * not part of the effective configuration.
 */
function withoutEmbeddedTypeMeta<T>(config: unknown): T {
  const c = config as { Generic: { LeaderMigration: Record<string, unknown> } };
  const { apiVersion: _v, kind: _k, ...migration } = c.Generic.LeaderMigration;
  return { ...c, Generic: { ...c.Generic, LeaderMigration: migration } } as T;
}

/**
 * Decodes a file that must be an OrchControllerManagerConfiguration (`--config` of
 * orch-controller-manager).
 * @throws ControllerManagerConfigError
 */
export function decodeControllerManagerConfiguration(
  text: string,
  domain: ApiDomain,
): OrchControllerManagerConfiguration {
  const decoded = decodeControllerManagerFile(text, domain);
  if (decoded.kind !== 'controller-manager') {
    const names = configNames(domain);
    throw new ControllerManagerConfigError([
      `expected ${names.controllerManagerKind} (${names.controllerManagerApiVersion}), got ${CLOUD_KIND}`,
    ]);
  }
  return decoded.config;
}

/**
 * Decodes a file that must be a CloudControllerManagerConfiguration.
 * @throws ControllerManagerConfigError
 */
export function decodeCloudControllerManagerConfiguration(
  text: string,
  domain: ApiDomain,
): CloudControllerManagerConfiguration {
  const decoded = decodeControllerManagerFile(text, domain);
  if (decoded.kind !== 'cloud-controller-manager') {
    throw new ControllerManagerConfigError([
      `expected ${CLOUD_KIND} (${configNames(domain).cloudApiVersion}), got ${decoded.config.kind}`,
    ]);
  }
  return decoded.config;
}

/** The effective configuration as a file of `domain` writes it: wire member names, every member. */
export function encodeControllerManagerConfiguration(
  config: OrchControllerManagerConfiguration | CloudControllerManagerConfiguration,
  domain: ApiDomain,
): Record<string, unknown> {
  return renameKeys(config, configNames(domain).wireNames) as Record<string, unknown>;
}
